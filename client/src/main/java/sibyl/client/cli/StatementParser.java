package sibyl.client.cli;

import java.util.ArrayList;
import java.util.List;
import sibyl.client.HostAddress;
import sibyl.client.cli.Tokenizer.Kind;
import sibyl.client.cli.Tokenizer.Token;

/**
 * Parses one line of the cli language (the 0.6 cassandra-cli statements):
 * <pre>
 * connect HOST/PORT
 * set KS.CF['key']['column'] = VALUE          set KS.SuperCF['key']['super']['column'] = VALUE
 * get KS.CF['key'] | ['key']['column']        get KS.SuperCF['key'] | ['key']['super'] | ['key']['super']['column']
 * count KS.CF['key'] | KS.SuperCF['key']['super']
 * del KS.CF['key'] | ['key']['column']        del KS.SuperCF['key']['super'] | ['key']['super']['column']
 * show keyspaces | show cluster name | show api version
 * describe keyspace KS
 * help | ?     quit | exit
 * </pre>
 * Keywords are case-insensitive; a trailing {@code ;} is allowed. Returns null for a blank line or a
 * comment (a line starting with {@code #} or {@code --}).
 */
final class StatementParser {

    private final TokenCursor tokens;

    private StatementParser(List<Token> tokens) {
        this.tokens = new TokenCursor(tokens);
    }

    static Statement parse(String line) {
        String trimmed = line.strip();
        if (trimmed.isEmpty() || trimmed.startsWith("#") || trimmed.startsWith("--")) {
            return null;
        }
        if (trimmed.equals("?")) {
            return new Statement.Help();
        }
        String[] words = trimmed.split("\\s+", 2);
        if (words[0].equalsIgnoreCase("connect")) {
            return connect(words.length > 1 ? words[1] : "");
        }
        List<Token> tokens = new ArrayList<>(Tokenizer.tokenize(trimmed));
        while (!tokens.isEmpty() && tokens.get(tokens.size() - 1).is(";")) {
            tokens.remove(tokens.size() - 1);
        }
        if (tokens.isEmpty()) {
            return null;
        }
        return new StatementParser(tokens).statement();
    }

    private Statement statement() {
        Token first = tokens.next("a command");
        if (first.kind() != Kind.WORD) {
            throw new CliError("a statement starts with a command, not " + first.display()
                    + "; type 'help' for the list");
        }
        String command = first.text().toLowerCase(java.util.Locale.ROOT);
        Statement s = switch (command) {
            case "set" -> set();
            case "get" -> new Statement.Get(path("get"));
            case "count" -> new Statement.Count(path("count"));
            case "del" -> new Statement.Del(path("del"));
            case "show" -> show();
            case "describe" -> describe();
            case "help" -> {
                tokens.skipRest(); // "help anything" shows the same summary
                yield new Statement.Help();
            }
            case "quit", "exit" -> new Statement.Quit();
            default -> throw new CliError("unknown command '" + first.text() + "'; type 'help' for the list");
        };
        tokens.expectEnd(command);
        return s;
    }

    private static Statement connect(String rest) {
        return new Statement.Connect(connectTarget(rest, "connect HOST/PORT"));
    }

    /**
     * The HOST/PORT of a connect statement (either dialect), given the text after {@code connect}. It is not made
     * of the statements' tokens (dots, colons, slashes), so it is parsed apart.
     */
    static HostAddress connectTarget(String rest, String form) {
        String target = rest.strip();
        while (target.endsWith(";")) {
            target = target.substring(0, target.length() - 1).strip();
        }
        if (target.isEmpty()) {
            throw new CliError("connect needs a host and port: " + form);
        }
        try {
            return HostAddress.parse(target, HostAddress.DEFAULT_PORT);
        } catch (IllegalArgumentException e) {
            throw new CliError("connect: " + e.getMessage() + " (expected HOST/PORT)");
        }
    }

    private Statement set() {
        CellPath path = path("set");
        Token eq = tokens.next("'=' and a value");
        if (!eq.is("=")) {
            throw new CliError("expected '=' at column " + eq.column() + ", found " + eq.display());
        }
        return new Statement.Set(path, tokens.literal("the value"));
    }

    private Statement show() {
        return switch (showTarget(tokens)) {
            case "keyspaces" -> new Statement.ShowKeyspaces();
            case "cluster name" -> new Statement.ShowClusterName();
            default -> new Statement.ShowApiVersion();
        };
    }

    /** What a show statement (either dialect) shows: "keyspaces", "cluster name" or "api version". */
    static String showTarget(TokenCursor tokens) {
        Token what = tokens.next("what to show: keyspaces, cluster name or api version");
        if (what.isWord("keyspaces")) {
            return "keyspaces";
        }
        if (what.isWord("cluster")) {
            tokens.expectWord("name", "show cluster name");
            return "cluster name";
        }
        if (what.isWord("api")) {
            tokens.expectWord("version", "show api version");
            return "api version";
        }
        throw new CliError("cannot show " + what.display() + "; try show keyspaces, show cluster name "
                + "or show api version");
    }

    private Statement describe() {
        tokens.expectWord("keyspace", "describe keyspace NAME");
        return new Statement.DescribeKeyspace(tokens.name("a keyspace name"));
    }

    /** {@code KS.CF['key']...} with 1 to 3 bracketed literals. */
    private CellPath path(String command) {
        Token ks = tokens.next("Keyspace.ColumnFamily['key'] after " + command);
        if (ks.kind() != Kind.WORD) {
            throw new CliError("expected Keyspace.ColumnFamily['key'] at column " + ks.column() + ", found "
                    + ks.display());
        }
        Token dot = tokens.next("'.' and a column family after the keyspace " + ks.text());
        if (!dot.is(".")) {
            throw new CliError("expected '.' between keyspace and column family at column " + dot.column()
                    + ", found " + dot.display());
        }
        Token cf = tokens.next("a column family name after " + ks.text() + ".");
        if (cf.kind() != Kind.WORD) {
            throw new CliError("expected a column family name at column " + cf.column() + ", found " + cf.display());
        }
        List<Literal> levels = new ArrayList<>();
        while (tokens.take("[")) {
            levels.add(tokens.literal(levels.isEmpty() ? "the row key" : "a column name"));
            tokens.expectSymbol("]");
        }
        if (levels.isEmpty()) {
            throw new CliError(command + " needs a row key: " + ks.text() + "." + cf.text() + "['key']");
        }
        if (levels.size() > 3) {
            throw new CliError("too many [...] levels: at most ['key']['super column']['column']");
        }
        return new CellPath(ks.text(), cf.text(), List.copyOf(levels));
    }
}
