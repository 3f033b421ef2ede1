import com.netflix.astyanax.AstyanaxContext;
import com.netflix.astyanax.Keyspace;
import com.netflix.astyanax.MutationBatch;
import com.netflix.astyanax.connectionpool.NodeDiscoveryType;
import com.netflix.astyanax.connectionpool.exceptions.NotFoundException;
import com.netflix.astyanax.connectionpool.impl.ConnectionPoolConfigurationImpl;
import com.netflix.astyanax.connectionpool.impl.ConnectionPoolType;
import com.netflix.astyanax.connectionpool.impl.CountingConnectionPoolMonitor;
import com.netflix.astyanax.impl.AstyanaxConfigurationImpl;
import com.netflix.astyanax.model.Column;
import com.netflix.astyanax.model.ColumnFamily;
import com.netflix.astyanax.model.ColumnList;
import com.netflix.astyanax.model.Row;
import com.netflix.astyanax.model.Rows;
import com.netflix.astyanax.serializers.LongSerializer;
import com.netflix.astyanax.serializers.StringSerializer;
import com.netflix.astyanax.thrift.ThriftFamilyFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * An application of Netflix's Astyanax client over its Thrift driver (run by AstyanaxIT in a JVM of its own, on the
 * class path pom.xml beside it resolves): writes, reads, slices, counts, scans and deletes rows of Keyspace1 on the
 * node at 127.0.0.1:PORT, then makes a keyspace and a column family by API, writes to it, truncates it and drops the
 * keyspace, printing one line per check. Exits 1 at the first answer that is not the expected one, saying which.
 *
 * <p>Usage: {@code java -cp ASTYANAX_CLASS_PATH AstyanaxProgram.java PORT}
 */
public final class AstyanaxProgram {
    private static final ColumnFamily<String, String> STANDARD1 = new ColumnFamily<>("Standard1",
            StringSerializer.get(), StringSerializer.get());
    private static final ColumnFamily<String, Long> EVENTS = new ColumnFamily<>("Events", StringSerializer.get(),
            LongSerializer.get());
    private static final ColumnFamily<String, String> HITS = new ColumnFamily<>("Hits", StringSerializer.get(),
            StringSerializer.get());
    private static final ColumnFamily<String, String> PEOPLE = new ColumnFamily<>("People", StringSerializer.get(),
            StringSerializer.get());
    private static final String MADE = "AstyanaxMade";

    private int checks;

    /** An answer that is not the expected one. */
    private static final class Mismatch extends RuntimeException {
        Mismatch(String message) {
            super(message);
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: AstyanaxProgram PORT");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        AstyanaxContext<Keyspace> shipped = context("Keyspace1", port);
        AstyanaxContext<Keyspace> made = context(MADE, port);
        int status = 0;
        try {
            AstyanaxProgram program = new AstyanaxProgram();
            program.rows(shipped.getClient());
            program.schemaByApi(made.getClient());
            System.out.println("ASTYANAX OK: " + program.checks + " checks passed");
        } catch (Mismatch e) {
            System.out.println("MISMATCH: " + e.getMessage());
            status = 1;
        } catch (Exception e) {
            System.out.println("FAILED: " + e);
            e.printStackTrace(System.out);
            status = 1;
        } finally {
            shipped.shutdown();
            made.shutdown();
        }
        System.exit(status);
    }

    /** One node and no ring to learn: the pool talks to the host it was given. */
    private static AstyanaxContext<Keyspace> context(String keyspace, int port) {
        AstyanaxContext<Keyspace> context = new AstyanaxContext.Builder()
                .forCluster("sibyl")
                .forKeyspace(keyspace)
                .withAstyanaxConfiguration(new AstyanaxConfigurationImpl()
                        .setDiscoveryType(NodeDiscoveryType.NONE)
                        .setConnectionPoolType(ConnectionPoolType.ROUND_ROBIN))
                .withConnectionPoolConfiguration(new ConnectionPoolConfigurationImpl(keyspace + "-pool")
                        .setPort(port).setMaxConnsPerHost(2).setSeeds("127.0.0.1:" + port))
                .withConnectionPoolMonitor(new CountingConnectionPoolMonitor())
                .buildKeyspace(ThriftFamilyFactory.getInstance());
        context.start();
        return context;
    }

    private void rows(Keyspace ks) throws Exception {
        MutationBatch m = ks.prepareMutationBatch();
        m.withRow(STANDARD1, "alice").putColumn("name", "Alice", null).putColumn("city", "Paris", null)
                .putColumn("age", "31", null);
        m.withRow(STANDARD1, "bob").putColumn("name", "Bob", null);
        m.withRow(STANDARD1, "carol").putColumn("name", "Carol", null).putColumn("zip", "75001", null);
        m.execute();

        check("row of alice", names(ks.prepareQuery(STANDARD1).getKey("alice").execute().getResult()),
                List.of("age=31", "city=Paris", "name=Alice"));
        check("column range b..d", names(ks.prepareQuery(STANDARD1).getKey("alice")
                .withColumnRange("b", "d", false, 10).execute().getResult()), List.of("city=Paris"));
        check("reversed first column", names(ks.prepareQuery(STANDARD1).getKey("alice")
                .withColumnRange("", "", true, 1).execute().getResult()), List.of("name=Alice"));
        check("count of alice", ks.prepareQuery(STANDARD1).getKey("alice").getCount().execute().getResult(), 3);
        check("one column", ks.prepareQuery(STANDARD1).getKey("carol").getColumn("zip").execute().getResult()
                .getStringValue(), "75001");
        check("key slice", keys(ks.prepareQuery(STANDARD1).getKeySlice("alice", "bob", "nobody").execute()
                .getResult(), true), List.of("alice", "bob"));
        check("all rows, two a page", keys(ks.prepareQuery(STANDARD1).getAllRows().setRowLimit(2)
                .withColumnRange("", "", false, 100).execute().getResult(), true), List.of("alice", "bob", "carol"));

        MutationBatch deletes = ks.prepareMutationBatch();
        deletes.withRow(STANDARD1, "alice").deleteColumn("city");
        deletes.withRow(STANDARD1, "bob").delete();
        deletes.execute();
        check("alice after a column deleted", names(ks.prepareQuery(STANDARD1).getKey("alice").execute().getResult()),
                List.of("age=31", "name=Alice"));
        check("bob deleted", ks.prepareQuery(STANDARD1).getKey("bob").execute().getResult().isEmpty(), true);
    }

    private void schemaByApi(Keyspace ks) throws Exception {
        ks.createKeyspace(Map.of("strategy_class", "SimpleStrategy",
                "strategy_options", Map.of("replication_factor", "1")));
        ks.createColumnFamily(EVENTS, Map.of("comparator_type", "LongType"));
        check("keyspace made by API, described", ks.describeKeyspace().getColumnFamilyList().stream()
                .map(cf -> cf.getName() + " " + cf.getComparatorType()).toList(),
                List.of("Events org.apache.cassandra.db.marshal.LongType"));
        MutationBatch m = ks.prepareMutationBatch();
        m.withRow(EVENTS, "dana").putColumn(3L, "third", null).putColumn(1L, "first", null)
                .putColumn(2L, "second", null);
        m.execute();
        List<String> events = new ArrayList<>();
        for (Column<Long> c : ks.prepareQuery(EVENTS).getKey("dana").execute().getResult()) {
            events.add(c.getName() + "=" + c.getStringValue());
        }
        check("LongType names in order", events, List.of("1=first", "2=second", "3=third"));
        counters(ks);
        indexed(ks);
        ks.truncateColumnFamily(EVENTS);
        check("truncated", ks.prepareQuery(EVENTS).getKey("dana").execute().getResult().isEmpty(), true);
        ks.dropKeyspace();
        String described;
        try {
            described = "described: " + ks.describeKeyspace().getName();
        } catch (NotFoundException e) {
            described = "not found";
        }
        check("keyspace dropped", described, "not found");
    }

    /**
     * Counters as an Astyanax application keeps them: a counter column family made by API, increments (negative
     * ones too) in batches, a read of one counter and of the row, and a counter's deletion.
     */
    private void counters(Keyspace ks) throws Exception {
        ks.createColumnFamily(HITS, Map.of("comparator_type", "UTF8Type", "default_validation_class",
                "CounterColumnType"));
        MutationBatch m = ks.prepareMutationBatch();
        m.withRow(HITS, "page1").incrementCounterColumn("views", 5).incrementCounterColumn("likes", 7);
        m.execute();
        m = ks.prepareMutationBatch();
        m.withRow(HITS, "page1").incrementCounterColumn("views", -2);
        m.execute();
        check("counter page1/views", ks.prepareQuery(HITS).getKey("page1").getColumn("views").execute().getResult()
                .getLongValue(), 3L);
        List<String> row = new ArrayList<>();
        for (Column<String> c : ks.prepareQuery(HITS).getKey("page1").execute().getResult()) {
            row.add(c.getName() + "=" + c.getLongValue());
        }
        check("counters of page1", row, List.of("likes=7", "views=3"));
        m = ks.prepareMutationBatch();
        m.withRow(HITS, "page1").deleteColumn("likes");
        m.execute();
        List<String> after = new ArrayList<>();
        for (Column<String> c : ks.prepareQuery(HITS).getKey("page1").execute().getResult()) {
            after.add(c.getName() + "=" + c.getLongValue());
        }
        check("counters of page1 after a deletion", after, List.of("views=3"));
    }

    /**
     * A KEYS index as an Astyanax application defines and queries it: a column family whose column_metadata indexes
     * "city", made by API, and searchWithIndex for the rows of one city.
     */
    private void indexed(Keyspace ks) throws Exception {
        ks.createColumnFamily(PEOPLE, Map.of("comparator_type", "UTF8Type", "column_metadata", Map.of("city",
                Map.of("validation_class", "UTF8Type", "index_type", "KEYS", "index_name", "people_city"))));
        MutationBatch m = ks.prepareMutationBatch();
        m.withRow(PEOPLE, "dana").putColumn("city", "Lima", null).putColumn("name", "Dana", null);
        m.withRow(PEOPLE, "eli").putColumn("city", "Lima", null);
        m.withRow(PEOPLE, "fay").putColumn("city", "Oslo", null).putColumn("name", "Fay", null);
        m.execute();
        Rows<String, String> inLima = ks.prepareQuery(PEOPLE).searchWithIndex().setRowLimit(10)
                .addExpression().whereColumn("city").equals().value("Lima").execute().getResult();
        List<String> found = new ArrayList<>();
        for (Row<String, String> row : inLima) found.add(row.getKey() + ": " + names(row.getColumns()));
        found.sort(null);
        check("searchWithIndex city = Lima", found, List.of("dana: [city=Lima, name=Dana]", "eli: [city=Lima]"));
    }

    private static List<String> names(ColumnList<String> columns) {
        List<String> names = new ArrayList<>();
        for (Column<String> c : columns) names.add(c.getName() + "=" + c.getStringValue());
        return names;
    }

    /** The keys of the rows, sorted; those without columns left out when {@code liveOnly}. */
    private static List<String> keys(Rows<String, String> rows, boolean liveOnly) {
        TreeSet<String> keys = new TreeSet<>();
        for (Row<String, String> row : rows) {
            if (!liveOnly || !row.getColumns().isEmpty()) keys.add(row.getKey());
        }
        return new ArrayList<>(keys);
    }

    private void check(String what, Object actual, Object expected) {
        if (!Objects.equals(actual, expected)) throw new Mismatch(what + ": expected " + expected + ", got " + actual);
        checks++;
        System.out.println("ok " + what + ": " + actual);
    }
}
