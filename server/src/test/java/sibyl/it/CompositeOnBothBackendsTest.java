package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static sibyl.db.marshal.Names.composite;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.Deletion;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.KeySlice;
import sibyl.iface.v20.Mutation;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;
import sibyl.it.ComparedCalls.Call;
import sibyl.it.ComparedCalls.Client;

/**
 * Column families whose comparator is a CompositeType or a ReversedType answer the same calls alike on both
 * backends: the same random writes, then gets, slices by names and by composite bounds with their end-of-component
 * bytes (forward, reversed, counted), counts, multigets, range scans and removes, compared answer by answer between
 * an embedded node and a cluster node (docs/configuration.md §Cluster), bounds over components of both orders
 * included; what only the cluster refuses (a name of fewer components, an empty value of a descending component) it
 * refuses with its why.
 */
class CompositeOnBothBackendsTest {
    private static final String KS = "Composites";
    /** Comparators, by column family; components are drawn from small sets so that prefixes are shared. */
    private static final Map<String, String> COMPARATORS = new TreeMap<>(Map.of(
            "TextLong", "CompositeType(UTF8Type,LongType)",
            "TextNewest", "CompositeType(UTF8Type,ReversedType(LongType))",
            "AllDescending", "CompositeType(ReversedType(Int32Type),ReversedType(UTF8Type))",
            "Newest", "ReversedType(LongType)",
            "CasTimeline", "CompositeType(UTF8Type,ReversedType(LongType))"));
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;
    private static final List<String> KEYS = List.of("k0", "k1", "k2", "k3");

    private static TestNode embedded;
    private static TestNode cluster;

    @BeforeAll
    static void startBoth(@TempDir Path dir) throws Exception {
        assumeTrue(TestNode.Backend.underTest().containsAll(List.of(TestNode.Backend.EMBEDDED,
                TestNode.Backend.CLUSTER)), "needs both backends");
        UnaryOperator<String> schema = ConfEdits.addKeyspace(ConfEdits.keyspace(KS, 1, COMPARATORS.entrySet().stream()
                .map(e -> "<ColumnFamily Name=\"" + e.getKey() + "\" CompareWith=\"" + e.getValue() + "\"/>")
                .toArray(String[]::new)));
        embedded = TestNode.start(TestNode.Backend.EMBEDDED, dir.resolve("embedded"), schema, null);
        cluster = TestNode.start(TestNode.Backend.CLUSTER, dir.resolve("cluster"), schema, null);
    }

    @AfterAll
    static void stopBoth() {
        if (cluster != null) cluster.close();
        if (embedded != null) embedded.close();
    }

    @Test
    void everyCallAnswersAsTheEmbeddedEngineDoes() throws Exception {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        try (Client e = new Client(embedded.port(), KS, CompositeOnBothBackendsTest::render); Client c = new Client(cluster.port(), KS, CompositeOnBothBackendsTest::render)) {
            int compared = 0;
            for (String cf : COMPARATORS.keySet().stream().filter(cf -> !cf.startsWith("Cas")).toList()) {
                List<Call> calls = calls(cf, random);
                for (Call call : calls) {
                    String onEmbedded = e.answer(call);
                    String onCluster = c.answer(call);
                    assertEquals(onEmbedded, onCluster, "seed " + seed + ", " + cf + ": " + call);
                    compared++;
                }
            }
            assertTrue(compared > 400, compared + " answers compared");
        }
    }

    /**
     * A cas writes a composite name's columns and compares it as the embedded engine does. The cluster writes it at
     * its Paxos ballot's time, so the answers are compared without timestamps.
     */
    @Test
    void aCasOnACompositeNameAnswersAlike() throws Exception {
        byte[] mail = composite(0, utf8("mail"), ofLong(3));
        byte[] news = composite(0, utf8("news"), ofLong(7));
        Column mailV1 = column(mail, 1, 0);
        Column mailV2 = column(mail, 2, 0).setValue(utf8("second"));
        List<Call> calls = List.of(
                new Call("cas absent", client -> client.cas(key("c"), "CasTimeline", List.of(), List.of(mailV1,
                        column(news, 1, 0)), ConsistencyLevel.SERIAL, ONE)),
                new Call("cas absent again", client -> client.cas(key("c"), "CasTimeline", List.of(new Column(
                        ByteBuffer.wrap(mail))), List.of(mailV2), ConsistencyLevel.SERIAL, ONE)),
                new Call("cas expected", client -> client.cas(key("c"), "CasTimeline", List.of(mailV1), List.of(mailV2),
                        ConsistencyLevel.SERIAL, ONE)),
                new Call("cas stale", client -> client.cas(key("c"), "CasTimeline", List.of(mailV1), List.of(mailV1),
                        ConsistencyLevel.SERIAL, ONE)),
                new Call("after", client -> client.get_slice(key("c"), new ColumnParent("CasTimeline"),
                        range(new byte[0], new byte[0], false, 10), ONE)));
        try (Client e = new Client(embedded.port(), KS, CompositeOnBothBackendsTest::render); Client c = new Client(cluster.port(), KS, CompositeOnBothBackendsTest::render)) {
            for (Call call : calls) {
                String onEmbedded = e.answer(call).replaceAll("@\\d+", "");
                assertEquals(onEmbedded, c.answer(call).replaceAll("@\\d+", ""), call.toString());
            }
        }
    }

    @Test
    void aNameTheClusterCannotHoldIsRefusedWithWhy() throws Exception {
        try (Client c = new Client(cluster.port(), KS, CompositeOnBothBackendsTest::render)) {
            String partial = c.answer(new Call("insert", client -> {
                client.insert(key("k9"), new ColumnParent("TextLong"), column(composite(0, utf8("a")), 1, 0), ONE);
                return "done";
            }));
            assertTrue(partial.startsWith("InvalidRequestException") && partial.contains("all 2 components, not 1"),
                    partial);
            String bound = c.answer(new Call("bound", client -> {
                client.insert(key("k9"), new ColumnParent("TextLong"), column(composite(1, utf8("a"), ofLong(1)), 1, 0),
                        ONE);
                return "done";
            }));
            assertTrue(bound.contains("end-of-component byte of 0, not 1"), bound);
            String empty = c.answer(new Call("empty", client -> {
                client.insert(key("k9"), new ColumnParent("AllDescending"), column(composite(0, ofInt(1), utf8("")), 1,
                        0), ONE);
                return "done";
            }));
            assertTrue(empty.contains("component 2 of a name, a ReversedType one, is not empty"), empty);
        }
    }

    @Test
    void aTableOfAnotherLayoutStopsTheStartNamingBoth(@TempDir Path dir) throws Exception {
        UnaryOperator<String> inCluster = ConfEdits.inCluster(LocalCassandra.shared().contactPoint(1),
                "layout" + ProcessHandle.current().pid() + "_");
        TestNode.start(TestNode.Backend.EMBEDDED, dir.resolve("first"), ConfEdits.all(inCluster, clash(
                "CompositeType(UTF8Type,LongType)")), null).close();
        Exception refused = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> TestNode.start(
                TestNode.Backend.EMBEDDED, dir.resolve("second"), ConfEdits.all(inCluster, clash(
                        "CompositeType(UTF8Type,ReversedType(LongType))")), null).close());
        String why = String.valueOf(refused.getMessage());
        assertTrue(why.contains("ColumnFamily[@Name='Clash']") && why.contains(
                "has the layout (key blob, column1 text, column2 bigint, value blob), not the (key blob, column1 text,"
                        + " column2 bigint DESC, value blob)") && why.contains("column2 is ordered ASC, not DESC"), why);
    }

    private static UnaryOperator<String> clash(String comparator) {
        return ConfEdits.addKeyspace(ConfEdits.keyspace("Layouts", 1, "<ColumnFamily Name=\"Clash\" CompareWith=\""
                + comparator + "\"/>"));
    }


    /** Writes, then reads of every kind, then removes and the reads again. */
    private static List<Call> calls(String cf, Random random) {
        List<Call> calls = new ArrayList<>();
        ColumnParent parent = new ColumnParent(cf);
        long timestamp = 1000;
        for (String k : KEYS) {
            List<Mutation> writes = new ArrayList<>();
            for (int i = 0; i < 25; i++) {
                // no two writes of a name at one timestamp: how a tie of a ttl and none resolves is not this test's
                writes.add(new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(
                        column(name(cf, random), timestamp + 1 + i, random.nextInt(4) == 0 ? 3600 : 0))));
            }
            calls.add(new Call("batch_mutate " + k, client -> {
                client.batch_mutate(Map.of(key(k), Map.of(cf, writes)), ONE);
                return "done";
            }));
            byte[] one = name(cf, random);
            calls.add(new Call("insert " + k + " " + hex(one), client -> {
                client.insert(key(k), parent, column(one, timestamp + 100, 0), ONE);
                return "done";
            }));
        }
        reads(calls, cf, random);
        for (String k : KEYS.subList(0, 2)) {
            byte[] name = name(cf, random);
            calls.add(new Call("remove " + k + " " + hex(name), client -> {
                client.remove(key(k), new ColumnPath(cf).setColumn(name), timestamp + 200, ONE);
                return "done";
            }));
            SliceRange slice = bounds(cf, random).getSlice_range();
            calls.add(new Call("delete slice " + k + " " + describe(slice), client -> {
                client.batch_mutate(Map.of(key(k), Map.of(cf, List.of(new Mutation().setDeletion(new Deletion()
                        .setTimestamp(timestamp + 200).setPredicate(new SlicePredicate().setSlice_range(slice)))))), ONE);
                return "done";
            }));
        }
        reads(calls, cf, random);
        return calls;
    }

    private static void reads(List<Call> calls, String cf, Random random) {
        ColumnParent parent = new ColumnParent(cf);
        calls.add(new Call("range slices", client -> client.get_range_slices(parent, range(new byte[0], new byte[0],
                false, 1000), new KeyRange(100).setStart_key(new byte[0]).setEnd_key(new byte[0]), ONE)));
        for (String k : KEYS) {
            calls.add(new Call("all of " + k, client -> client.get_slice(key(k), parent,
                    range(new byte[0], new byte[0], false, 1000), ONE)));
            calls.add(new Call("all of " + k + " reversed", client -> client.get_slice(key(k), parent,
                    range(new byte[0], new byte[0], true, 7), ONE)));
            calls.add(new Call("count " + k, client -> client.get_count(key(k), parent,
                    range(new byte[0], new byte[0], false, 1000), ONE)));
            ComparedCalls.slicesAndCounts(calls, k, key(k), parent, 30, () -> bounds(cf, random),
                    CompositeOnBothBackendsTest::describe);
            List<ByteBuffer> names = new ArrayList<>();
            for (int i = 0; i < 6; i++) names.add(ByteBuffer.wrap(i == 5 ? prefix(cf, random) : name(cf, random)));
            calls.add(new Call("names " + k, client -> client.get_slice(key(k), parent,
                    new SlicePredicate().setColumn_names(names), ONE)));
            for (ByteBuffer name : names.subList(4, 6)) {
                calls.add(new Call("get " + k + " " + hex(name.array()), client -> client.get(key(k),
                        new ColumnPath(cf).setColumn(name.array()), ONE)));
            }
        }
        SlicePredicate some = bounds(cf, random);
        calls.add(new Call("multiget " + describe(some.getSlice_range()), client -> new TreeMap<>(client.multiget_slice(
                KEYS.stream().map(CompositeOnBothBackendsTest::key).toList(), parent, some, ONE))));
    }

    /** Slice bounds: each empty, or a prefix of a name with an end-of-component byte of -1, 0 or 1. */
    private static SlicePredicate bounds(String cf, Random random) {
        byte[] start = random.nextInt(5) == 0 ? new byte[0] : prefix(cf, random);
        byte[] finish = random.nextInt(5) == 0 ? new byte[0] : prefix(cf, random);
        return range(start, finish, random.nextBoolean(), 1 + random.nextInt(12));
    }

    /** A stored name of the column family: every component, each end-of-component byte 0. */
    private static byte[] name(String cf, Random random) {
        return switch (cf) {
            case "Newest" -> ofLong(random.nextInt(40) - 20);
            case "AllDescending" -> composite(0, ofInt(random.nextInt(5) - 2), utf8(nonEmptyText(random)));
            default -> composite(0, utf8(text(random)), ofLong(random.nextInt(10) - 5));
        };
    }

    /** A bound: a name, or a shorter prefix, with any end-of-component byte; now and then a static one. */
    private static byte[] prefix(String cf, Random random) {
        if (cf.equals("Newest")) return name(cf, random);
        if (random.nextInt(25) == 0) {
            byte[] name = name(cf, random);
            byte[] marked = new byte[name.length + 2];
            marked[0] = marked[1] = (byte) 0xff;
            System.arraycopy(name, 0, marked, 2, name.length);
            return marked;
        }
        int eoc = random.nextInt(3) - 1;
        byte[] first = cf.equals("AllDescending") ? ofInt(random.nextInt(5) - 2) : utf8(text(random));
        if (random.nextBoolean()) return composite(eoc, first);
        // an empty value of a descending component: a bound that can be, though no stored name can
        byte[] second = cf.equals("AllDescending") ? utf8(text(random)) : ofLong(random.nextInt(10) - 5);
        return composite(eoc, first, second);
    }

    private static String text(Random random) {
        return List.of("", "a", "ab", "b", "c").get(random.nextInt(5));
    }

    /** The cluster holds no empty value of a descending component (docs/differences.md §The 0.7+ dialect). */
    private static String nonEmptyText(Random random) {
        return List.of("a", "ab", "b", "c").get(random.nextInt(4));
    }

    private static SlicePredicate range(byte[] start, byte[] finish, boolean reversed, int count) {
        return new SlicePredicate().setSlice_range(new SliceRange(ByteBuffer.wrap(start), ByteBuffer.wrap(finish),
                reversed, count));
    }

    private static String describe(SliceRange r) {
        return hex(r.getStart()) + ".." + hex(r.getFinish()) + (r.isReversed() ? " reversed" : "") + " count "
                + r.getCount();
    }

    private static Column column(byte[] name, long timestamp, int ttl) {
        Column c = new Column(ByteBuffer.wrap(name)).setValue(("v" + timestamp).getBytes(StandardCharsets.UTF_8))
                .setTimestamp(timestamp);
        return ttl == 0 ? c : c.setTtl(ttl);
    }


    /**
     * Names, values and timestamps in hex and order; a ttl as whether there is one (a cluster gives the time left,
     * docs/differences.md §The 0.7+ dialect); a range scan's rows without columns left out (the cluster lists no
     * row that only tombstones hold, docs/differences.md).
     */
    private static String render(Object answer) {
        if (answer instanceof List<?> list) {
            StringBuilder s = new StringBuilder("[");
            for (Object o : list) {
                if (o instanceof KeySlice k && k.getColumns().isEmpty()) continue;
                s.append(render(o)).append(' ');
            }
            return s.append(']').toString();
        }
        if (answer instanceof Map<?, ?> map) {
            StringBuilder s = new StringBuilder("{");
            map.forEach((k, v) -> s.append(render(k)).append('=').append(render(v)).append(' '));
            return s.append('}').toString();
        }
        if (answer instanceof KeySlice k) return hex(k.getKey()) + "=" + render(k.getColumns());
        if (answer instanceof sibyl.iface.v20.CASResult r) {
            return (r.isSuccess() ? "applied " : "not applied ") + render(r.getCurrent_values());
        }
        if (answer instanceof ColumnOrSuperColumn c) answer = c.getColumn();
        if (answer instanceof Column c) {
            return hex(c.getName()) + ":" + hex(c.getValue()) + "@" + c.getTimestamp() + (c.isSetTtl() ? "+ttl" : "");
        }
        if (answer instanceof ByteBuffer b) {
            byte[] a = new byte[b.remaining()];
            b.duplicate().get(a);
            return hex(a);
        }
        return String.valueOf(answer);
    }

    private static ByteBuffer key(String k) {
        return ByteBuffer.wrap(utf8(k));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] ofLong(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    private static byte[] ofInt(int v) {
        return ByteBuffer.allocate(4).putInt(v).array();
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
