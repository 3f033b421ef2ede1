package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static sibyl.it.Requests.all;
import static sibyl.it.Requests.b;
import static sibyl.it.Requests.column;
import static sibyl.it.Requests.cosc;
import static sibyl.it.Requests.deletion;
import static sibyl.it.Requests.insertion;
import static sibyl.it.Requests.keys;
import static sibyl.it.Requests.names;
import static sibyl.it.Requests.parent;
import static sibyl.it.Requests.path;
import static sibyl.it.Requests.range;
import static sibyl.it.Requests.tokens;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.NotFoundException;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SuperColumn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random writes sent both to a real node and to {@link ReferenceModel}; every few steps the
 * node's answers to get, get_slice, get_count, multiget_slice and get_range_slices (by keys and
 * by wrapping tokens) must equal the model's, under RandomPartitioner and, in a shorter run,
 * OrderPreservingPartitioner. Small name, value and timestamp pools make collisions (equal
 * timestamps, tombstone ties, resurrections) common. Prints its seed; rerun with
 * {@code -Dsibyl.seed=N}, and change the length with {@code -Dsibyl.differential.steps=N}.
 */
@ParameterizedClass
@MethodSource("sibyl.it.TestNode#backends")
class DifferentialTest {
    private static final String KS = "Keyspace1";
    private static final String STD = "Standard1";
    private static final String SUP = "Super1";
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;
    private static final List<String> KEYS = List.of("d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9");
    private static final List<String> NAMES = List.of("a", "b", "c", "d", "e", "f");
    private static final List<String> SUPERS = List.of("s1", "s2", "s3", "s4");
    private static final List<String> VALUES = List.of("", "a", "ab", "b", "z");
    private static final String OPP = ConfEdits.ORDER_PRESERVING_PARTITIONER;

    @RegisterExtension
    static final NodeExtension RANDOM = NodeExtension.onEachBackend();
    /** Not in cluster mode: the shared cluster partitions randomly. */
    @RegisterExtension
    static final NodeExtension ORDERED = NodeExtension.embedded().edit(ConfEdits.partitioner(OPP))
            .skippedOn(TestNode.Backend.CLUSTER);

    @Parameter
    TestNode.Backend backend;

    private Cassandra.Client c;
    private boolean preservesOrder;
    private Comparator<String> tokenOrder;
    private Random rnd;
    private ReferenceModel model;
    private long step;
    private String context;

    @Test
    void randomPartitionerServerAgreesWithTheModel() throws Exception {
        run(false, Integer.getInteger("sibyl.differential.steps", 3000));
    }

    /** Shorter: only the ring order differs from the RandomPartitioner run. */
    @Test
    void orderPreservingServerAgreesWithTheModel() throws Exception {
        run(true, Integer.getInteger("sibyl.differential.steps", 3000) / 3);
    }

    private void run(boolean orderPreserving, int steps) throws Exception {
        assumeTrue(!orderPreserving || ORDERED.isRunning(),
                "the order-preserving run needs a ByteOrderedPartitioner cluster; the shared one partitions randomly");
        preservesOrder = orderPreserving;
        c = (orderPreserving ? ORDERED : RANDOM).node().client(true);
        tokenOrder = orderPreserving ? Comparator.naturalOrder() : Comparator.comparing(DifferentialTest::md5Token);
        long seed = Long.getLong("sibyl.seed", 20_061_006L);
        System.out.println("DifferentialTest seed " + seed + " (rerun with -Dsibyl.seed=" + seed + ")"
                + (orderPreserving ? " under " + OPP : ""));
        rnd = new Random(seed);
        model = new ReferenceModel(STD, SUP);
        model.listsGhostRows = backend == TestNode.Backend.EMBEDDED;
        for (step = 0; step < steps; step++) {
            context = "seed " + seed + " step " + step + (orderPreserving ? " (OPP)" : "");
            randomWrite();
            if (step % 5 == 4) comparePointReads(pick(KEYS));
            if (step % 50 == 49) compareRanges();
        }
        context = "seed " + seed + " at the end";
        for (String key : KEYS) comparePointReads(key);
        compareRanges();
    }

    // ---- writes

    private <T> T pick(List<T> from) {
        return from.get(rnd.nextInt(from.size()));
    }

    /** Timestamps drift upwards so later writes can outlive tombstones, but collide often. */
    private long ts() {
        return step / 20 + rnd.nextInt(6);
    }

    private void randomWrite() throws Exception {
        String key = pick(KEYS);
        switch (rnd.nextInt(9)) {
            case 0 -> {
                String n = pick(NAMES), v = pick(VALUES);
                long t = ts();
                c.insert(KS, key, path(STD, n), b(v), t, ONE);
                model.write(key, n, v, t);
            }
            case 1 -> {
                String sc = pick(SUPERS), n = pick(NAMES), v = pick(VALUES);
                long t = ts();
                c.insert(KS, key, path(SUP, sc, n), b(v), t, ONE);
                model.writeSub(key, sc, n, v, t);
            }
            case 2 -> randomRemove(key);
            case 3 -> {
                Map<String, List<ColumnOrSuperColumn>> cfmap = new HashMap<>();
                List<ColumnOrSuperColumn> columns = new ArrayList<>();
                List<Mutation> asMutations = new ArrayList<>();
                for (int i = rnd.nextInt(3) + 1; i > 0; i--) {
                    Column col = column(pick(NAMES), pick(VALUES), ts());
                    columns.add(cosc(col));
                    asMutations.add(insertion(col));
                }
                cfmap.put(STD, columns);
                c.batch_insert(KS, key, cfmap, ONE);
                model.apply(key, STD, asMutations);
            }
            default -> randomBatch();
        }
    }

    private void randomRemove(String key) throws Exception {
        long t = ts();
        switch (rnd.nextInt(10)) {
            case 0 -> {
                c.remove(KS, key, path(STD), t, ONE);
                model.deleteRow(STD, key, t);
            }
            case 1 -> {
                c.remove(KS, key, path(SUP), t, ONE);
                model.deleteRow(SUP, key, t);
            }
            case 2, 3 -> {
                String sc = pick(SUPERS);
                c.remove(KS, key, path(SUP, sc, null), t, ONE);
                model.deleteSuper(key, sc, t);
            }
            case 4, 5, 6 -> {
                String sc = pick(SUPERS), n = pick(NAMES);
                c.remove(KS, key, path(SUP, sc, n), t, ONE);
                model.deleteSub(key, sc, n, t);
            }
            default -> {
                String n = pick(NAMES);
                c.remove(KS, key, path(STD, n), t, ONE);
                model.deleteColumn(key, n, t);
            }
        }
    }

    private void randomBatch() throws Exception {
        Map<String, Map<String, List<Mutation>>> batch = new HashMap<>();
        for (int k = rnd.nextInt(3) + 1; k > 0; k--) {
            Map<String, List<Mutation>> byCf = batch.computeIfAbsent(pick(KEYS), x -> new HashMap<>());
            for (String cf : List.of(STD, SUP)) {
                if (rnd.nextInt(3) == 0) continue;
                List<Mutation> list = byCf.computeIfAbsent(cf, x -> new ArrayList<>());
                for (int i = rnd.nextInt(4) + 1; i > 0; i--) list.add(cf.equals(STD) ? standardMutation() : superMutation());
            }
        }
        c.batch_mutate(KS, batch, ONE);
        batch.forEach((key, byCf) -> byCf.forEach((cf, list) -> model.apply(key, cf, list)));
    }

    private Mutation standardMutation() {
        return switch (rnd.nextInt(8)) {
            case 0 -> deletion(ts(), null, names(pickSome(NAMES)));
            case 1 -> deletion(ts(), null, randomRange());
            case 2 -> rnd.nextInt(4) == 0 ? deletion(ts(), null, null) : insertion(column(pick(NAMES), pick(VALUES), ts()));
            default -> insertion(column(pick(NAMES), pick(VALUES), ts()));
        };
    }

    private Mutation superMutation() {
        return switch (rnd.nextInt(10)) {
            case 0 -> deletion(ts(), null, names(pickSome(SUPERS)));
            case 1 -> deletion(ts(), pick(SUPERS), null);
            case 2 -> deletion(ts(), pick(SUPERS), names(pickSome(NAMES)));
            case 3 -> deletion(ts(), null, randomSuperRange());
            case 4 -> deletion(ts(), pick(SUPERS), randomRange());
            case 5 -> rnd.nextInt(4) == 0 ? deletion(ts(), null, null) : superInsertion();
            default -> superInsertion();
        };
    }

    private Mutation superInsertion() {
        List<Column> subs = new ArrayList<>();
        for (int i = rnd.nextInt(3) + 1; i > 0; i--) subs.add(column(pick(NAMES), pick(VALUES), ts()));
        return insertion(new SuperColumn(b(pick(SUPERS)), subs));
    }

    private String[] pickSome(List<String> from) {
        String[] out = new String[rnd.nextInt(3) + 1];
        for (int i = 0; i < out.length; i++) out[i] = pick(from);
        return out;
    }

    private SlicePredicate randomRange() {
        return boundedRange(NAMES);
    }

    private SlicePredicate randomSuperRange() {
        return boundedRange(SUPERS);
    }

    /** A valid range over {@code names}, plus names outside the pool, with every option random. */
    private SlicePredicate boundedRange(List<String> pool) {
        List<String> bounds = new ArrayList<>(pool);
        bounds.add("");
        bounds.add(pool.get(0) + "0");
        String start = pick(bounds), finish = pick(bounds);
        boolean reversed = rnd.nextBoolean();
        if (!start.isEmpty() && !finish.isEmpty() && (reversed ? start.compareTo(finish) < 0 : start.compareTo(finish) > 0)) {
            String swap = start;
            start = finish;
            finish = swap;
        }
        int count = rnd.nextInt(5) == 0 ? 0 : rnd.nextInt(6) + 1;
        return range(start, finish, reversed, rnd.nextBoolean() ? 100 : count);
    }

    private SlicePredicate randomPredicate(List<String> pool) {
        if (rnd.nextInt(4) == 0) {
            List<String> some = new ArrayList<>(List.of(pickSome(pool)));
            if (rnd.nextBoolean()) some.add("zz");
            return names(some.toArray(String[]::new));
        }
        return boundedRange(pool);
    }

    // ---- comparisons

    private void comparePointReads(String key) throws Exception {
        assertEquals(model.slice(STD, key, null, all()), c.get_slice(KS, key, parent(STD), all(), ONE),
                context + ": " + key + " " + STD);
        assertEquals(model.slice(SUP, key, null, all()), c.get_slice(KS, key, parent(SUP), all(), ONE),
                context + ": " + key + " " + SUP);
        SlicePredicate p = randomPredicate(NAMES);
        assertEquals(model.slice(STD, key, null, p), c.get_slice(KS, key, parent(STD), p, ONE),
                context + ": " + key + " " + STD + " " + p);
        p = randomPredicate(SUPERS);
        assertEquals(model.slice(SUP, key, null, p), c.get_slice(KS, key, parent(SUP), p, ONE),
                context + ": " + key + " " + SUP + " " + p);
        String sc = pick(SUPERS);
        p = randomPredicate(NAMES);
        assertEquals(model.slice(SUP, key, sc, p), c.get_slice(KS, key, parent(SUP, sc), p, ONE),
                context + ": " + key + " " + SUP + "/" + sc + " " + p);

        assertEquals(model.slice(STD, key, null, all()).size(), c.get_count(KS, key, parent(STD), ONE), context);
        assertEquals(model.slice(SUP, key, null, all()).size(), c.get_count(KS, key, parent(SUP), ONE), context);
        assertEquals(model.slice(SUP, key, sc, all()).size(), c.get_count(KS, key, parent(SUP, sc), ONE), context);

        String n = pick(NAMES);
        compareGet(model.get(STD, key, null, n), () -> c.get(KS, key, path(STD, n), ONE), key + " " + n);
        compareGet(model.get(SUP, key, sc, n), () -> c.get(KS, key, path(SUP, sc, n), ONE), key + " " + sc + "/" + n);
        List<ColumnOrSuperColumn> wholeSuper = model.slice(SUP, key, null, names(sc));
        compareGet(wholeSuper.isEmpty() ? null : wholeSuper.get(0), () -> c.get(KS, key, path(SUP, sc, null), ONE),
                key + " " + sc);
    }

    private interface Get {
        ColumnOrSuperColumn run() throws Exception;
    }

    private void compareGet(ColumnOrSuperColumn expected, Get get, String what) throws Exception {
        if (expected == null) assertThrows(NotFoundException.class, get::run, context + ": get " + what);
        else assertEquals(expected, get.run(), context + ": get " + what);
    }

    private void compareRanges() throws Exception {
        for (String cf : List.of(STD, SUP)) {
            assertEquals(model.rangeSlice(cf, null, all(), tokenOrder, 1000),
                    c.get_range_slices(KS, parent(cf), all(), keys("", "", 1000), ONE), context + ": range " + cf);
            SlicePredicate p = randomPredicate(cf.equals(STD) ? NAMES : SUPERS);
            int count = rnd.nextInt(KEYS.size()) + 1;
            assertEquals(model.rangeSlice(cf, null, p, tokenOrder, count),
                    c.get_range_slices(KS, parent(cf), p, keys("", "", count), ONE),
                    context + ": range " + cf + " " + p + " count " + count);
        }
        // token form: from just after a key's token all the way round the ring to it
        String from = pick(KEYS);
        String token = preservesOrder ? from : md5Token(from).toString();
        List<KeySlice> ring = model.rangeSlice(STD, null, all(), tokenOrder, 1000);
        List<KeySlice> expectedWrap = new ArrayList<>();
        for (KeySlice row : ring) if (tokenOrder.compare(row.getKey(), from) > 0) expectedWrap.add(row);
        for (KeySlice row : ring) if (tokenOrder.compare(row.getKey(), from) <= 0) expectedWrap.add(row);
        assertEquals(expectedWrap, c.get_range_slices(KS, parent(STD), all(), tokens(token, token, 1000), ONE),
                context + ": token range from " + from);

        String sc = pick(SUPERS);
        SlicePredicate p = randomPredicate(NAMES);
        ColumnParent scParent = parent(SUP, sc);
        assertEquals(model.rangeSlice(SUP, sc, p, tokenOrder, 1000),
                c.get_range_slices(KS, scParent, p, keys("", "", 1000), ONE), context + ": range " + sc + " " + p);
        Map<String, List<ColumnOrSuperColumn>> expected = new HashMap<>();
        for (String key : KEYS) expected.put(key, model.slice(STD, key, null, p));
        assertEquals(expected, c.multiget_slice(KS, KEYS, parent(STD), p, ONE), context + ": multiget_slice " + p);
    }

    private static BigInteger md5Token(String key) {
        try {
            return new BigInteger(MessageDigest.getInstance("MD5").digest(key.getBytes(StandardCharsets.UTF_8))).abs();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
