package sibyl.client.cli;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import sibyl.client.HostAddress;
import sibyl.client.cli.Statement07.Path;
import sibyl.iface.v20.AuthenticationRequest;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.KeySlice;
import sibyl.iface.v20.KsDef;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;

/**
 * Carries out the 0.7+ cli's statements over one framed 0.7+ connection and prints their results in the
 * shapes of the 0.7–1.2 cassandra-cli. The keyspace in use is set on the connection (set_keyspace); keyspace
 * definitions are read with describe_keyspace and kept until a schema statement or {@code use} changes them.
 */
final class CliSession07 implements Shell {

    /** Columns of one row the cli reads at most (get of a row, list). */
    private static final int ROW_COLUMNS = 1_000_000;
    private static final int DEFAULT_LIST_LIMIT = 100;
    private static final ConsistencyLevel CL = ConsistencyLevel.ONE;

    private final PrintStream out;
    private final RowPrinter07 rows;
    private final int timeoutMillis;
    private final Statement07.Use initialUse;
    private final Map<String, KsDef> definitions = new HashMap<>();
    /** keyspace → column family → element (keys, comparator, sub_comparator, validator) → type. */
    private final Map<String, Map<String, Map<String, CliType>>> assumptions = new HashMap<>();
    private Connection07 connection;
    private String keyspace;
    private String user = "default";

    /** @param initialUse the keyspace (and login) to use on connecting, from the command line; null for none */
    CliSession07(PrintStream out, int timeoutMillis, Statement07.Use initialUse) {
        this.out = out;
        this.rows = new RowPrinter07(out);
        this.timeoutMillis = timeoutMillis;
        this.initialUse = initialUse;
    }

    @Override
    public String welcome() {
        return "Sibyl cli for the Cassandra 0.7+ interface (the statements of cassandra-cli 0.7 to 1.2).\n"
                + "Type 'help;' or '?' for help. Type 'quit;' or 'exit;' to quit.";
    }

    @Override
    public String prompt() {
        return "[" + user + "@" + (keyspace == null ? "unknown" : keyspace) + "] ";
    }

    @Override
    public String continuationPrompt() {
        return "...\t";
    }

    @Override
    public boolean isComplete(String text) {
        return StatementParser07.isComplete(text);
    }

    @Override
    public boolean execute(String text) {
        for (String one : StatementParser07.split(text)) {
            Statement07 s = StatementParser07.parse(one);
            if (s != null && !execute(s)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void connect(List<HostAddress> hosts) {
        close();
        connection = Connection07.open(hosts, timeoutMillis);
        HostAddress h = connection.host();
        // describe_snitch exists only in the 0.7+ dialect: a server that serves both on one port (Sibyl) then
        // answers the calls alike in both (describe_version, describe_keyspaces...) in this one.
        connection.call(c -> c.describe_snitch());
        String name = connection.call(c -> c.describe_cluster_name());
        out.println("Connected to: \"" + name + "\" on " + h.host() + "/" + h.port());
        if (initialUse != null) {
            use(initialUse);
        }
    }

    @Override
    public void close() {
        if (connection != null) {
            connection.close();
            connection = null;
        }
        keyspace = null;
        user = "default";
        definitions.clear();
    }

    /** Runs one statement; false when it asks to quit. */
    boolean execute(Statement07 s) {
        if (s instanceof Statement07.Quit) {
            return false;
        } else if (s instanceof Statement07.Help) {
            out.println(Help07.TEXT);
        } else if (s instanceof Statement07.Connect c) {
            connect(List.of(c.host()));
        } else if (s instanceof Statement07.Use u) {
            use(u);
        } else if (s instanceof Statement07.Set set) {
            set(set);
        } else if (s instanceof Statement07.Get g) {
            get(g);
        } else if (s instanceof Statement07.Del d) {
            del(d.path());
        } else if (s instanceof Statement07.Count c) {
            count(c.path());
        } else if (s instanceof Statement07.ListRows l) {
            list(l);
        } else if (s instanceof Statement07.Truncate t) {
            ColumnFamily07 cf = columnFamily(t.columnFamily());
            connection().call(c -> {
                c.truncate(cf.name());
                return null;
            });
            out.println(cf.name() + " truncated.");
        } else if (s instanceof Statement07.KeyspaceDefinition k) {
            keyspaceDefinition(k);
        } else if (s instanceof Statement07.ColumnFamilyDefinition d) {
            columnFamilyDefinition(d);
        } else if (s instanceof Statement07.DropKeyspace d) {
            schemaChanged(connection().call(c -> c.system_drop_keyspace(d.name())));
            if (d.name().equals(keyspace)) {
                keyspace = null;
            }
        } else if (s instanceof Statement07.DropColumnFamily d) {
            columnFamily(d.name());
            schemaChanged(connection().call(c -> c.system_drop_column_family(d.name())));
        } else if (s instanceof Statement07.Describe d) {
            describe(d.keyspace());
        } else if (s instanceof Statement07.ShowKeyspaces) {
            List<KsDef> all = new ArrayList<>(connection().call(c -> c.describe_keyspaces()));
            all.sort(Comparator.comparing(KsDef::getName));
            all.forEach(ks -> Describe07.print(ks, out));
        } else if (s instanceof Statement07.ShowClusterName) {
            out.println(connection().<String>call(c -> c.describe_cluster_name()));
        } else if (s instanceof Statement07.ShowApiVersion) {
            out.println(connection().<String>call(c -> c.describe_version()));
        } else if (s instanceof Statement07.Assume a) {
            assume(a);
        } else {
            throw new AssertionError(s);
        }
        return true;
    }

    // ---- statements ----

    private void use(Statement07.Use u) {
        Connection07 conn = connection();
        conn.call(c -> {
            c.set_keyspace(u.keyspace());
            if (u.user() != null) {
                c.login(new AuthenticationRequest(Map.of("username", u.user(), "password", u.password())));
            }
            return null;
        });
        keyspace = u.keyspace();
        user = u.user() != null ? u.user() : "default";
        definitions.remove(keyspace);
        out.println("Authenticated to keyspace: " + keyspace);
    }

    private void set(Statement07.Set s) {
        Path path = s.path();
        ColumnFamily07 cf = columnFamily(path.columnFamily());
        if (path.depth() == 0) {
            throw new CliError("no column name given: set " + path + "['column'] = VALUE");
        }
        if (cf.isSuper() && path.depth() == 1) {
            throw new CliError("column family " + cf.name() + " may only contain super columns: set "
                    + path + "['column'] = VALUE");
        }
        if (!cf.isSuper() && path.depth() == 2) {
            throw new CliError(cf.name() + " is a standard column family: set " + cf.name() + "['key']['column'] = "
                    + "VALUE, got " + path);
        }
        ByteBuffer key = cf.key(path);
        byte[] name = cf.name(path, path.depth());
        ColumnParent parent = new ColumnParent(cf.name());
        if (path.depth() == 2) {
            parent.setSuper_column(cf.name(path, 1));
        }
        byte[] value = ColumnFamily07.convert(s.value(), cf.valueType(name), "value");
        Column column = new Column(ByteBuffer.wrap(name)).setValue(value).setTimestamp(micros());
        if (s.ttl() != null) {
            column.setTtl(s.ttl());
        }
        connection().call(c -> {
            c.insert(key, parent, column, CL);
            return null;
        });
        out.println("Value inserted.");
    }

    private void get(Statement07.Get g) {
        Path path = g.path();
        ColumnFamily07 cf = columnFamily(path.columnFamily());
        checkDepth(cf, path);
        ByteBuffer key = cf.key(path);
        CliType as = g.as() == null ? null : CliType.named(g.as());
        if (path.depth() == 0 || (cf.isSuper() && path.depth() == 1)) {
            ColumnParent parent = new ColumnParent(cf.name());
            if (path.depth() == 1) {
                parent.setSuper_column(cf.name(path, 1));
            }
            int count = g.limit() != null ? g.limit() : ROW_COLUMNS;
            List<ColumnOrSuperColumn> row = connection().call(c -> c.get_slice(key, parent, all(count), CL));
            for (ColumnOrSuperColumn cosc : row) {
                rows.columnOrSuper(cf, cosc, path.depth() == 1, as);
            }
            out.println("Returned " + row.size() + " results.");
            return;
        }
        ColumnPath cp = new ColumnPath(cf.name());
        if (cf.isSuper()) {
            cp.setSuper_column(cf.name(path, 1));
        }
        cp.setColumn(cf.name(path, path.depth()));
        ColumnOrSuperColumn found = connection().callOrNull(c -> c.get(key, cp, CL));
        if (found == null) {
            out.println("Value was not found");
        } else {
            rows.column(cf.namesAt(path.depth()), cf, found.getColumn(), as);
        }
    }

    private void del(Path path) {
        ColumnFamily07 cf = columnFamily(path.columnFamily());
        checkDepth(cf, path);
        ColumnPath cp = new ColumnPath(cf.name());
        if (path.depth() >= 1) {
            if (cf.isSuper()) {
                cp.setSuper_column(cf.name(path, 1));
            } else {
                cp.setColumn(cf.name(path, 1));
            }
        }
        if (path.depth() == 2) {
            cp.setColumn(cf.name(path, 2));
        }
        ByteBuffer key = cf.key(path);
        long now = micros();
        connection().call(c -> {
            c.remove(key, cp, now, CL);
            return null;
        });
        out.println(path.depth() == 0 ? "row removed." : "column removed.");
    }

    private void count(Path path) {
        ColumnFamily07 cf = columnFamily(path.columnFamily());
        if (path.depth() > (cf.isSuper() ? 1 : 0)) {
            throw new CliError("count takes " + (cf.isSuper() ? "['key'] or ['key']['super column']" : "['key']")
                    + " on " + cf.kind() + " column family " + cf.name() + ", got " + path);
        }
        ColumnParent parent = new ColumnParent(cf.name());
        if (path.depth() == 1) {
            parent.setSuper_column(cf.name(path, 1));
        }
        ByteBuffer key = cf.key(path);
        int n = connection().call(c -> c.get_count(key, parent, all(Integer.MAX_VALUE), CL));
        out.println(n + " columns");
    }

    private void list(Statement07.ListRows l) {
        ColumnFamily07 cf = columnFamily(l.columnFamily());
        int limit = l.limit() != null ? l.limit() : DEFAULT_LIST_LIMIT;
        if (l.limit() == null) {
            out.println("Using default limit of " + DEFAULT_LIST_LIMIT);
        }
        KeyRange range = new KeyRange(limit)
                .setStart_key(l.start() == null ? new byte[0] : ColumnFamily07.convert(l.start(), cf.keys(), "key"))
                .setEnd_key(l.end() == null ? new byte[0] : ColumnFamily07.convert(l.end(), cf.keys(), "key"));
        List<KeySlice> slices = connection().call(c -> c.get_range_slices(new ColumnParent(cf.name()),
                all(ROW_COLUMNS), range, CL));
        rows.rows(cf, slices);
    }

    private void keyspaceDefinition(Statement07.KeyspaceDefinition k) {
        if (k.create()) {
            KsDef ks = SchemaAttributes07.newKeyspace(k.name(), k.attributes());
            schemaChanged(connection().call(c -> c.system_add_keyspace(ks)));
            return;
        }
        KsDef ks = new KsDef(definition(k.name()));
        ks.setCf_defs(new ArrayList<>());
        SchemaAttributes07.apply(ks, k.attributes());
        schemaChanged(connection().call(c -> c.system_update_keyspace(ks)));
    }

    private void columnFamilyDefinition(Statement07.ColumnFamilyDefinition d) {
        String ks = keyspace();
        CfDef cf;
        if (d.create()) {
            cf = new CfDef(ks, d.name());
        } else {
            cf = new CfDef(cfDef(d.name()));
        }
        SchemaAttributes07.apply(cf, d.attributes());
        schemaChanged(connection().call(c -> d.create() ? c.system_add_column_family(cf)
                : c.system_update_column_family(cf)));
    }

    private void describe(String name) {
        String ks = name != null ? name : keyspace;
        if (ks == null) {
            throw new CliError("describe needs a keyspace name when no keyspace is in use: describe KEYSPACE;");
        }
        definitions.remove(ks);
        Describe07.print(definition(ks), out);
    }

    private void assume(Statement07.Assume a) {
        ColumnFamily07 cf = columnFamily(a.columnFamily());
        CliType type = CliType.named(a.type());
        assumptions.computeIfAbsent(keyspace, k -> new HashMap<>())
                .computeIfAbsent(cf.name(), k -> new HashMap<>())
                .put(a.element(), type);
        out.println("Assumption for column family '" + cf.name() + "' added successfully.");
    }

    private static void checkDepth(ColumnFamily07 cf, Path path) {
        CliError.checkDepth(cf.name(), cf.isSuper(), path.depth(), path);
    }

    private static SlicePredicate all(int count) {
        return new SlicePredicate().setSlice_range(new SliceRange(ByteBuffer.allocate(0), ByteBuffer.allocate(0),
                false, count));
    }

    private static long micros() {
        return System.currentTimeMillis() * 1000;
    }

    // ---- connection and schema ----

    private Connection07 connection() {
        if (connection == null) {
            throw new CliError("not connected; use 'connect HOST/PORT;' first");
        }
        return connection;
    }

    private String keyspace() {
        connection();
        if (keyspace == null) {
            throw new CliError("no keyspace in use; 'use KEYSPACE;' first");
        }
        return keyspace;
    }

    private void schemaChanged(String version) {
        definitions.clear();
        out.println(version);
    }

    private KsDef definition(String ks) {
        KsDef def = definitions.get(ks);
        if (def == null) {
            def = connection().callOrNull(c -> c.describe_keyspace(ks));
            if (def == null) {
                throw new CliError("keyspace '" + ks + "' does not exist");
            }
            definitions.put(ks, def);
        }
        return def;
    }

    private CfDef cfDef(String name) {
        KsDef ks = definition(keyspace());
        for (CfDef cf : ks.getCf_defs()) {
            if (cf.getName().equals(name)) {
                return cf;
            }
        }
        List<String> names = new ArrayList<>();
        ks.getCf_defs().forEach(cf -> names.add(cf.getName()));
        names.sort(null);
        throw new CliError("unknown column family '" + name + "' in keyspace " + keyspace + " (it has "
                + (names.isEmpty() ? "none" : String.join(", ", names)) + ")");
    }

    private ColumnFamily07 columnFamily(String name) {
        CfDef cf = cfDef(name);
        return ColumnFamily07.of(cf, assumptions.getOrDefault(keyspace, Map.of()).getOrDefault(name, Map.of()));
    }
}
