package sibyl.client.cli;

import java.io.IOException;
import java.nio.file.Path;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.completer.StringsCompleter;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * Lines typed at a terminal, with JLine's line editing, completion of the keywords, and history kept
 * in {@code ~/.sibyl_cli_history}. Ctrl-C abandons the line being typed; Ctrl-D at an empty prompt ends.
 */
final class TerminalLineSource implements LineSource {

    private static final String[] KEYWORDS = {
        "connect", "set", "get", "count", "del", "show", "keyspaces", "cluster", "name", "api", "version",
        "describe", "keyspace", "help", "quit", "exit",
        // the 0.7+ statements'
        "use", "list", "truncate", "create", "update", "drop", "column", "family", "assume", "keys", "comparator",
        "validator", "with", "and", "ttl", "limit"};

    private final Terminal terminal;
    private final LineReader reader;

    TerminalLineSource() throws IOException {
        terminal = TerminalBuilder.builder().system(true).build();
        reader = LineReaderBuilder.builder()
                .terminal(terminal)
                .appName("sibyl-cli")
                .completer(new StringsCompleter(KEYWORDS))
                .variable(LineReader.HISTORY_FILE, Path.of(System.getProperty("user.home"), ".sibyl_cli_history"))
                .variable(LineReader.HISTORY_SIZE, 1000)
                .build();
    }

    @Override
    public String readLine(String prompt) {
        try {
            return reader.readLine(prompt);
        } catch (UserInterruptException e) {
            return "";
        } catch (EndOfFileException e) {
            return null;
        }
    }

    @Override
    public void close() throws IOException {
        try {
            reader.getHistory().save();
        } finally {
            terminal.close();
        }
    }
}
