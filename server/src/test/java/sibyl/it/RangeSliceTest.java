package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.it.Requests.all;
import static sibyl.it.Requests.b;
import static sibyl.it.Requests.column;
import static sibyl.it.Requests.cosc;
import static sibyl.it.Requests.keys;
import static sibyl.it.Requests.keysOf;
import static sibyl.it.Requests.names;
import static sibyl.it.Requests.namesOf;
import static sibyl.it.Requests.parent;
import static sibyl.it.Requests.path;
import static sibyl.it.Requests.range;
import static sibyl.it.Requests.superColumn;
import static sibyl.it.Requests.tokens;
import static sibyl.it.Requests.why;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.KeySlice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * get_range_slice and get_range_slices end to end (docs/semantics.md §Range slices) under RandomPartitioner
 * (shipped) and OrderPreservingPartitioner. Each test writes to column families of its own, in
 * a keyspace added for this class, since a range read sees every row of its column family.
 */
@ParameterizedClass
@MethodSource("sibyl.it.TestNode#backends")
class RangeSliceTest {
    private static final String KS = "Ranges";
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;
    private static final List<String> A_TO_E = List.of("a", "b", "c", "d", "e");

    /** A keyspace of column families of the tests' own. */
    private static final UnaryOperator<String> RANGES = ConfEdits.addKeyspace(ConfEdits.keyspace(KS, 1,
            "<ColumnFamily Name=\"Wrap\"/>", "<ColumnFamily Name=\"TokenBounds\"/>", "<ColumnFamily Name=\"KeyBounds\"/>",
            "<ColumnFamily Name=\"Count\"/>", "<ColumnFamily Name=\"Ghosts\"/>", "<ColumnFamily Name=\"Reversed\"/>",
            "<ColumnFamily Name=\"Legacy\"/>", "<ColumnFamily Name=\"Supers\" ColumnType=\"Super\"/>",
            "<ColumnFamily Name=\"Other\"/>"));

    @RegisterExtension
    static final NodeExtension RANDOM = NodeExtension.onEachBackend().edit(RANGES);
    /** Not in cluster mode: the shared cluster partitions randomly. */
    @RegisterExtension
    static final NodeExtension ORDERED = NodeExtension.embedded().edit(RANGES)
            .edit(ConfEdits.partitioner(ConfEdits.ORDER_PRESERVING_PARTITIONER)).skippedOn(TestNode.Backend.CLUSTER);

    @Parameter
    TestNode.Backend backend;

    /** One of the two nodes, with the token arithmetic of its partitioner. */
    private record Ring(Cassandra.Client c, boolean preservesOrder) {
        static Ring of(boolean preservesOrder) throws Exception {
            assumeTrue(!preservesOrder || ORDERED.isRunning(),
                    "order-preserving cases need a ByteOrderedPartitioner cluster; the shared one partitions randomly");
            return new Ring((preservesOrder ? ORDERED : RANDOM).node().client(), preservesOrder);
        }

        String token(String key) {
            return preservesOrder ? key : md5Token(key).toString();
        }

        Comparator<String> tokenOrder() {
            return preservesOrder ? Comparator.naturalOrder() : Comparator.comparing(RangeSliceTest::md5Token);
        }

        /** {@code keys} in ring order. */
        List<String> inRingOrder(List<String> keys) {
            List<String> sorted = new ArrayList<>(keys);
            sorted.sort(tokenOrder());
            return sorted;
        }

        /** Keys in ring order for the token range (start, end], wrapping when start >= end. */
        List<String> inTokenRange(List<String> keys, String startKey, String endKey) {
            List<String> sorted = inRingOrder(keys);
            Comparator<String> order = tokenOrder();
            List<String> after = sorted.stream().filter(k -> order.compare(k, startKey) > 0).toList();
            List<String> upToEnd = sorted.stream().filter(k -> order.compare(k, endKey) <= 0).toList();
            if (order.compare(startKey, endKey) < 0) {
                return after.stream().filter(upToEnd::contains).toList();
            }
            List<String> out = new ArrayList<>(after);
            out.addAll(upToEnd);
            return out;
        }

        void fill(String cf, List<String> keys, String... columns) throws Exception {
            for (String key : keys) {
                for (String col : columns) c.insert(KS, key, path(cf, col), b(key + col), 1, ONE);
            }
        }

        List<KeySlice> byTokens(String cf, String start, String end, int count) throws Exception {
            return c.get_range_slices(KS, parent(cf), all(), tokens(start, end, count), ONE);
        }

        List<KeySlice> byKeys(String cf, String start, String end, int count) throws Exception {
            return c.get_range_slices(KS, parent(cf), all(), keys(start, end, count), ONE);
        }
    }

    static BigInteger md5Token(String key) {
        try {
            return new BigInteger(MessageDigest.getInstance("MD5").digest(key.getBytes(StandardCharsets.UTF_8))).abs();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void wrapAroundFromTokenOfCToItselfUnderOrderPreservingPartitioner() throws Exception {
        Ring r = Ring.of(true);
        r.fill("Wrap", A_TO_E, "x");
        assertEquals(List.of("d", "e", "a", "b", "c"), keysOf(r.byTokens("Wrap", "c", "c", 100)));
    }

    @ParameterizedTest(name = "order preserving={0}")
    @ValueSource(booleans = {false, true})
    void startEqualsEndTokenIsTheWholeRingBeginningAfterIt(boolean preservesOrder) throws Exception {
        Ring r = Ring.of(preservesOrder);
        r.fill("Wrap", A_TO_E, "x");
        for (String k : A_TO_E) {
            List<String> got = keysOf(r.byTokens("Wrap", r.token(k), r.token(k), 100));
            assertEquals(r.inTokenRange(A_TO_E, k, k), got);
            assertEquals(k, got.get(got.size() - 1), "the start token's own key comes last");
        }
    }

    @ParameterizedTest(name = "order preserving={0}")
    @ValueSource(booleans = {false, true})
    void tokenRangesExcludeTheStartIncludeTheEndAndWrap(boolean preservesOrder) throws Exception {
        Ring r = Ring.of(preservesOrder);
        r.fill("TokenBounds", A_TO_E, "x");
        for (String s : A_TO_E) {
            for (String e : A_TO_E) {
                if (s.equals(e)) continue;
                assertEquals(r.inTokenRange(A_TO_E, s, e), keysOf(r.byTokens("TokenBounds", r.token(s), r.token(e), 100)),
                        "(" + s + ", " + e + "]");
            }
        }
        // ring order itself: the minimum token to the minimum token is everything, in token order
        List<String> sorted = r.inRingOrder(A_TO_E);
        String min = preservesOrder ? "" : "0";
        assertEquals(sorted, keysOf(r.byTokens("TokenBounds", min, min, 100)));
        if (preservesOrder) {
            assertEquals(List.of("c", "d"), keysOf(r.byTokens("TokenBounds", "b", "d", 100)));
            assertEquals(List.of("e", "a", "b"), keysOf(r.byTokens("TokenBounds", "d", "b", 100)));
            assertEquals(List.of("c", "d"), keysOf(r.byTokens("TokenBounds", "bb", "dd", 100)));
        }
    }

    @ParameterizedTest(name = "order preserving={0}")
    @ValueSource(booleans = {false, true})
    void keyRangesIncludeBothEnds(boolean preservesOrder) throws Exception {
        Ring r = Ring.of(preservesOrder);
        r.fill("KeyBounds", A_TO_E, "x");
        List<String> sorted = r.inRingOrder(A_TO_E);
        assertEquals(sorted, keysOf(r.byKeys("KeyBounds", "", "", 100)));
        for (int i = 0; i < sorted.size(); i++) {
            for (int j = i; j < sorted.size(); j++) {
                assertEquals(sorted.subList(i, j + 1), keysOf(r.byKeys("KeyBounds", sorted.get(i), sorted.get(j), 100)));
            }
            assertEquals(sorted.subList(i, sorted.size()), keysOf(r.byKeys("KeyBounds", sorted.get(i), "", 100)),
                    "an empty end key is no upper bound");
        }
        if (preservesOrder) {
            assertEquals(List.of("b", "c", "d"), keysOf(r.byKeys("KeyBounds", "b", "d", 100)));
            assertEquals(List.of("c", "d"), keysOf(r.byKeys("KeyBounds", "bb", "dd", 100)),
                    "keys that are not stored bound the range too");
            assertEquals("start key must sort before (or equal to) finish key in your partitioner!",
                    why(() -> r.byKeys("KeyBounds", "d", "b", 100)));
        } else {
            assertEquals("start key's md5 sorts after end key's md5.  this is not allowed; you probably should not"
                    + " specify end key at all, under RandomPartitioner",
                    why(() -> r.byKeys("KeyBounds", sorted.get(3), sorted.get(1), 100)));
        }
    }

    @ParameterizedTest(name = "order preserving={0}")
    @ValueSource(booleans = {false, true})
    void rowCountLimitsTheRows(boolean preservesOrder) throws Exception {
        Ring r = Ring.of(preservesOrder);
        r.fill("Count", A_TO_E, "x");
        List<String> sorted = r.inRingOrder(A_TO_E);
        for (int n = 1; n <= 6; n++) {
            assertEquals(sorted.subList(0, Math.min(n, 5)), keysOf(r.byKeys("Count", "", "", n)));
        }
        assertEquals(sorted.subList(1, 3), keysOf(r.byKeys("Count", sorted.get(1), "", 2)));
        List<String> wrapped = r.inTokenRange(A_TO_E, sorted.get(2), sorted.get(2));
        assertEquals(wrapped.subList(0, 3), keysOf(r.byTokens("Count", r.token(sorted.get(2)), r.token(sorted.get(2)), 3)));
    }

    @ParameterizedTest(name = "order preserving={0}")
    @ValueSource(booleans = {false, true})
    void deletedRowsAndRowsWithoutTheColumnsAreEmptyKeySlices(boolean preservesOrder) throws Exception {
        Ring r = Ring.of(preservesOrder);
        r.fill("Ghosts", A_TO_E, "x", "y");
        r.c().remove(KS, "b", path("Ghosts"), 2, ONE);
        r.c().remove(KS, "d", path("Ghosts", "x"), 2, ONE);
        r.c().remove(KS, "d", path("Ghosts", "y"), 2, ONE);
        r.c().insert(KS, "only-other", path("Other", "x"), b("v"), 1, ONE);
        List<String> sorted = r.inRingOrder(A_TO_E);

        // The cluster does not list rows that hold only tombstones (README: where Sibyl differs).
        boolean ghostsListed = backend == TestNode.Backend.EMBEDDED;
        List<String> listed = ghostsListed ? sorted : sorted.stream().filter(k -> !k.equals("b") && !k.equals("d")).toList();
        List<KeySlice> rows = r.byKeys("Ghosts", "", "", 100);
        assertEquals(listed, keysOf(rows), ghostsListed ? "ghosts are listed; keys only in another CF are not"
                : "ghosts are not listed in cluster mode, nor keys only in another CF");
        for (KeySlice row : rows) {
            boolean ghost = row.getKey().equals("b") || row.getKey().equals("d");
            assertEquals(ghost ? List.of() : List.of("x", "y"), namesOf(row.getColumns()), row.getKey());
        }
        if (ghostsListed) {
            // a ghost counts toward row_count
            int ghostAt = sorted.indexOf("b");
            assertEquals(new KeySlice("b", List.of()), r.byKeys("Ghosts", "", "", ghostAt + 1).get(ghostAt));
        }
        // a predicate that selects nothing from a row leaves its key
        List<KeySlice> named = r.c().get_range_slices(KS, parent("Ghosts"), names("y", "z"), keys("", "", 100), ONE);
        assertEquals(listed, keysOf(named));
        r.c().remove(KS, "e", path("Ghosts", "y"), 2, ONE);
        named = r.c().get_range_slices(KS, parent("Ghosts"), names("y"), keys("e", "e", 100), ONE);
        assertEquals(List.of(new KeySlice("e", List.of())), named);
        // a newer write brings a deleted row back
        r.c().insert(KS, "b", path("Ghosts", "z"), b("v"), 3, ONE);
        assertEquals(List.of(new KeySlice("b", List.of(cosc(column("z", "v", 3))))),
                r.c().get_range_slices(KS, parent("Ghosts"), all(), keys("b", "b", 100), ONE));
    }

    @ParameterizedTest(name = "order preserving={0}")
    @ValueSource(booleans = {false, true})
    void reversedSlicesAreReversedPerRow(boolean preservesOrder) throws Exception {
        Ring r = Ring.of(preservesOrder);
        r.fill("Reversed", List.of("a", "b", "c"), "1", "2", "3");
        List<KeySlice> rows = r.c().get_range_slices(KS, parent("Reversed"), range("", "", true, 2),
                keys("", "", 100), ONE);
        assertEquals(3, rows.size());
        for (KeySlice row : rows) {
            String k = row.getKey();
            assertEquals(List.of(cosc(column("3", k + "3", 1)), cosc(column("2", k + "2", 1))), row.getColumns(), k);
        }
        rows = r.c().get_range_slices(KS, parent("Reversed"), range("2", "1", true, 10), keys("", "", 100), ONE);
        for (KeySlice row : rows) assertEquals(List.of("2", "1"), namesOf(row.getColumns()), row.getKey());
    }

    @ParameterizedTest(name = "order preserving={0}")
    @ValueSource(booleans = {false, true})
    void superColumnFamiliesAtBothLevels(boolean preservesOrder) throws Exception {
        Ring r = Ring.of(preservesOrder);
        for (String k : List.of("a", "b", "c")) {
            r.c().insert(KS, k, path("Supers", "s1", "x"), b(k), 1, ONE);
        }
        r.c().insert(KS, "b", path("Supers", "s2", "y"), b("b"), 1, ONE);
        r.c().insert(KS, "b", path("Supers", "s2", "z"), b("b"), 1, ONE);
        List<String> sorted = r.inRingOrder(List.of("a", "b", "c"));

        List<KeySlice> top = r.c().get_range_slices(KS, parent("Supers"), all(), keys("", "", 100), ONE);
        assertEquals(sorted, keysOf(top));
        for (KeySlice row : top) {
            List<Object> expected = new ArrayList<>(List.of(cosc(superColumn("s1", column("x", row.getKey(), 1)))));
            if (row.getKey().equals("b")) {
                expected.add(cosc(superColumn("s2", column("y", "b", 1), column("z", "b", 1))));
            }
            assertEquals(expected, new ArrayList<Object>(row.getColumns()), row.getKey());
        }

        List<KeySlice> sub = r.c().get_range_slices(KS, parent("Supers", "s2"), range("", "", true, 100),
                keys("", "", 100), ONE);
        assertEquals(sorted, keysOf(sub), "rows without that super column are empty key slices");
        for (KeySlice row : sub) {
            assertEquals(row.getKey().equals("b") ? List.of("z", "y") : List.of(), namesOf(row.getColumns()));
        }
    }

    @ParameterizedTest(name = "order preserving={0}")
    @ValueSource(booleans = {false, true})
    void deprecatedGetRangeSliceIsAKeyRange(boolean preservesOrder) throws Exception {
        Ring r = Ring.of(preservesOrder);
        r.fill("Legacy", A_TO_E, "x");
        List<String> sorted = r.inRingOrder(A_TO_E);
        assertEquals(sorted, keysOf(r.c().get_range_slice(KS, parent("Legacy"), all(), "", "", 100, ONE)));
        assertEquals(sorted.subList(1, 3),
                keysOf(r.c().get_range_slice(KS, parent("Legacy"), all(), sorted.get(1), sorted.get(4), 2, ONE)));
        assertEquals(r.byKeys("Legacy", sorted.get(1), sorted.get(3), 100),
                r.c().get_range_slice(KS, parent("Legacy"), all(), sorted.get(1), sorted.get(3), 100, ONE));
        assertEquals("maxRows must be positive",
                why(() -> r.c().get_range_slice(KS, parent("Legacy"), all(), "", "", 0, ONE)));
        assertTrue(r.c().get_range_slice(KS, parent("Legacy"), all(), "", "", 100, ConsistencyLevel.QUORUM).size() == 5,
                "QUORUM on a replication factor 1 keyspace is met by this node");
    }
}
