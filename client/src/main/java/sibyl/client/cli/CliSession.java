package sibyl.client.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.SuperColumn;
import sibyl.client.Bytes;
import sibyl.client.ClientConfig;
import sibyl.client.ClientException;
import sibyl.client.HostAddress;
import sibyl.client.NameType;
import sibyl.client.Paths;
import sibyl.client.SibylClient;

/**
 * Carries out cli statements over one connection and prints their results. Column families are
 * looked up with describe_keyspace (once per keyspace and connection) to learn whether they are
 * super and how their names convert.
 */
final class CliSession implements Shell {

    /** Columns fetched per get_slice when printing a whole row. */
    private static final int PAGE = 1000;

    private final ClientConfig baseConfig;
    private final PrintStream out;
    private final boolean hexPrefix;
    private final Map<String, Map<String, ColumnFamilyInfo>> schema = new HashMap<>();
    private SibylClient client;

    /** {@code baseConfig}'s hosts are replaced by the one each connect statement names. */
    /** @param hexPrefix print BytesType names as {@code 0x} hex (else bare hex, as 0.6's cli did) */
    CliSession(ClientConfig baseConfig, PrintStream out, boolean hexPrefix) {
        this.baseConfig = baseConfig;
        this.out = out;
        this.hexPrefix = hexPrefix;
    }

    private String name(NameType type, byte[] name) {
        return hexPrefix ? type.format(name) : type.format06(name);
    }

    boolean isConnected() {
        return client != null;
    }

    HostAddress connectedHost() {
        return client == null ? null : client.connectedHost();
    }

    @Override
    public String welcome() {
        return "Sibyl cli for the Cassandra 0.6 interface. Type 'help' for the statements, 'quit' to leave.";
    }

    @Override
    public String prompt() {
        return "sibyl> ";
    }

    @Override
    public String continuationPrompt() {
        return prompt();
    }

    /** A 0.6 statement is one line. */
    @Override
    public boolean isComplete(String text) {
        return true;
    }

    @Override
    public boolean execute(String line) {
        Statement statement = StatementParser.parse(line);
        return statement == null || execute(statement);
    }

    /** Runs one statement; returns false when it asks to quit. Failures are CliError or ClientException. */
    boolean execute(Statement statement) {
        if (statement instanceof Statement.Quit) {
            return false;
        } else if (statement instanceof Statement.Help) {
            out.println(Help.TEXT);
        } else if (statement instanceof Statement.Connect c) {
            connect(List.of(c.host()));
        } else if (statement instanceof Statement.ShowKeyspaces) {
            new TreeSet<>(client().describeKeyspaces()).forEach(out::println);
        } else if (statement instanceof Statement.ShowClusterName) {
            out.println(client().describeClusterName());
        } else if (statement instanceof Statement.ShowApiVersion) {
            out.println(client().describeVersion());
        } else if (statement instanceof Statement.DescribeKeyspace d) {
            describe(d.keyspace());
        } else if (statement instanceof Statement.Set s) {
            set(s.path(), s.value());
        } else if (statement instanceof Statement.Get g) {
            get(g.path());
        } else if (statement instanceof Statement.Count c) {
            count(c.path());
        } else if (statement instanceof Statement.Del d) {
            del(d.path());
        } else {
            throw new AssertionError(statement);
        }
        return true;
    }

    @Override
    public void connect(List<HostAddress> hosts) {
        close();
        client = SibylClient.connect(baseConfig.toBuilder().hosts(hosts).build());
        HostAddress h = client.connectedHost();
        String name;
        try {
            name = client.describeClusterName();
        } catch (ClientException e) {
            name = "?";
        }
        out.println("Connected to: \"" + name + "\" on " + h.host() + "/" + h.port());
    }

    @Override
    public void close() {
        if (client != null) {
            client.close();
            client = null;
        }
        schema.clear();
    }

    // ---- statements ----

    private void describe(String keyspace) {
        Map<String, Map<String, String>> cfs = keyspaceDescription(keyspace);
        out.println("Keyspace: " + keyspace);
        for (Map.Entry<String, Map<String, String>> cf : new TreeMap<>(cfs).entrySet()) {
            out.println("  Column family: " + cf.getKey());
            Map<String, String> props = new TreeMap<>(cf.getValue());
            for (String first : List.of("Type", "CompareWith", "CompareSubcolumnsWith")) {
                String v = props.remove(first);
                if (v != null) {
                    printProperty(first, v);
                }
            }
            String desc = props.remove("Desc");
            props.forEach(this::printProperty);
            if (desc != null) {
                printProperty("Desc", desc);
            }
        }
    }

    private void printProperty(String name, String value) {
        String[] lines = value.strip().split("\n");
        out.println("    " + name + ": " + lines[0]);
        String indent = " ".repeat(6 + name.length());
        for (int i = 1; i < lines.length; i++) {
            out.println(indent + lines[i]);
        }
    }

    private void set(CellPath path, Literal value) {
        ColumnFamilyInfo cf = columnFamily(path);
        int needed = cf.isSuper() ? 3 : 2;
        if (path.levels().size() != needed) {
            throw new CliError("set on " + cf.kind() + " column family " + cf.name() + " needs "
                    + (cf.isSuper() ? "['key']['super column']['column']" : "['key']['column']") + ", got " + path);
        }
        client().insert(path.keyspace(), key(path), columnPath(cf, path), valueBytes(value),
                SibylClient.nowMicros(), client.config().writeConsistency());
        out.println("Value inserted.");
    }

    private void get(CellPath path) {
        ColumnFamilyInfo cf = columnFamily(path);
        checkDepth(cf, path);
        String key = key(path);
        if (path.depth() == 0) {
            int n = 0;
            for (ColumnOrSuperColumn c : client().scanColumns(path.keyspace(), key, new ColumnParent(cf.name()),
                    PAGE)) {
                out.println(c.isSetSuper_column() ? formatSuper(cf, c.getSuper_column())
                        : formatColumn(cf.names(), c.getColumn()));
                n++;
            }
            out.println("Returned " + n + " results.");
        } else if (cf.isSuper() && path.depth() == 1) {
            byte[] sc = name(cf.names(), path.name(1));
            int n = 0;
            for (ColumnOrSuperColumn c : client().scanColumns(path.keyspace(), key, Paths.parent(cf.name(), sc),
                    PAGE)) {
                out.println(formatColumn(cf.subNames(), c.getColumn()));
                n++;
            }
            out.println("Returned " + n + " results.");
        } else {
            Optional<ColumnOrSuperColumn> found = client().get(path.keyspace(), key, columnPath(cf, path),
                    client.config().readConsistency());
            if (found.isPresent()) {
                out.println(formatColumn(cf.isSuper() ? cf.subNames() : cf.names(), found.get().getColumn()));
            } else {
                out.println("No such column.");
            }
        }
    }

    private void count(CellPath path) {
        ColumnFamilyInfo cf = columnFamily(path);
        int max = cf.isSuper() ? 1 : 0;
        if (path.depth() > max) {
            throw new CliError("count takes " + (cf.isSuper() ? "['key'] or ['key']['super column']" : "['key']")
                    + " on " + cf.kind() + " column family " + cf.name() + ", got " + path);
        }
        ColumnParent parent = path.depth() == 1 ? Paths.parent(cf.name(), name(cf.names(), path.name(1)))
                : new ColumnParent(cf.name());
        int n = client().getCount(path.keyspace(), key(path), parent, client.config().readConsistency());
        boolean superColumns = cf.isSuper() && path.depth() == 0;
        out.println(n + (superColumns ? " super columns" : " columns"));
    }

    private void del(CellPath path) {
        ColumnFamilyInfo cf = columnFamily(path);
        checkDepth(cf, path);
        client().remove(path.keyspace(), key(path), columnPath(cf, path), SibylClient.nowMicros(),
                client.config().writeConsistency());
        if (path.depth() == 0) {
            out.println("Row removed.");
        } else if (cf.isSuper() && path.depth() == 1) {
            out.println("Super column removed.");
        } else {
            out.println("Column removed.");
        }
    }

    // ---- conversions ----

    private SibylClient client() {
        if (client == null) {
            throw new CliError("not connected; use 'connect HOST/PORT' first");
        }
        return client;
    }

    private static void checkDepth(ColumnFamilyInfo cf, CellPath path) {
        CliError.checkDepth(cf.name(), cf.isSuper(), path.depth(), path);
    }

    private static String key(CellPath path) {
        String key = path.key().text();
        if (key.isEmpty()) {
            throw new CliError("the row key may not be empty");
        }
        return key;
    }

    /** Path to what {@code path} names: row, column, super column, or subcolumn. */
    private ColumnPath columnPath(ColumnFamilyInfo cf, CellPath path) {
        ColumnPath p = new ColumnPath(cf.name());
        if (path.depth() >= 1) {
            if (cf.isSuper()) {
                p.setSuper_column(name(cf.names(), path.name(1)));
                if (path.depth() == 2) {
                    p.setColumn(name(cf.subNames(), path.name(2)));
                }
            } else {
                p.setColumn(name(cf.names(), path.name(1)));
            }
        }
        return p;
    }

    private static byte[] name(NameType type, Literal literal) {
        if (literal.isHex()) {
            return Bytes.fromHex(literal.text().substring(2));
        }
        try {
            return type.parse(literal.text());
        } catch (IllegalArgumentException e) {
            throw new CliError("bad name " + literal.display() + ": " + e.getMessage());
        }
    }

    private static byte[] valueBytes(Literal value) {
        return value.isHex() ? Bytes.fromHex(value.text().substring(2)) : Bytes.utf8(value.text());
    }

    private String formatColumn(NameType names, Column c) {
        return "=> " + columnText(names, c);
    }

    private String columnText(NameType names, Column c) {
        return "(column=" + name(names, c.getName()) + ", value=" + Bytes.readable(c.getValue())
                + ", timestamp=" + c.getTimestamp() + ")";
    }

    private String formatSuper(ColumnFamilyInfo cf, SuperColumn sc) {
        List<String> parts = new ArrayList<>();
        parts.add("super_column=" + name(cf.names(), sc.getName()));
        for (Column c : sc.getColumns()) {
            parts.add(columnText(cf.subNames(), c));
        }
        return "=> (" + String.join(", ", parts) + ")";
    }

    // ---- schema ----

    private ColumnFamilyInfo columnFamily(CellPath path) {
        Map<String, ColumnFamilyInfo> cfs = schema.get(path.keyspace());
        if (cfs == null) {
            cfs = new HashMap<>();
            for (Map.Entry<String, Map<String, String>> e : keyspaceDescription(path.keyspace()).entrySet()) {
                cfs.put(e.getKey(), ColumnFamilyInfo.from(path.keyspace(), e.getKey(), e.getValue()));
            }
            schema.put(path.keyspace(), cfs);
        }
        ColumnFamilyInfo cf = cfs.get(path.columnFamily());
        if (cf == null) {
            throw new CliError("unknown column family '" + path.columnFamily() + "' in keyspace " + path.keyspace()
                    + " (it has " + String.join(", ", new TreeSet<>(cfs.keySet())) + ")");
        }
        return cf;
    }

    /**
     * describe_keyspace, with a clear message for an unknown keyspace: 0.6 itself fails internally there
     * instead of answering NotFoundException, so the keyspace list is asked first.
     */
    private Map<String, Map<String, String>> keyspaceDescription(String keyspace) {
        TreeSet<String> known = new TreeSet<>(client().describeKeyspaces());
        if (!known.contains(keyspace)) {
            throw new CliError("unknown keyspace '" + keyspace + "' (the server has " + String.join(", ", known)
                    + ")");
        }
        return client().describeKeyspace(keyspace);
    }
}
