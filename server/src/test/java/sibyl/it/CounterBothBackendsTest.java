package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.CounterColumn;
import sibyl.iface.v20.CounterSuperColumn;
import sibyl.iface.v20.Deletion;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.KeySlice;
import sibyl.iface.v20.KsDef;
import sibyl.iface.v20.Mutation;
import sibyl.iface.v20.NotFoundException;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;

/**
 * Counters on both backends (docs/thrift-api-0.7.md §Counters): counter column families of storage-conf.xml and of
 * system_add_column_family, standard and super, through add, remove_counter, batch_mutate and every read call; the
 * levels refused; increments from many connections at once adding up exactly. In cluster mode each is a counter
 * table of Cassandra 5. The answers are compared with a real Cassandra 3.11's in the client's CounterDifferentialIT.
 */
@ParameterizedClass
@MethodSource("sibyl.it.TestNode#backends")
class CounterBothBackendsTest {
    private static final String KS = "Counted";
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;
    private static final String COUNTER = "org.apache.cassandra.db.marshal.CounterColumnType";

    @RegisterExtension
    static final NodeExtension NODE = NodeExtension.onEachBackend().edit(ConfEdits.addKeyspace(ConfEdits.keyspace(KS, 1,
            "<ColumnFamily Name=\"C\" CompareWith=\"BytesType\" DefaultValidationClass=\"CounterColumnType\"/>",
            "<ColumnFamily Name=\"CSup\" ColumnType=\"Super\" CompareWith=\"UTF8Type\" CompareSubcolumnsWith=\"BytesType\""
                    + " DefaultValidationClass=\"CounterColumnType\"/>",
            "<ColumnFamily Name=\"Plain\" CompareWith=\"BytesType\"/>")));

    @Parameter
    TestNode.Backend backend;

    @Test
    void countersOfAStandardTableReadInEveryCall() throws Exception {
        try (V20Connection c = new V20Connection(NODE.node().port(), KS)) {
            ColumnParent cf = new ColumnParent("C");
            c.client.add(b("r1"), cf, new CounterColumn(b("a"), 5), ONE);
            c.client.add(b("r1"), cf, new CounterColumn(b("a"), -7), ONE);
            c.client.add(b("r1"), cf, new CounterColumn(b("b"), Long.MAX_VALUE), ConsistencyLevel.ALL);
            c.client.add(b("r2"), cf, new CounterColumn(b("a"), 3), ConsistencyLevel.QUORUM);

            assertEquals(new CounterColumn(b("a"), -2), c.client.get(b("r1"), new ColumnPath("C").setColumn(b("a")), ONE)
                    .counter_column);
            assertEquals(List.of("a=-2", "b=" + Long.MAX_VALUE), counts(c.client.get_slice(b("r1"), cf, all(), ONE)));
            assertEquals(List.of("b=" + Long.MAX_VALUE), counts(c.client.get_slice(b("r1"), cf,
                    new SlicePredicate().setColumn_names(List.of(b("b"), b("z"))), ONE)));
            assertEquals(List.of("b=" + Long.MAX_VALUE), counts(c.client.get_slice(b("r1"), cf,
                    new SlicePredicate().setSlice_range(new SliceRange(b(""), b(""), true, 1)), ONE)));
            assertEquals(2, c.client.get_count(b("r1"), cf, all(), ONE));
            Map<String, List<String>> multi = new TreeMap<>();
            c.client.multiget_slice(List.of(b("r1"), b("r2"), b("r3")), cf, all(), ONE)
                    .forEach((k, v) -> multi.put(text(k), counts(v)));
            assertEquals(Map.of("r1", List.of("a=-2", "b=" + Long.MAX_VALUE), "r2", List.of("a=3"), "r3", List.of()), multi);
            Map<String, List<String>> range = new TreeMap<>();
            for (KeySlice row : c.client.get_range_slices(cf, all(), new KeyRange(100).setStart_key(b("")).setEnd_key(b("")), ONE)) {
                range.put(text(row.key), counts(row.columns));
            }
            // the other tests' rows are there too
            assertEquals(List.of("a=-2", "b=" + Long.MAX_VALUE), range.get("r1"));
            assertEquals(List.of("a=3"), range.get("r2"));
            assertThrows(NotFoundException.class, () -> c.client.get(b("r1"), new ColumnPath("C").setColumn(b("z")), ONE));
        }
    }

    @Test
    void countersOfASuperTableReadAsCounterSuperColumns() throws Exception {
        try (V20Connection c = new V20Connection(NODE.node().port(), KS)) {
            ColumnParent x = new ColumnParent("CSup").setSuper_column(b("x"));
            c.client.add(b("s1"), x, new CounterColumn(b("p"), 4), ONE);
            c.client.add(b("s1"), x, new CounterColumn(b("p"), 4), ONE);
            c.client.add(b("s1"), x, new CounterColumn(b("q"), -1), ONE);
            c.client.add(b("s1"), new ColumnParent("CSup").setSuper_column(b("y")), new CounterColumn(b("p"), 1), ONE);

            ColumnOrSuperColumn superColumn = c.client.get(b("s1"), new ColumnPath("CSup").setSuper_column(b("x")), ONE);
            assertEquals(new CounterSuperColumn(b("x"), List.of(new CounterColumn(b("p"), 8), new CounterColumn(b("q"), -1))),
                    superColumn.counter_super_column);
            assertEquals(new CounterColumn(b("q"), -1), c.client.get(b("s1"), new ColumnPath("CSup").setSuper_column(b("x"))
                    .setColumn(b("q")), ONE).counter_column);
            assertEquals(List.of("x[p=8, q=-1]", "y[p=1]"), counts(c.client.get_slice(b("s1"), new ColumnParent("CSup"), all(), ONE)));
            assertEquals(List.of("p=8", "q=-1"), counts(c.client.get_slice(b("s1"), x, all(), ONE)));
            assertEquals(2, c.client.get_count(b("s1"), new ColumnParent("CSup"), all(), ONE));
            assertEquals(2, c.client.get_count(b("s1"), x, all(), ONE));
            List<KeySlice> rows = c.client.get_range_slices(new ColumnParent("CSup"), all(),
                    new KeyRange(100).setStart_key(b("")).setEnd_key(b("")), ONE);
            assertEquals(List.of("x[p=8, q=-1]", "y[p=1]"), counts(rows.stream().filter(r -> text(r.key).equals("s1"))
                    .findFirst().orElseThrow().columns));
        }
    }

    /**
     * A batch_mutate of counters, counter super columns, counter deletions and a plain column, to one row of three
     * tables: each applied, as 3.11 applies a counter mutation and a plain one of the same row.
     */
    @Test
    void aBatchOfCountersAndPlainColumnsAppliesBoth() throws Exception {
        try (V20Connection c = new V20Connection(NODE.node().port(), KS)) {
            c.client.add(b("bm"), new ColumnParent("C"), new CounterColumn(b("gone"), 1), ONE);
            c.client.batch_mutate(Map.of(b("bm"), Map.of(
                    "C", List.of(counterWrite("a", 2), counterWrite("a", 3), counterWrite("b", -1),
                            new Mutation().setDeletion(new Deletion().setPredicate(new SlicePredicate().setColumn_names(List.of(b("gone")))))),
                    "CSup", List.of(new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setCounter_super_column(
                            new CounterSuperColumn(b("x"), List.of(new CounterColumn(b("p"), 9), new CounterColumn(b("q"), -9)))))),
                    "Plain", List.of(new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(
                            new Column(b("n")).setValue(b("v")).setTimestamp(7)))))), ONE);
            assertEquals(List.of("a=5", "b=-1"), counts(c.client.get_slice(b("bm"), new ColumnParent("C"), all(), ONE)));
            assertEquals(List.of("x[p=9, q=-9]"), counts(c.client.get_slice(b("bm"), new ColumnParent("CSup"), all(), ONE)));
            Column plain = c.client.get(b("bm"), new ColumnPath("Plain").setColumn(b("n")), ONE).column;
            assertEquals("v", text(plain.value));
            assertEquals(7, plain.timestamp);
        }
    }

    @Test
    void levelsAndWritesThatDoNotFitAreRefusedIn311sWords() throws Exception {
        try (V20Connection c = new V20Connection(NODE.node().port(), KS)) {
            refused("Consistency level ANY is not yet supported for counter table C", () -> c.client.add(b("k"),
                    new ColumnParent("C"), new CounterColumn(b("a"), 1), ConsistencyLevel.ANY));
            refused("Consistency level ANY is not yet supported for counter table C", () -> c.client.remove_counter(b("k"),
                    new ColumnPath("C").setColumn(b("a")), ConsistencyLevel.ANY));
            refused("Counter operations are inherently non-serializable", () -> c.client.add(b("k"),
                    new ColumnParent("C"), new CounterColumn(b("a"), 1), ConsistencyLevel.SERIAL));
            refused("invalid operation for non commutative table Plain", () -> c.client.add(b("k"),
                    new ColumnParent("Plain"), new CounterColumn(b("a"), 1), ONE));
            refused("invalid operation for commutative table C", () -> c.client.insert(b("k"), new ColumnParent("C"),
                    new Column(b("a")).setValue(b("v")).setTimestamp(1), ONE));
            assertEquals(List.of(), c.client.get_slice(b("k"), new ColumnParent("C"), all(), ONE));
        }
    }

    /**
     * A counter removed reads as absent, and so does its row or super column removed; a counter removed stays
     * removed however it is added to after, on both backends as in 3.11. (What an add after a removal of its whole
     * row or super column counts from differs: docs/differences.md §The 0.7+ dialect.)
     */
    @Test
    void removedCountersReadAsAbsentAndStayRemoved() throws Exception {
        try (V20Connection c = new V20Connection(NODE.node().port(), KS)) {
            ColumnParent cf = new ColumnParent("C");
            rowWithARemovedCounter(c, "rm");
            assertEquals(List.of("b=6"), counts(c.client.get_slice(b("rm"), cf, all(), ONE)));
            add(c, "rm", "a", 2);
            assertEquals(List.of("b=6"), counts(c.client.get_slice(b("rm"), cf, all(), ONE)));
            assertThrows(NotFoundException.class, () -> c.client.get(b("rm"), new ColumnPath("C").setColumn(b("a")), ONE));
            c.client.remove_counter(b("rm"), new ColumnPath("C"), ONE);
            assertEquals(List.of(), counts(c.client.get_slice(b("rm"), cf, all(), ONE)));
            assertEquals(0, c.client.get_count(b("rm"), cf, all(), ONE));

            ColumnParent x = new ColumnParent("CSup").setSuper_column(b("x"));
            c.client.add(b("rm"), x, new CounterColumn(b("p"), 1), ONE);
            c.client.add(b("rm"), x, new CounterColumn(b("q"), 1), ONE);
            c.client.add(b("rm"), new ColumnParent("CSup").setSuper_column(b("y")), new CounterColumn(b("p"), 1), ONE);
            c.client.remove_counter(b("rm"), new ColumnPath("CSup").setSuper_column(b("x")).setColumn(b("p")), ONE);
            c.client.remove_counter(b("rm"), new ColumnPath("CSup").setSuper_column(b("y")), ONE);
            assertEquals(List.of("x[q=1]"), counts(c.client.get_slice(b("rm"), new ColumnParent("CSup"), all(), ONE)));
            c.client.add(b("rm"), x, new CounterColumn(b("p"), 1), ONE);
            assertEquals(List.of("x[q=1]"), counts(c.client.get_slice(b("rm"), new ColumnParent("CSup"), all(), ONE)));
        }
    }

    /**
     * An add after a deletion of the row, docs/differences.md §The 0.7+ dialect: the embedded engine counts from
     * zero, whether the counter was deleted by itself before or not; Cassandra 5 keeps a counter deleted by itself
     * deleted, and counts another from its count before the deletion while its counter cache holds it (from zero
     * once it does not).
     */
    @Test
    void anAddAfterARowDeletionCountsAsTheBackendDoes() throws Exception {
        try (V20Connection c = new V20Connection(NODE.node().port(), KS)) {
            ColumnParent cf = new ColumnParent("C");
            rowWithARemovedCounter(c, "again");
            c.client.remove_counter(b("again"), new ColumnPath("C"), ONE);
            add(c, "again", "a", 2);
            add(c, "again", "b", 2);
            List<String> read = counts(c.client.get_slice(b("again"), cf, all(), ONE));
            if (backend == TestNode.Backend.EMBEDDED) {
                assertEquals(List.of("a=2", "b=2"), read);
            } else {
                assertTrue(read.equals(List.of("b=8")) || read.equals(List.of("b=2")), read.toString());
            }
        }
    }

    @Test
    void counterTablesAddedByApiServeIncrements() throws Exception {
        String api = "CountedByApi";
        try (V20Connection c = new V20Connection(NODE.node().port(), KS)) {
            c.client.system_add_keyspace(new KsDef(api, "SimpleStrategy", List.of(new CfDef(api, "Plain")))
                    .setStrategy_options(Map.of("replication_factor", "1")));
            c.client.set_keyspace(api);
            c.client.system_add_column_family(new CfDef(api, "ByApi").setDefault_validation_class(COUNTER));
            c.client.system_add_column_family(new CfDef(api, "ByApiSup").setColumn_type("Super")
                    .setComparator_type("LongType").setDefault_validation_class(COUNTER));
            Map<String, String> types = new TreeMap<>();
            for (CfDef def : c.client.describe_keyspace(api).cf_defs) types.put(def.name, def.default_validation_class);
            assertEquals(COUNTER, types.get("ByApi"));
            assertEquals(COUNTER, types.get("ByApiSup"));
            c.client.add(b("k"), new ColumnParent("ByApi"), new CounterColumn(b("a"), 11), ONE);
            c.client.add(b("k"), new ColumnParent("ByApi"), new CounterColumn(b("a"), -1), ONE);
            ByteBuffer two = ByteBuffer.allocate(8).putLong(0, 2);
            ByteBuffer one = ByteBuffer.allocate(8).putLong(0, 1);
            c.client.add(b("k"), new ColumnParent("ByApiSup").setSuper_column(two), new CounterColumn(b("a"), 2), ONE);
            c.client.add(b("k"), new ColumnParent("ByApiSup").setSuper_column(one), new CounterColumn(b("a"), 1), ONE);
            assertEquals(List.of("a=10"), counts(c.client.get_slice(b("k"), new ColumnParent("ByApi"), all(), ONE)));
            List<ColumnOrSuperColumn> supers = c.client.get_slice(b("k"), new ColumnParent("ByApiSup"), all(), ONE);
            assertEquals(List.of(1L, 2L), supers.stream().map(s -> s.counter_super_column.name.getLong(
                    s.counter_super_column.name.position())).toList(), "super columns in LongType's order");

            // names of several components: a clustering column each in cluster mode
            c.client.system_add_column_family(new CfDef(api, "ByApiComposite")
                    .setComparator_type("CompositeType(UTF8Type,ReversedType(LongType))").setDefault_validation_class(COUNTER));
            for (long n : new long[] {1, 3, 2}) {
                c.client.add(b("k"), new ColumnParent("ByApiComposite"), new CounterColumn(composite("x", n), n * 10), ONE);
            }
            c.client.add(b("k"), new ColumnParent("ByApiComposite"), new CounterColumn(composite("x", 3), 1), ONE);
            List<Long> counts = new ArrayList<>();
            for (ColumnOrSuperColumn cell : c.client.get_slice(b("k"), new ColumnParent("ByApiComposite"), all(), ONE)) {
                counts.add(cell.counter_column.value);
            }
            assertEquals(List.of(31L, 20L, 10L), counts, "the second component descending");
        }
    }

    /** Increments are never lost or counted twice, whichever connection sends them: the sum is exact. */
    @Test
    void incrementsFromManyConnectionsAddUpExactly() throws Exception {
        int connections = 4;
        int adds = backend == TestNode.Backend.EMBEDDED ? 500 : 100;
        ExecutorService pool = Executors.newFixedThreadPool(connections);
        try {
            List<Future<Void>> done = new ArrayList<>();
            for (int t = 0; t < connections; t++) {
                int delta = t + 1;
                done.add(pool.submit((Callable<Void>) () -> {
                    try (V20Connection c = new V20Connection(NODE.node().port(), KS)) {
                        for (int i = 0; i < adds; i++) {
                            c.client.add(b("many"), new ColumnParent("C"), new CounterColumn(b("n"), delta), ONE);
                        }
                    }
                    return null;
                }));
            }
            for (Future<Void> f : done) f.get(5, TimeUnit.MINUTES);
        } finally {
            pool.shutdownNow();
        }
        try (V20Connection c = new V20Connection(NODE.node().port(), KS)) {
            assertEquals((long) adds * (1 + 2 + 3 + 4), c.client.get(b("many"), new ColumnPath("C").setColumn(b("n")),
                    ConsistencyLevel.QUORUM).counter_column.value);
        }
    }

    /** Row {@code key} of C with b=6 and a removed (after a=5). */
    private static void rowWithARemovedCounter(V20Connection c, String key) throws Exception {
        add(c, key, "a", 5);
        add(c, key, "b", 6);
        c.client.remove_counter(b(key), new ColumnPath("C").setColumn(b("a")), ONE);
    }

    /** Adds {@code delta} to counter {@code name} of row {@code key} of C, at ONE. */
    private static void add(V20Connection c, String key, String name, long delta) throws Exception {
        c.client.add(b(key), new ColumnParent("C"), new CounterColumn(b(name), delta), ONE);
    }

    private static void refused(String why, org.junit.jupiter.api.function.Executable call) {
        assertEquals(why, assertThrows(InvalidRequestException.class, call).getWhy());
    }

    /** Each counter as name=count, each super column of them as name[...]. */
    private static List<String> counts(List<ColumnOrSuperColumn> cells) {
        List<String> out = new ArrayList<>();
        for (ColumnOrSuperColumn c : cells) {
            if (c.isSetCounter_column()) {
                out.add(text(c.counter_column.name) + "=" + c.counter_column.value);
            } else {
                out.add(text(c.counter_super_column.name) + counts(c.counter_super_column.columns.stream()
                        .map(cc -> new ColumnOrSuperColumn().setCounter_column(cc)).toList()));
            }
        }
        return out;
    }

    /** A CompositeType name of a text and a long component. */
    private static ByteBuffer composite(String text, long n) {
        byte[] t = text.getBytes(StandardCharsets.UTF_8);
        ByteBuffer name = ByteBuffer.allocate(2 + t.length + 1 + 2 + 8 + 1);
        name.putShort((short) t.length).put(t).put((byte) 0).putShort((short) 8).putLong(n).put((byte) 0);
        return name.flip();
    }

    private static Mutation counterWrite(String name, long value) {
        return new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setCounter_column(new CounterColumn(b(name), value)));
    }

    private static SlicePredicate all() {
        return new SlicePredicate().setSlice_range(new SliceRange(b(""), b(""), false, 100));
    }

    private static String text(ByteBuffer b) {
        return StandardCharsets.UTF_8.decode(b.duplicate()).toString();
    }

    private static ByteBuffer b(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }
}
