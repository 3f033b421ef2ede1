import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import me.prettyprint.cassandra.model.BasicColumnFamilyDefinition;
import me.prettyprint.cassandra.model.IndexedSlicesQuery;
import me.prettyprint.cassandra.serializers.BytesArraySerializer;
import me.prettyprint.cassandra.serializers.StringSerializer;
import me.prettyprint.cassandra.service.CassandraHostConfigurator;
import me.prettyprint.cassandra.service.FailoverPolicy;
import me.prettyprint.cassandra.service.ThriftCfDef;
import me.prettyprint.cassandra.service.ThriftKsDef;
import me.prettyprint.hector.api.Cluster;
import me.prettyprint.hector.api.Keyspace;
import me.prettyprint.hector.api.beans.ColumnSlice;
import me.prettyprint.hector.api.beans.HColumn;
import me.prettyprint.hector.api.beans.OrderedRows;
import me.prettyprint.hector.api.beans.Row;
import me.prettyprint.hector.api.beans.Rows;
import me.prettyprint.hector.api.ddl.ColumnFamilyDefinition;
import me.prettyprint.hector.api.ddl.ComparatorType;
import me.prettyprint.hector.api.ddl.KeyspaceDefinition;
import me.prettyprint.hector.api.factory.HFactory;
import me.prettyprint.hector.api.mutation.Mutator;
import me.prettyprint.hector.api.query.ColumnQuery;
import me.prettyprint.hector.api.query.CountQuery;
import me.prettyprint.hector.api.query.CounterQuery;
import me.prettyprint.hector.api.query.MultigetSliceQuery;
import me.prettyprint.hector.api.query.RangeSlicesQuery;
import me.prettyprint.hector.api.query.SliceCounterQuery;
import me.prettyprint.hector.api.query.SliceQuery;

/**
 * An application of the Hector client (run by HectorIT in a JVM of its own, on the class path pom.xml beside it
 * resolves): writes, reads, counts and deletes rows of Keyspace1 on the node at 127.0.0.1:PORT through Hector's
 * public API, then makes a keyspace and column families by API, writes and reads them, and drops them, printing one
 * line per check. Exits 1 at the first answer that is not the expected one, saying which.
 *
 * <p>Usage: {@code java -cp HECTOR_CLASS_PATH HectorProgram.java PORT [USER PASSWORD]}
 */
public final class HectorProgram {
    private static final StringSerializer STRING = StringSerializer.get();
    private static final BytesArraySerializer BYTES = BytesArraySerializer.get();
    private static final String CF = "Standard1";
    /** A row key that is not UTF-8 text (a lone continuation byte, a NUL and a truncated sequence). */
    private static final byte[] BINARY_KEY = {(byte) 0x80, 0x00, (byte) 0xff, (byte) 0xc3};

    private int checks;

    public static void main(String[] args) {
        if (args.length != 1 && args.length != 3) {
            System.err.println("usage: HectorProgram PORT [USER PASSWORD]");
            System.exit(2);
        }
        CassandraHostConfigurator hosts = new CassandraHostConfigurator("127.0.0.1:" + args[0]);
        // One node and no ring to learn: the pool talks to the host it was given.
        hosts.setAutoDiscoverHosts(false);
        hosts.setRetryDownedHosts(false);
        // With a user, every connection Hector opens logs in with it (and before it names its keyspace).
        Map<String, String> credentials = args.length == 3 ? Map.of("username", args[1], "password", args[2]) : Map.of();
        Cluster cluster = HFactory.getOrCreateCluster("sibyl", hosts, credentials);
        int status = 0;
        try {
            HectorProgram program = new HectorProgram();
            Keyspace keyspace1 = HFactory.createKeyspace("Keyspace1", cluster, HFactory.createDefaultConsistencyLevelPolicy(),
                    FailoverPolicy.ON_FAIL_TRY_ALL_AVAILABLE, credentials);
            program.run(keyspace1);
            program.indexedSlices(keyspace1);
            program.schemaByApi(cluster);
            System.out.println("HECTOR OK: " + program.checks + " checks passed");
        } catch (Mismatch e) {
            System.out.println("MISMATCH: " + e.getMessage());
            status = 1;
        } catch (RuntimeException e) {
            System.out.println("FAILED: " + e);
            e.printStackTrace(System.out);
            status = 1;
        } finally {
            HFactory.shutdownCluster(cluster);
        }
        System.exit(status);
    }

    private void run(Keyspace ks) {
        Mutator<String> m = HFactory.createMutator(ks, STRING);
        m.insert("alice", CF, HFactory.createStringColumn("name", "Alice"));
        m.addInsertion("alice", CF, HFactory.createStringColumn("city", "Paris"))
                .addInsertion("alice", CF, HFactory.createStringColumn("age", "31"))
                .addInsertion("alice", CF, HFactory.createStringColumn("zip", "75001"))
                .addInsertion("bob", CF, HFactory.createStringColumn("name", "Bob"))
                .addInsertion("bob", CF, HFactory.createStringColumn("city", "Oslo"))
                .addInsertion("carol", CF, HFactory.createStringColumn("name", "Carol"));
        m.execute();
        check("column alice/name", value(ks, "alice", "name"), "Alice");
        check("column bob/city", value(ks, "bob", "city"), "Oslo");
        check("missing column alice/email", value(ks, "alice", "email"), null);

        // "zip" sorts after the finish "z": bounds compare names, not prefixes.
        check("slice alice [a..z]", slice(ks, "alice", "a", "z", false, 100), List.of("age=31", "city=Paris", "name=Alice"));
        check("slice alice all, reversed, 2", slice(ks, "alice", "", "", true, 2), List.of("zip=75001", "name=Alice"));
        check("slice alice [b..n] reversed", slice(ks, "alice", "n", "b", true, 100), List.of("city=Paris"));
        SliceQuery<String, String, String> names = HFactory.createSliceQuery(ks, STRING, STRING, STRING);
        names.setColumnFamily(CF).setKey("alice").setColumnNames("zip", "name", "email");
        check("slice alice by names", render(names.execute().get()), List.of("name=Alice", "zip=75001"));

        MultigetSliceQuery<String, String, String> multi = HFactory.createMultigetSliceQuery(ks, STRING, STRING, STRING);
        multi.setColumnFamily(CF).setKeys("bob", "carol", "dave").setRange("", "", false, 100);
        check("multiget bob, carol, dave", render(multi.execute().get()), List.of("bob: city=Oslo name=Bob", "carol: name=Carol", "dave:"));

        check("count alice", count(ks, "alice", "", ""), 4);
        check("count alice [b..o]", count(ks, "alice", "b", "o"), 2);
        check("count dave", count(ks, "dave", "", ""), 0);

        Mutator<byte[]> binary = HFactory.createMutator(ks, BYTES);
        binary.insert(BINARY_KEY, CF, HFactory.createColumn("blob", "binary key", STRING, STRING));
        ColumnQuery<byte[], String, String> binaryRead = HFactory.createColumnQuery(ks, BYTES, STRING, STRING);
        binaryRead.setColumnFamily(CF).setKey(BINARY_KEY).setName("blob");
        HColumn<String, String> blob = binaryRead.execute().get();
        check("column " + hex(BINARY_KEY) + "/blob", blob == null ? null : blob.getValue(), "binary key");

        check("range slice of all rows", rows(ks), List.of(hex(BINARY_KEY) + ": blob=binary key",
                "alice: age=31 city=Paris name=Alice zip=75001", "bob: city=Oslo name=Bob", "carol: name=Carol"));

        m.delete("alice", CF, "city", STRING);
        check("alice/city after its delete", value(ks, "alice", "city"), null);
        check("slice alice after a column delete", slice(ks, "alice", "", "", false, 100), List.of("age=31", "name=Alice", "zip=75001"));
        m.addDeletion("bob", CF).execute();
        check("bob after a row delete", slice(ks, "bob", "", "", false, 100), List.of());
        check("count bob after a row delete", count(ks, "bob", "", ""), 0);
        binary.delete(BINARY_KEY, CF, null, STRING);
        check("binary row after a row delete", binaryRead.execute().get(), null);
        // Deleted rows stay in range answers as keys without columns, as 0.7+ range ghosts do.
        check("range slice after deletes", rows(ks), List.of(hex(BINARY_KEY) + ":",
                "alice: age=31 name=Alice zip=75001", "bob:", "carol: name=Carol"));
        m.insert("bob", CF, HFactory.createStringColumn("name", "Bobby"));
        check("bob written again after its delete", value(ks, "bob", "name"), "Bobby");
    }

    /**
     * What an application of Hector does first on a new deployment: makes its keyspace and column families by API,
     * waiting each time for the schema to agree, then writes and reads them; then drops them.
     */
    private void schemaByApi(Cluster cluster) {
        String made = "HectorMade";
        ColumnFamilyDefinition users = HFactory.createColumnFamilyDefinition(made, "Users", ComparatorType.UTF8TYPE);
        KeyspaceDefinition keyspace = HFactory.createKeyspaceDefinition(made, ThriftKsDef.DEF_STRATEGY_CLASS, 1,
                List.of(users));
        cluster.addKeyspace(keyspace, true);
        check("keyspace made by API, described", cluster.describeKeyspace(made).getCfDefs().stream()
                .map(cf -> cf.getName() + " " + cf.getComparatorType().getClassName()).toList(),
                List.of("Users org.apache.cassandra.db.marshal.UTF8Type"));
        cluster.addColumnFamily(HFactory.createColumnFamilyDefinition(made, "Events", ComparatorType.LONGTYPE), true);
        Keyspace ks = HFactory.createKeyspace(made, cluster);
        Mutator<String> m = HFactory.createMutator(ks, STRING);
        m.addInsertion("dana", "Users", HFactory.createStringColumn("name", "Dana"))
                .addInsertion("dana", "Users", HFactory.createStringColumn("city", "Lima"));
        m.execute();
        SliceQuery<String, String, String> q = HFactory.createSliceQuery(ks, STRING, STRING, STRING);
        q.setColumnFamily("Users").setKey("dana").setRange("", "", false, 100);
        check("slice of a column family made by API", render(q.execute().get()), List.of("city=Lima", "name=Dana"));
        counters(cluster, ks, made);
        cluster.dropColumnFamily(made, "Events", true);
        check("column families after a drop", cluster.describeKeyspace(made).getCfDefs().stream()
                .map(ColumnFamilyDefinition::getName).sorted().toList(), List.of("Hits", "Users"));
        cluster.dropKeyspace(made, true);
        check("keyspace after its drop", cluster.describeKeyspace(made), null);
    }

    /**
     * Counters as a Hector application keeps them: a counter column family made by API, increments and decrements
     * (one by itself, several in one batch), a read of one counter and a slice of them, and a counter's deletion.
     */
    private void counters(Cluster cluster, Keyspace ks, String keyspace) {
        BasicColumnFamilyDefinition hits = new BasicColumnFamilyDefinition();
        hits.setKeyspaceName(keyspace);
        hits.setName("Hits");
        hits.setComparatorType(ComparatorType.UTF8TYPE);
        hits.setDefaultValidationClass(ComparatorType.COUNTERTYPE.getClassName());
        cluster.addColumnFamily(new ThriftCfDef(hits), true);
        Mutator<String> m = HFactory.createMutator(ks, STRING);
        m.incrementCounter("page1", "Hits", "views", 5);
        m.decrementCounter("page1", "Hits", "views", 2);
        m.addCounter("page1", "Hits", HFactory.createCounterColumn("likes", 7))
                .addCounter("page1", "Hits", HFactory.createCounterColumn("views", 10));
        m.execute();
        CounterQuery<String, String> one = HFactory.createCounterColumnQuery(ks, STRING, STRING);
        one.setColumnFamily("Hits").setKey("page1").setName("views");
        check("counter page1/views", one.execute().get().getValue(), 13L);
        SliceCounterQuery<String, String> slice = HFactory.createCounterSliceQuery(ks, STRING, STRING);
        slice.setColumnFamily("Hits").setKey("page1").setRange("", "", false, 10);
        check("counter slice of page1", slice.execute().get().getColumns().stream()
                .map(c -> c.getName() + "=" + c.getValue()).toList(), List.of("likes=7", "views=13"));
        m.deleteCounter("page1", "Hits", "likes", STRING);
        check("counter page1/likes after its deletion", slice.execute().get().getColumns().stream()
                .map(c -> c.getName() + "=" + c.getValue()).toList(), List.of("views=13"));
    }

    /**
     * Hector's IndexedSlicesQuery of People, a column family of Keyspace1 with a KEYS index on "city" that HectorIT
     * adds to storage-conf.xml: Hector 2.0-0 cannot define one by API (its ColumnDef conversion drops index_type).
     */
    private void indexedSlices(Keyspace ks) {
        Mutator<String> m = HFactory.createMutator(ks, STRING);
        m.addInsertion("dana", "People", HFactory.createStringColumn("city", "Lima"))
                .addInsertion("dana", "People", HFactory.createStringColumn("name", "Dana"))
                .addInsertion("eli", "People", HFactory.createStringColumn("city", "Lima"))
                .addInsertion("fay", "People", HFactory.createStringColumn("city", "Oslo"));
        m.execute();
        IndexedSlicesQuery<String, String, String> byCity = HFactory.createIndexedSlicesQuery(ks, STRING, STRING, STRING);
        byCity.setColumnFamily("People").addEqualsExpression("city", "Lima").setRange("", "", false, 100).setStartKey("");
        List<String> inLima = new ArrayList<>();
        for (Row<String, String, String> row : byCity.execute().get()) inLima.add(row.getKey() + ": " + render(row.getColumnSlice()));
        inLima.sort(null);
        check("IndexedSlicesQuery of a column family with a KEYS index", inLima,
                List.of("dana: [city=Lima, name=Dana]", "eli: [city=Lima]"));
    }

    private static String value(Keyspace ks, String key, String name) {
        ColumnQuery<String, String, String> q = HFactory.createStringColumnQuery(ks);
        q.setColumnFamily(CF).setKey(key).setName(name);
        HColumn<String, String> c = q.execute().get();
        return c == null ? null : c.getValue();
    }

    private static List<String> slice(Keyspace ks, String key, String start, String finish, boolean reversed, int count) {
        SliceQuery<String, String, String> q = HFactory.createSliceQuery(ks, STRING, STRING, STRING);
        q.setColumnFamily(CF).setKey(key).setRange(start, finish, reversed, count);
        return render(q.execute().get());
    }

    private static int count(Keyspace ks, String key, String start, String finish) {
        CountQuery<String, String> q = HFactory.createCountQuery(ks, STRING, STRING);
        q.setColumnFamily(CF).setKey(key).setRange(start, finish, 1000);
        return q.execute().get();
    }

    /** Every row of the column family, keys as bytes (they need not be text), sorted by key for a stable answer. */
    private static List<String> rows(Keyspace ks) {
        RangeSlicesQuery<byte[], String, String> q = HFactory.createRangeSlicesQuery(ks, BYTES, STRING, STRING);
        q.setColumnFamily(CF).setKeys(new byte[0], new byte[0]).setRowCount(100).setRange("", "", false, 100);
        OrderedRows<byte[], String, String> rows = q.execute().get();
        List<String> out = new ArrayList<>();
        for (Row<byte[], String, String> row : rows) {
            byte[] key = row.getKey();
            String shown = Arrays.equals(key, BINARY_KEY) ? hex(key) : STRING.fromBytes(key);
            out.add(line(shown, render(row.getColumnSlice())));
        }
        out.sort(null);
        return out;
    }

    private static List<String> render(Rows<String, String, String> rows) {
        List<String> out = new ArrayList<>();
        for (Row<String, String, String> row : rows) out.add(line(row.getKey(), render(row.getColumnSlice())));
        out.sort(null);
        return out;
    }

    private static List<String> render(ColumnSlice<String, String> slice) {
        List<String> out = new ArrayList<>();
        for (HColumn<String, String> c : slice.getColumns()) out.add(c.getName() + "=" + c.getValue());
        return out;
    }

    private static String line(String key, List<String> columns) {
        return columns.isEmpty() ? key + ":" : key + ": " + String.join(" ", columns);
    }

    private static String hex(byte[] bytes) {
        return "0x" + HexFormat.of().formatHex(bytes);
    }

    private void check(String what, Object actual, Object expected) {
        if (!Objects.equals(actual, expected)) throw new Mismatch(what + ": expected " + expected + " but Hector read " + actual);
        checks++;
        System.out.println("ok " + what + ": " + actual);
    }

    private static final class Mismatch extends RuntimeException {
        Mismatch(String message) {
            super(message);
        }
    }
}
