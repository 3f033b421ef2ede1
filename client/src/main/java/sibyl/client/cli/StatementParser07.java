package sibyl.client.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import sibyl.client.cli.Statement07.Array;
import sibyl.client.cli.Statement07.Attribute;
import sibyl.client.cli.Statement07.AttributeValue;
import sibyl.client.cli.Statement07.Hash;
import sibyl.client.cli.Statement07.Path;
import sibyl.client.cli.Statement07.Term;
import sibyl.client.cli.Statement07.Text;
import sibyl.client.cli.Tokenizer.Kind;
import sibyl.client.cli.Tokenizer.Token;

/**
 * Parses the statements of the 0.7+ cli (the cassandra-cli of Cassandra 0.7 to 1.2). A statement ends with
 * {@code ;} and may span lines; several may share a line. Keywords are case-insensitive; names and literals
 * are bare words or quoted; a literal may be wrapped in a conversion function such as {@code utf8('x')}.
 * {@link Help07} lists the statements.
 */
final class StatementParser07 {

    /** The symbols of the 0.7 statements; dots belong to words (class names, decimals). */
    private static final String SYMBOLS = "[]=;{}:,()?";

    private final TokenCursor tokens;

    private StatementParser07(List<Token> tokens) {
        this.tokens = new TokenCursor(tokens);
    }

    /**
     * Whether {@code text} (the lines read so far) holds whole statements: it ends with {@code ;} outside
     * quotes, or is one of the words that need none (help, ?, quit, exit), or is a comment.
     */
    static boolean isComplete(String text) {
        String t = text.strip();
        if (t.isEmpty() || isComment(t)) {
            return true;
        }
        String word = t.toLowerCase(Locale.ROOT);
        if (word.equals("?") || word.equals("help") || word.equals("quit") || word.equals("exit")) {
            return true;
        }
        return t.endsWith(";") && !openQuote(t);
    }

    /** The statements of {@code text}, split at each {@code ;} outside quotes, without the {@code ;}. */
    static List<String> split(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                cur.append(c);
                if (c == '\\' && i + 1 < text.length()) {
                    cur.append(text.charAt(++i));
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == ';') {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                if (c == '\'' || c == '"') {
                    quote = c;
                }
                cur.append(c);
            }
        }
        if (!cur.toString().isBlank()) {
            out.add(cur.toString());
        }
        return out;
    }

    private static boolean openQuote(String text) {
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == '\\') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
            }
        }
        return quote != 0;
    }

    private static boolean isComment(String line) {
        return line.startsWith("#") || line.startsWith("--");
    }

    /** One statement without its {@code ;}; null for a blank one or a comment. */
    static Statement07 parse(String statement) {
        StringBuilder kept = new StringBuilder();
        for (String line : statement.split("\n", -1)) {
            if (!isComment(line.strip())) {
                kept.append(line).append('\n');
            }
        }
        String text = kept.toString().strip();
        if (text.isEmpty()) {
            return null;
        }
        if (text.equals("?")) {
            return new Statement07.Help();
        }
        String[] words = text.split("\\s+", 2);
        if (words[0].equalsIgnoreCase("connect")) {
            return connect(words.length > 1 ? words[1] : "");
        }
        return new StatementParser07(Tokenizer.tokenize(text, SYMBOLS, ".")).statement();
    }

    private Statement07 statement() {
        Token first = tokens.next("a command");
        if (first.kind() != Kind.WORD) {
            throw new CliError("a statement starts with a command, not " + first.display()
                    + "; type 'help;' for the list");
        }
        String command = first.text().toLowerCase(Locale.ROOT);
        Statement07 s = switch (command) {
            case "use" -> use();
            case "set" -> set();
            case "get" -> get();
            case "del" -> new Statement07.Del(path("del"));
            case "count" -> new Statement07.Count(path("count"));
            case "list" -> list();
            case "truncate" -> new Statement07.Truncate(tokens.name("a column family name"));
            case "create" -> create(true);
            case "update" -> create(false);
            case "drop" -> drop();
            case "describe" -> describe();
            case "show" -> show();
            case "assume" -> assume();
            case "help" -> {
                tokens.skipRest(); // "help anything;" shows the same summary
                yield new Statement07.Help();
            }
            case "quit", "exit" -> new Statement07.Quit();
            default -> throw new CliError("unknown command '" + first.text() + "'; type 'help;' for the list");
        };
        tokens.expectEnd(command);
        return s;
    }

    private static Statement07 connect(String rest) {
        return new Statement07.Connect(StatementParser.connectTarget(rest, "connect HOST/PORT;"));
    }

    private Statement07 use() {
        String keyspace = tokens.name("a keyspace name");
        if (tokens.atEnd()) {
            return new Statement07.Use(keyspace, null, null);
        }
        String user = tokens.name("a user name");
        String password = tokens.name("a password after the user name");
        return new Statement07.Use(keyspace, user, password);
    }

    private Statement07 set() {
        Path path = path("set");
        tokens.expectSymbol("=");
        Term value = term("the value");
        Integer ttl = null;
        if (tokens.takeWord("with")) {
            tokens.expectWord("ttl", "with ttl = SECONDS");
            tokens.expectSymbol("=");
            ttl = number("the ttl in seconds", 0);
        }
        return new Statement07.Set(path, value, ttl);
    }

    private Statement07 get() {
        Path path = path("get");
        String as = null;
        Integer limit = null;
        if (tokens.takeWord("as")) {
            as = tokens.name("a type after 'as'");
        }
        if (tokens.takeWord("limit")) {
            limit = number("the limit", 1);
        }
        return new Statement07.Get(path, as, limit);
    }

    private Statement07 list() {
        String cf = tokens.name("a column family name");
        Term start = null;
        Term end = null;
        if (tokens.take("[")) {
            if (!tokens.take(":")) {
                start = term("the first key");
                tokens.expectSymbol(":");
            }
            if (!tokens.take("]")) {
                end = term("the last key");
                tokens.expectSymbol("]");
            }
        }
        Integer limit = null;
        if (tokens.takeWord("limit")) {
            limit = number("the limit", 1);
        }
        return new Statement07.ListRows(cf, start, end, limit);
    }

    private Statement07 create(boolean create) {
        String verb = create ? "create" : "update";
        Token what = tokens.next("keyspace or column family after " + verb);
        if (what.isWord("keyspace")) {
            String name = tokens.name("a keyspace name");
            return new Statement07.KeyspaceDefinition(create, name, attributes());
        }
        if (what.isWord("column")) {
            tokens.expectWord("family", verb + " column family NAME");
            String name = tokens.name("a column family name");
            return new Statement07.ColumnFamilyDefinition(create, name, attributes());
        }
        throw new CliError("cannot " + verb + " " + what.display() + "; " + verb + " keyspace NAME or " + verb
                + " column family NAME");
    }

    private Statement07 drop() {
        Token what = tokens.next("keyspace or column family after drop");
        if (what.isWord("keyspace")) {
            return new Statement07.DropKeyspace(tokens.name("a keyspace name"));
        }
        if (what.isWord("column")) {
            tokens.expectWord("family", "drop column family NAME");
            return new Statement07.DropColumnFamily(tokens.name("a column family name"));
        }
        throw new CliError("cannot drop " + what.display() + "; drop keyspace NAME or drop column family NAME");
    }

    private Statement07 describe() {
        if (tokens.atEnd()) {
            return new Statement07.Describe(null);
        }
        if (tokens.takeWord("keyspace") && tokens.atEnd()) {
            return new Statement07.Describe(null);
        }
        return new Statement07.Describe(tokens.name("a keyspace name"));
    }

    private Statement07 show() {
        return switch (StatementParser.showTarget(tokens)) {
            case "keyspaces" -> new Statement07.ShowKeyspaces();
            case "cluster name" -> new Statement07.ShowClusterName();
            default -> new Statement07.ShowApiVersion();
        };
    }

    private Statement07 assume() {
        String cf = tokens.name("a column family name");
        Token element = tokens.next("keys, comparator, sub_comparator or validator");
        String e = element.text().toLowerCase(Locale.ROOT);
        if (element.kind() != Kind.WORD || !List.of("keys", "comparator", "sub_comparator", "validator").contains(e)) {
            throw new CliError("cannot assume " + element.display() + "; assume CF keys|comparator|sub_comparator"
                    + "|validator as TYPE");
        }
        tokens.expectWord("as", "assume CF " + e + " as TYPE");
        return new Statement07.Assume(cf, e, tokens.name("a type"));
    }

    // ---- parts ----

    /** {@code CF['key']['name']...} with 1 to 3 bracketed terms. */
    private Path path(String command) {
        Token cf = tokens.next("ColumnFamily['key'] after " + command);
        if (cf.kind() == Kind.SYMBOL) {
            throw new CliError("expected ColumnFamily['key'] at column " + cf.column() + ", found " + cf.display());
        }
        List<Term> levels = new ArrayList<>();
        while (tokens.take("[")) {
            levels.add(term(levels.isEmpty() ? "the row key" : "a column name"));
            tokens.expectSymbol("]");
        }
        if (levels.isEmpty()) {
            throw new CliError(command + " needs a row key: " + cf.text() + "['key']");
        }
        if (levels.size() > 3) {
            throw new CliError("too many [...] levels: at most ['key']['super column']['column']");
        }
        return new Path(cf.text(), List.copyOf(levels));
    }

    /** A literal, or {@code function(literal)} / {@code function()}. */
    private Term term(String what) {
        Literal literal = tokens.literal(what);
        if (literal.quoted() || !tokens.take("(")) {
            return new Term(literal, null);
        }
        String function = literal.text().toLowerCase(Locale.ROOT);
        if (CliType.ofFunction(function) == null) {
            throw new CliError("unknown function '" + literal.text() + "'; the functions are " + CliType.FUNCTIONS);
        }
        if (tokens.take(")")) {
            return new Term(null, function);
        }
        Literal argument = tokens.literal("the argument of " + function + "(...)");
        tokens.expectSymbol(")");
        return new Term(argument, function);
    }

    private int number(String what, int min) {
        Token t = tokens.next(what);
        try {
            int n = Integer.parseInt(t.text());
            if (t.kind() == Kind.WORD && n >= min) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new CliError("expected " + what + " (a whole number of at least " + min + ") at column " + t.column()
                + ", found " + t.display());
    }

    /** {@code [with NAME = VALUE (and NAME = VALUE)*]}. */
    private List<Attribute> attributes() {
        List<Attribute> list = new ArrayList<>();
        if (!tokens.takeWord("with")) {
            return list;
        }
        do {
            String name = tokens.name("an attribute name").toLowerCase(Locale.ROOT);
            tokens.expectSymbol("=");
            list.add(new Attribute(name, attributeValue(name)));
        } while (tokens.takeWord("and"));
        return list;
    }

    private AttributeValue attributeValue(String name) {
        if (tokens.take("{")) {
            return new Hash(hashBody());
        }
        if (tokens.take("[")) {
            List<Map<String, String>> hashes = new ArrayList<>();
            while (!tokens.take("]")) {
                tokens.take(",");
                if (tokens.take("]")) {
                    break;
                }
                tokens.expectSymbol("{");
                hashes.add(hashBody());
            }
            return new Array(hashes);
        }
        return new Text(scalar("the value of " + name));
    }

    /** After {@code {}: {@code k: v, k: v}}. */
    private Map<String, String> hashBody() {
        Map<String, String> entries = new LinkedHashMap<>();
        while (!tokens.take("}")) {
            if (!entries.isEmpty()) {
                tokens.expectSymbol(",");
            }
            String key = tokens.name("a name in {...}");
            tokens.expectSymbol(":");
            entries.put(key, scalar("the value of " + key));
        }
        return entries;
    }

    /** A word or quoted string; a word may carry parameters, as in CompositeType(UTF8Type, LongType). */
    private String scalar(String what) {
        Token t = tokens.next(what);
        if (t.kind() == Kind.SYMBOL) {
            throw new CliError("expected " + what + " at column " + t.column() + ", found " + t.display());
        }
        if (t.kind() == Kind.STRING || !tokens.take("(")) {
            return t.text();
        }
        StringBuilder sb = new StringBuilder(t.text()).append('(');
        int depth = 1;
        while (depth > 0) {
            Token p = tokens.next("')' closing " + t.text() + "(...)");
            if (p.is("(")) {
                depth++;
            } else if (p.is(")")) {
                depth--;
            }
            sb.append(p.text());
        }
        return sb.toString();
    }
}
