package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static sibyl.it.Requests.all;
import static sibyl.it.Requests.b;
import static sibyl.it.Requests.column;
import static sibyl.it.Requests.cosc;
import static sibyl.it.Requests.deletion;
import static sibyl.it.Requests.insertion;
import static sibyl.it.Requests.keys;
import static sibyl.it.Requests.keysOf;
import static sibyl.it.Requests.names;
import static sibyl.it.Requests.namesOf;
import static sibyl.it.Requests.parent;
import static sibyl.it.Requests.range;
import static sibyl.it.Requests.superColumn;
import static sibyl.it.Requests.why;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.Mutation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * batch_insert and batch_mutate end to end (docs/semantics.md §Writes): insertions, every Deletion
 * shape including Sibyl's slice_range extension, all-or-nothing validation, and empty batches.
 */
@ParameterizedClass
@MethodSource("sibyl.it.TestNode#backends")
class BatchMutateTest {
    private static final String KS = "Keyspace1";
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;

    @RegisterExtension
    static final NodeExtension NODE = NodeExtension.onEachBackend();
    @NodeExtension.Connected(framed = true)
    static Cassandra.Client c;

    @Parameter
    TestNode.Backend backend;

    private static Map<String, Map<String, List<Mutation>>> batch(String key, String cf, Mutation... mutations) {
        Map<String, Map<String, List<Mutation>>> m = new HashMap<>();
        return add(m, key, cf, mutations);
    }

    private static Map<String, Map<String, List<Mutation>>> add(Map<String, Map<String, List<Mutation>>> m,
                                                                String key, String cf, Mutation... mutations) {
        m.computeIfAbsent(key, k -> new HashMap<>()).computeIfAbsent(cf, x -> new ArrayList<>())
                .addAll(Arrays.asList(mutations));
        return m;
    }

    private static void mutate(String key, String cf, Mutation... mutations) throws Exception {
        c.batch_mutate(KS, batch(key, cf, mutations), ONE);
    }

    private static List<ColumnOrSuperColumn> slice(String key, String cf) throws Exception {
        return c.get_slice(KS, key, parent(cf), all(), ONE);
    }

    private static void fillStandard(String key, long ts, String... names) throws Exception {
        List<Mutation> ms = new ArrayList<>();
        for (String n : names) ms.add(insertion(column(n, "v" + n, ts)));
        mutate(key, "Standard1", ms.toArray(Mutation[]::new));
    }

    private static void fillSuper(String key, long ts) throws Exception {
        List<Mutation> ms = new ArrayList<>();
        for (String sc : List.of("s1", "s2", "s3")) {
            ms.add(insertion(superColumn(sc, column("a", sc + "a", ts), column("b", sc + "b", ts))));
        }
        mutate(key, "Super1", ms.toArray(Mutation[]::new));
    }

    // ---- batch_insert

    @Test
    void batchInsertWritesColumnsAndSuperColumnsOfSeveralColumnFamilies() throws Exception {
        Map<String, List<ColumnOrSuperColumn>> cfmap = new HashMap<>();
        cfmap.put("Standard1", List.of(cosc(column("b", "2", 1)), cosc(column("a", "1", 1))));
        cfmap.put("Standard2", List.of(cosc(column("x", "3", 1))));
        c.batch_insert(KS, "bm-bi", cfmap, ONE);
        c.batch_insert(KS, "bm-bi", Map.of("Super1", List.of(cosc(superColumn("sc", column("s", "4", 2))))), ONE);
        assertEquals(List.of(cosc(column("a", "1", 1)), cosc(column("b", "2", 1))), slice("bm-bi", "Standard1"));
        assertEquals(List.of(cosc(column("x", "3", 1))), slice("bm-bi", "Standard2"));
        assertEquals(List.of(cosc(superColumn("sc", column("s", "4", 2)))), slice("bm-bi", "Super1"));
    }

    @Test
    void batchInsertValidatesEverythingBeforeWriting() throws Exception {
        Map<String, List<ColumnOrSuperColumn>> cfmap = new HashMap<>();
        cfmap.put("Standard1", List.of(cosc(column("ok", "1", 1)), cosc(column("", "empty name", 1))));
        assertEquals("column name must not be empty", why(() -> c.batch_insert(KS, "bm-bi-bad", cfmap, ONE)));
        assertEquals(List.of(), slice("bm-bi-bad", "Standard1"));
        assertEquals("unconfigured columnfamily Nope", why(() -> c.batch_insert(KS, "bm-bi-bad",
                Map.of("Nope", List.of(cosc(column("a", "1", 1)))), ONE)));
    }

    // ---- insertions

    @Test
    void insertionsAcrossKeysAndColumnFamilies() throws Exception {
        Map<String, Map<String, List<Mutation>>> m = batch("bm-ins1", "Standard1", insertion(column("a", "1", 1)));
        add(m, "bm-ins1", "Super1", insertion(superColumn("sc", column("x", "2", 1))));
        add(m, "bm-ins2", "Standard1", insertion(column("b", "3", 1)), insertion(column("a", "4", 1)));
        c.batch_mutate(KS, m, ONE);
        assertEquals(List.of(cosc(column("a", "1", 1))), slice("bm-ins1", "Standard1"));
        assertEquals(List.of(cosc(superColumn("sc", column("x", "2", 1)))), slice("bm-ins1", "Super1"));
        assertEquals(List.of("a", "b"), namesOf(slice("bm-ins2", "Standard1")));
    }

    @Test
    void orderInsideABatchDoesNotMatter() throws Exception {
        mutate("bm-order", "Standard1", insertion(column("c", "new", 2)), insertion(column("c", "old", 1)),
                insertion(column("d", "v", 3)), deletion(3, null, names("d")),
                deletion(4, null, names("e")), insertion(column("e", "v", 4)),
                insertion(column("f", "aa", 5)), insertion(column("f", "b", 5)), insertion(column("f", "a", 5)));
        assertEquals(List.of(cosc(column("c", "new", 2)), cosc(column("f", "b", 5))), slice("bm-order", "Standard1"),
                "newest wins; a deletion wins a tie; the larger value wins a live tie");
    }

    // ---- every Deletion shape

    @Test
    void deletionByNamesOnAStandardColumnFamily() throws Exception {
        fillStandard("bm-del-names", 1, "a", "b", "c");
        mutate("bm-del-names", "Standard1", deletion(2, null, names("a", "c", "zz")));
        assertEquals(List.of("b"), namesOf(slice("bm-del-names", "Standard1")));
    }

    @Test
    void deletionWithoutPredicateOrSuperColumnDeletesTheRow() throws Exception {
        fillStandard("bm-del-row", 1, "a", "b");
        c.batch_mutate(KS, Map.of("bm-del-row", Map.of("Standard2", List.of(insertion(column("k", "v", 1))))), ONE);
        mutate("bm-del-row", "Standard1", deletion(1, null, null));
        assertEquals(List.of(), slice("bm-del-row", "Standard1"));
        assertEquals(List.of("k"), namesOf(slice("bm-del-row", "Standard2")), "only that column family");
        fillSuper("bm-del-row", 1);
        mutate("bm-del-row", "Super1", deletion(2, null, null));
        assertEquals(List.of(), slice("bm-del-row", "Super1"));
        fillStandard("bm-del-row", 2, "c");
        assertEquals(List.of("c"), namesOf(slice("bm-del-row", "Standard1")), "a newer write comes back");
    }

    @Test
    void deletionOfNamesInASuperColumnFamilyDeletesSuperColumns() throws Exception {
        fillSuper("bm-del-scnames", 1);
        mutate("bm-del-scnames", "Super1", deletion(2, null, names("s1", "s3")));
        assertEquals(List.of("s2"), namesOf(slice("bm-del-scnames", "Super1")));
    }

    @Test
    void deletionOfASuperColumn() throws Exception {
        fillSuper("bm-del-sc", 1);
        mutate("bm-del-sc", "Super1", deletion(2, "s2", null));
        assertEquals(List.of("s1", "s3"), namesOf(slice("bm-del-sc", "Super1")));
        mutate("bm-del-sc", "Super1", insertion(superColumn("s2", column("a", "old", 2), column("n", "new", 3))));
        assertEquals(List.of(cosc(superColumn("s2", column("n", "new", 3)))),
                c.get_slice(KS, "bm-del-sc", parent("Super1"), names("s2"), ONE));
    }

    @Test
    void deletionOfSubcolumnsByNameInASuperColumn() throws Exception {
        fillSuper("bm-del-sub", 1);
        mutate("bm-del-sub", "Super1", deletion(2, "s1", names("a")), deletion(2, "s2", names("a", "b")));
        assertEquals(List.of(cosc(superColumn("s1", column("b", "s1b", 1))),
                cosc(superColumn("s3", column("a", "s3a", 1), column("b", "s3b", 1)))), slice("bm-del-sub", "Super1"));
    }

    @Test
    void deletionBySliceRangeOfColumns() throws Exception {
        fillStandard("bm-del-range", 1, "a", "b", "c", "d", "e");
        mutate("bm-del-range", "Standard1", deletion(2, null, range("b", "d", false, 100)));
        assertEquals(List.of("a", "e"), namesOf(slice("bm-del-range", "Standard1")));

        fillStandard("bm-del-range2", 1, "a", "b", "c", "d", "e");
        mutate("bm-del-range2", "Standard1", deletion(2, null, range("", "", true, 2)));
        assertEquals(List.of("a", "b", "c"), namesOf(slice("bm-del-range2", "Standard1")),
                "count and reversed choose the last two");

        fillStandard("bm-del-range3", 5, "a", "b");
        fillStandard("bm-del-range3", 1, "c");
        mutate("bm-del-range3", "Standard1", deletion(3, null, range("", "", false, 100)));
        assertEquals(List.of("a", "b"), namesOf(slice("bm-del-range3", "Standard1")),
                "columns newer than the deletion survive it");
    }

    @Test
    void deletionBySliceRangeOfSuperColumnsAndSubcolumns() throws Exception {
        fillSuper("bm-del-srange", 1);
        mutate("bm-del-srange", "Super1", deletion(2, null, range("s2", "", false, 100)));
        assertEquals(List.of("s1"), namesOf(slice("bm-del-srange", "Super1")));
        mutate("bm-del-srange", "Super1", deletion(2, "s1", range("b", "b", false, 100)));
        assertEquals(List.of(cosc(superColumn("s1", column("a", "s1a", 1)))), slice("bm-del-srange", "Super1"));
    }

    @Test
    void sliceDeletionSeesTheInsertionsOfItsOwnBatch() throws Exception {
        mutate("bm-del-own", "Standard1", insertion(column("a", "v", 1)), deletion(1, null, range("", "", false, 10)),
                insertion(column("b", "v", 2)));
        assertEquals(List.of("b"), namesOf(slice("bm-del-own", "Standard1")));
    }

    // ---- all or nothing, empty batches

    @Test
    void oneBadMutationAppliesNothing() throws Exception {
        Map<String, Map<String, List<Mutation>>> m = new java.util.LinkedHashMap<>();
        add(m, "bm-atomic1", "Standard1", insertion(column("a", "v", 1)));
        add(m, "bm-atomic2", "Standard1", insertion(column("a", "v", 1)), new Mutation());
        assertEquals("Mutation must have one ColumnOrSuperColumn or one Deletion", why(() -> c.batch_mutate(KS, m, ONE)));
        assertEquals(List.of(), slice("bm-atomic1", "Standard1"));
        assertEquals(List.of(), slice("bm-atomic2", "Standard1"));

        Map<String, Map<String, List<Mutation>>> m2 = new java.util.LinkedHashMap<>();
        add(m2, "bm-atomic1", "Standard1", insertion(column("a", "v", 1)));
        add(m2, "bm-atomic1", "Super1", deletion(1, null, names("")));
        assertEquals("column name must not be empty", why(() -> c.batch_mutate(KS, m2, ONE)));
        assertEquals(List.of(), slice("bm-atomic1", "Standard1"));

        Map<String, Map<String, List<Mutation>>> m3 = batch("bm-atomic3", "Standard1", insertion(column("a", "v", 1)));
        add(m3, "", "Standard1", insertion(column("a", "v", 1)));
        assertEquals("Key may not be empty", why(() -> c.batch_mutate(KS, m3, ONE)));
        assertEquals(List.of(), slice("bm-atomic3", "Standard1"));
    }

    @Test
    void emptyBatchesChangeNothing() throws Exception {
        List<KeySlice> before = c.get_range_slices(KS, parent("Standard1"), all(), keys("", "", 1000), ONE);
        c.batch_mutate(KS, Map.of(), ONE);
        c.batch_mutate(KS, Map.of("bm-empty1", Map.of()), ONE);
        c.batch_mutate(KS, Map.of("bm-empty2", Map.of("Standard1", List.<Mutation>of())), ONE);
        c.batch_insert(KS, "bm-empty3", Map.of(), ONE);
        c.batch_insert(KS, "bm-empty4", Map.of("Super1", List.of(cosc(superColumn("sc")))), ONE);
        List<KeySlice> after = c.get_range_slices(KS, parent("Standard1"), all(), keys("", "", 1000), ONE);
        assertEquals(keysOf(before), keysOf(after), "no key was created");
        assertEquals(List.of(), c.get_range_slices(KS, parent("Super1"), all(), keys("", "", 1000), ONE).stream()
                .filter(k -> k.getKey().startsWith("bm-empty")).toList());
    }

    @Test
    void unknownColumnFamilyInADeletionOnlyBatchIsReported() throws Exception {
        assertEquals("unconfigured columnfamily Nope", why(() -> mutate("bm-unknown", "Nope", deletion(1, null, null))));
        assertEquals("Keyspace Nope does not exist in this schema.", why(() -> c.batch_mutate("Nope",
                batch("bm-unknown", "Standard1", deletion(1, null, null)), ONE)));
    }

    /** A SuperColumn insertion writes each of its subcolumns, sorted on the way back. */
    @Test
    void superColumnInsertionWritesEachSubcolumn() throws Exception {
        Column x = column("x", "1", 7);
        Column y = column("y", "2", 8);
        mutate("bm-subs", "Super1", insertion(superColumn("sc", y, x)));
        assertEquals(List.of(cosc(x), cosc(y)), c.get_slice(KS, "bm-subs", parent("Super1", "sc"), all(), ONE));
    }
}
