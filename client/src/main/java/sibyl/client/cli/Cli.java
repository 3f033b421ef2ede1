package sibyl.client.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import sibyl.client.ClientConfig;
import sibyl.client.ClientException;
import sibyl.client.HostAddress;
import sibyl.client.tool.CommandLine.Arguments;

/**
 * The cli: an interactive shell, or a script runner, for the Cassandra 0.6 cli statements (the default) or,
 * with {@code --dialect 0.7}, the statements of Cassandra 0.7 to 1.2's cli over the 0.7+ Thrift dialect.
 *
 * <p>Interactively, a failed statement prints what was wrong and the shell goes on. In batch mode
 * ({@code -f FILE}, or stdin that is not a terminal) the first failure stops the run with exit status 1.
 * Exit status 2 means bad options or an unreadable script.
 */
public final class Cli {

    /** The 0.6 statements' prompt. */
    static final String PROMPT = "sibyl> ";

    private final CliOptions options;
    private final PrintStream out;
    private final PrintStream err;

    private Cli(CliOptions options, PrintStream out, PrintStream err) {
        this.options = options;
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.in, System.out, System.err));
    }

    /** Runs the cli as {@code main} would, with the given streams; returns the exit status. */
    public static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
        CliOptions options;
        try {
            Arguments arguments = CliOptions.COMMAND_LINE.parse(args);
            if (arguments.help()) {
                return CliOptions.COMMAND_LINE.printUsage(out);
            }
            options = CliOptions.of(arguments);
        } catch (IllegalArgumentException e) {
            return CliOptions.COMMAND_LINE.refuse(err, e.getMessage());
        }
        return new Cli(options, out, err).run(in);
    }

    private int run(InputStream in) {
        boolean interactive = options.file() == null
                && (options.interactive() != null ? options.interactive() : System.console() != null);
        LineSource lines;
        String source;
        try {
            if (options.file() != null) {
                source = options.file();
                lines = new StreamLineSource(Files.newBufferedReader(Path.of(options.file()),
                        StandardCharsets.UTF_8), null);
            } else if (interactive && System.console() != null && in == System.in) {
                source = "terminal";
                lines = new TerminalLineSource();
            } else {
                source = "stdin";
                lines = new StreamLineSource(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)),
                        interactive ? out : null);
            }
        } catch (NoSuchFileException e) {
            err.println("cli: script not found: " + options.file());
            return 2;
        } catch (IOException e) {
            err.println("cli: cannot read " + (options.file() != null ? options.file() : "the terminal") + ": " + e);
            return 2;
        }
        try (lines; Shell session = shell()) {
            if (interactive) {
                out.println(session.welcome());
            }
            if (!options.hosts().isEmpty()) {
                try {
                    session.connect(options.hosts());
                } catch (CliError | ClientException e) {
                    err.println(interactive ? "error: " + e.getMessage() : "cli: " + e.getMessage());
                    if (!interactive) {
                        return 1;
                    }
                }
            }
            return loop(session, lines, source, interactive);
        } catch (IOException e) {
            err.println("cli: reading " + source + " failed: " + e);
            return 2;
        }
    }

    private Shell shell() {
        if (options.dialect07()) {
            Statement07.Use use = options.keyspace() == null ? null
                    : new Statement07.Use(options.keyspace(), options.username(), options.password());
            return new CliSession07(out, options.timeoutSeconds() * 1000, use);
        }
        return new CliSession(baseConfig(), out, options.hexPrefix());
    }

    /** Reads lines until they hold whole statements (a 0.7 statement may span lines), then runs them. */
    private int loop(Shell session, LineSource lines, String source, boolean interactive) throws IOException {
        int lineNumber = 0;
        int firstLine = 0;
        StringBuilder pending = new StringBuilder();
        while (true) {
            String line = lines.readLine(pending.length() == 0 ? session.prompt() : session.continuationPrompt());
            if (line == null) {
                // Input ended inside a statement (a 0.7 one without its ';'): run what there is.
                return pending.toString().isBlank() ? 0 : run(session, pending.toString(), source, firstLine,
                        interactive) == Outcome.FAILED ? 1 : 0;
            }
            lineNumber++;
            if (pending.length() == 0) {
                firstLine = lineNumber;
            }
            pending.append(line).append('\n');
            if (!session.isComplete(pending.toString())) {
                continue;
            }
            String text = pending.toString();
            pending.setLength(0);
            Outcome outcome = run(session, text, source, firstLine, interactive);
            if (outcome == Outcome.QUIT) {
                return 0;
            }
            if (outcome == Outcome.FAILED && !interactive) {
                return 1;
            }
        }
    }

    private enum Outcome { DONE, QUIT, FAILED }

    private Outcome run(Shell session, String text, String source, int lineNumber, boolean interactive) {
        String failure;
        try {
            boolean goOn = session.execute(text);
            out.flush();
            return goOn ? Outcome.DONE : Outcome.QUIT;
        } catch (CliError | ClientException e) {
            failure = e.getMessage();
        } catch (IllegalArgumentException e) {
            failure = e.getMessage();
        } catch (RuntimeException e) {
            failure = "internal error: " + e;
        }
        out.flush();
        if (interactive) {
            err.println("error: " + failure);
            err.flush();
        } else {
            err.println(source + ":" + lineNumber + ": error: " + failure);
        }
        return Outcome.FAILED;
    }

    private ClientConfig baseConfig() {
        ClientConfig.Builder b = ClientConfig.builder()
                // The connect statement or --host replaces this placeholder.
                .hosts(options.hosts().isEmpty() ? List.of(new HostAddress("localhost", HostAddress.DEFAULT_PORT))
                        : options.hosts())
                .framed(options.framed())
                .readTimeoutMillis(options.timeoutSeconds() * 1000);
        if (options.username() != null) {
            b.login(options.keyspace(), options.username(), options.password());
        }
        return b.build();
    }
}
