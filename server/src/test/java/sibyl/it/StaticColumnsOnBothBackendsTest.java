package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnDef;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.Deletion;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.KeySlice;
import sibyl.iface.v20.KsDef;
import sibyl.iface.v20.Mutation;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;
import sibyl.it.ComparedCalls.Call;
import sibyl.it.ComparedCalls.Client;

/**
 * Column families with column_metadata, whose declared columns the cluster holds in static columns and every other
 * name in (column1, value) (docs/configuration.md §Cluster), answer the same random calls as the embedded engine:
 * writes with and without ttls at random timestamps, gets, slices by names and by bounds (forward, reversed,
 * counted), counts, multigets, range scans, removes of names, of slices and of rows. One column family gains a
 * column_metadata entry by system_update_column_family after its rows hold the name in (column1, value), so the same
 * name is in both places and reads must pick the version that wins.
 */
class StaticColumnsOnBothBackendsTest {
    private static final String KS = "Statics";
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;
    private static final List<String> KEYS = List.of("k0", "k1", "k2", "k3");
    /** Declared names and their types, by column family; "key" cannot be a static column and stays dynamic. */
    private static final Map<String, Map<String, String>> DECLARED = Map.of(
            "Users", Map.of("name", "UTF8Type", "age", "LongType", "key", "BytesType", "Mixed Case", "Int32Type"),
            "Hex", Map.of("ab", "LongType", "m", "UTF8Type"),
            "Grown", Map.of());
    /** What system_update_column_family declares in Grown halfway. */
    private static final Map<String, String> GROWN_LATER = Map.of("later", "UTF8Type", "n", "LongType");
    private static final List<String> UNDECLARED = List.of("a", "b", "later", "n", "z", "zz", "value", "column1");

    /** The embedded node, then the cluster node, each with the keyspace made by API. */
    private static final List<TestNode> NODES = new ArrayList<>();

    @BeforeAll
    static void startBoth(@TempDir Path dir) throws Exception {
        List<TestNode.Backend> both = List.of(TestNode.Backend.EMBEDDED, TestNode.Backend.CLUSTER);
        assumeTrue(TestNode.Backend.underTest().containsAll(both), "needs both backends");
        List<CfDef> tables = new ArrayList<>();
        DECLARED.forEach((cf, columns) -> tables.add(cfDef(cf, columns)));
        for (TestNode.Backend backend : both) {
            NODES.add(TestNode.start(backend, dir.resolve(backend.name()), xml -> xml, null));
            try (Client c = new Client(NODES.get(NODES.size() - 1).port(), null,
                    StaticColumnsOnBothBackendsTest::render)) {
                c.thrift().system_add_keyspace(new KsDef(KS, "org.apache.cassandra.locator.SimpleStrategy",
                        tables).setStrategy_options(Map.of("replication_factor", "1")));
            }
        }
    }

    @AfterAll
    static void stopBoth() {
        for (int i = NODES.size() - 1; i >= 0; i--) NODES.get(i).close();
    }

    private static CfDef cfDef(String cf, Map<String, String> columns) {
        CfDef def = new CfDef(KS, cf).setComparator_type(cf.equals("Hex") ? "BytesType" : "UTF8Type");
        List<ColumnDef> defs = new ArrayList<>();
        columns.forEach((name, type) -> defs.add(new ColumnDef(ByteBuffer.wrap(utf8(name)), type)));
        return def.setColumn_metadata(defs);
    }

    @Test
    void everyCallAnswersAsTheEmbeddedEngineDoes() throws Exception {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        try (Client e = new Client(NODES.get(0).port(), KS, StaticColumnsOnBothBackendsTest::render); Client c = new Client(NODES.get(1).port(), KS, StaticColumnsOnBothBackendsTest::render)) {
            int compared = 0;
            for (String cf : List.of("Users", "Hex", "Grown")) {
                List<Call> calls = new ArrayList<>();
                writes(calls, cf, DECLARED.get(cf), random);
                reads(calls, cf, random);
                compared += compare(e, c, calls, seed, cf);
                if (cf.equals("Grown")) {
                    for (Client client : List.of(e, c)) {
                        CfDef current = client.thrift().describe_keyspace(KS).getCf_defs().stream()
                                .filter(d -> d.getName().equals(cf)).findFirst().orElseThrow();
                        List<ColumnDef> defs = new ArrayList<>();
                        GROWN_LATER.forEach((name, type) -> defs.add(new ColumnDef(ByteBuffer.wrap(utf8(name)), type)));
                        client.thrift().system_update_column_family(current.setColumn_metadata(defs));
                    }
                    calls.clear();
                    reads(calls, cf, random);
                    writes(calls, cf, GROWN_LATER, random);
                    reads(calls, cf, random);
                    compared += compare(e, c, calls, seed, cf + " grown");
                }
                calls.clear();
                removes(calls, cf, random);
                reads(calls, cf, random);
                compared += compare(e, c, calls, seed, cf + " after removes");
            }
            assertTrue(compared > 500, compared + " answers compared");
        }
    }

    private static int compare(Client e, Client c, List<Call> calls, long seed, String what) throws Exception {
        for (Call call : calls) {
            assertEquals(e.answer(call), c.answer(call), "seed " + seed + ", " + what + ": " + call);
        }
        return calls.size();
    }


    private static void writes(List<Call> calls, String cf, Map<String, String> declared, Random random) {
        for (String k : KEYS) {
            List<Mutation> writes = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                String name = name(random);
                writes.add(new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(
                        column(name, declared.get(name), random))));
            }
            calls.add(new Call("batch_mutate " + k, client -> {
                client.batch_mutate(Map.of(key(k), Map.of(cf, writes)), ONE);
                return "done";
            }));
            String one = name(random);
            Column inserted = column(one, declared.get(one), random);
            calls.add(new Call("insert " + k + " " + one, client -> {
                client.insert(key(k), new ColumnParent(cf), inserted, ONE);
                return "done";
            }));
        }
        calls.add(new Call("a value its validation class refuses", client -> {
            client.insert(key("k0"), new ColumnParent(cf), new Column(ByteBuffer.wrap(utf8(declared.containsKey("age")
                    ? "age" : declared.containsKey("n") ? "n" : "ab"))).setValue(new byte[3]).setTimestamp(1), ONE);
            return "done";
        }));
    }

    private static void removes(List<Call> calls, String cf, Random random) {
        for (String k : KEYS.subList(0, 3)) {
            String name = name(random);
            long timestamp = timestamp(random);
            calls.add(new Call("remove " + k + " " + name + " at " + timestamp, client -> {
                client.remove(key(k), new ColumnPath(cf).setColumn(utf8(name)), timestamp, ONE);
                return "done";
            }));
            SliceRange slice = bounds(random).getSlice_range();
            long sliceTimestamp = timestamp(random);
            calls.add(new Call("delete slice " + k + " " + describe(slice) + " at " + sliceTimestamp, client -> {
                client.batch_mutate(Map.of(key(k), Map.of(cf, List.of(new Mutation().setDeletion(new Deletion()
                        .setTimestamp(sliceTimestamp).setPredicate(new SlicePredicate().setSlice_range(slice)))))),
                        ONE);
                return "done";
            }));
        }
        calls.add(new Call("remove row k3", client -> {
            client.remove(key("k3"), new ColumnPath(cf), 2_000_000, ONE);
            return "done";
        }));
    }

    private static void reads(List<Call> calls, String cf, Random random) {
        ColumnParent parent = new ColumnParent(cf);
        calls.add(new Call("range slices", client -> client.get_range_slices(parent, range("", "", false, 1000),
                new KeyRange(100).setStart_key(new byte[0]).setEnd_key(new byte[0]), ONE)));
        calls.add(new Call("range slices, 2 columns", client -> client.get_range_slices(parent, range("", "", true, 2),
                new KeyRange(100).setStart_key(new byte[0]).setEnd_key(new byte[0]), ONE)));
        for (String k : KEYS) {
            calls.add(new Call("all of " + k, client -> client.get_slice(key(k), parent, range("", "", false, 1000),
                    ONE)));
            calls.add(new Call("all of " + k + " reversed", client -> client.get_slice(key(k), parent,
                    range("", "", true, 5), ONE)));
            calls.add(new Call("count " + k, client -> client.get_count(key(k), parent, range("", "", false, 1000),
                    ONE)));
            ComparedCalls.slicesAndCounts(calls, k, key(k), parent, 15, () -> bounds(random),
                    StaticColumnsOnBothBackendsTest::describe);
            List<ByteBuffer> names = new ArrayList<>();
            for (int i = 0; i < 4; i++) names.add(ByteBuffer.wrap(utf8(name(random))));
            calls.add(new Call("names " + k + " " + names.size(), client -> client.get_slice(key(k), parent,
                    new SlicePredicate().setColumn_names(names), ONE)));
            String one = name(random);
            calls.add(new Call("get " + k + " " + one, client -> client.get(key(k),
                    new ColumnPath(cf).setColumn(utf8(one)), ONE)));
        }
        SlicePredicate some = bounds(random);
        calls.add(new Call("multiget " + describe(some.getSlice_range()), client -> new TreeMap<>(
                client.multiget_slice(KEYS.stream().map(StaticColumnsOnBothBackendsTest::key).toList(), parent, some,
                        ONE))));
    }

    /** A name: declared in some column family, or in none. */
    private static String name(Random random) {
        List<String> declared = List.of("name", "age", "key", "Mixed Case", "ab", "m");
        return random.nextBoolean() ? declared.get(random.nextInt(declared.size()))
                : UNDECLARED.get(random.nextInt(UNDECLARED.size()));
    }

    /** A column with a value its validation class takes, at a random timestamp, now and then with a ttl. */
    private static Column column(String name, String type, Random random) {
        long timestamp = timestamp(random);
        byte[] value = switch (type == null ? "" : type) {
            case "LongType" -> ByteBuffer.allocate(8).putLong(random.nextInt(100)).array();
            case "Int32Type" -> ByteBuffer.allocate(4).putInt(random.nextInt(100)).array();
            default -> utf8("v" + timestamp);
        };
        Column c = new Column(ByteBuffer.wrap(utf8(name))).setValue(value).setTimestamp(timestamp);
        return random.nextInt(4) == 0 ? c.setTtl(3600) : c;
    }

    /** Distinct enough that no two writes of a name share one: how a tie of a ttl and none resolves is not tested. */
    private static long timestamp(Random random) {
        return 1000 + random.nextInt(1_000_000);
    }

    /** Bounds drawn from the names and from texts between them, each now and then open. */
    private static SlicePredicate bounds(Random random) {
        List<String> marks = List.of("", "", "a", "age", "b", "k", "key", "l", "m", "n", "na", "name", "z");
        return range(marks.get(random.nextInt(marks.size())), marks.get(random.nextInt(marks.size())),
                random.nextBoolean(), 1 + random.nextInt(8));
    }

    private static SlicePredicate range(String start, String finish, boolean reversed, int count) {
        return new SlicePredicate().setSlice_range(new SliceRange(ByteBuffer.wrap(utf8(start)),
                ByteBuffer.wrap(utf8(finish)), reversed, count));
    }

    private static String describe(SliceRange r) {
        return new String(r.getStart(), StandardCharsets.UTF_8) + ".." + new String(r.getFinish(),
                StandardCharsets.UTF_8) + (r.isReversed() ? " reversed" : "") + " count " + r.getCount();
    }


    /**
     * Names, values and timestamps; a ttl as whether there is one (the cluster gives the time left); a range scan's
     * rows without columns left out (the cluster lists no row that only tombstones hold, docs/differences.md).
     */
    private static String render(Object answer) {
        StringBuilder s = new StringBuilder();
        if (answer instanceof List<?> list) {
            list.stream().filter(o -> !(o instanceof KeySlice k && k.getColumns().isEmpty()))
                    .forEach(o -> s.append(render(o)).append(' '));
            return "[" + s + "]";
        }
        if (answer instanceof Map<?, ?> map) {
            map.forEach((k, v) -> s.append(render(k)).append('=').append(render(v)).append(' '));
            return "{" + s + "}";
        }
        if (answer instanceof KeySlice k) return HexFormat.of().formatHex(k.getKey()) + "=" + render(k.getColumns());
        Object one = answer instanceof ColumnOrSuperColumn c ? c.getColumn() : answer;
        if (one instanceof Column c) {
            return new String(c.getName(), StandardCharsets.UTF_8) + ":" + HexFormat.of().formatHex(c.getValue()) + "@"
                    + c.getTimestamp() + (c.isSetTtl() ? "+ttl" : "");
        }
        if (one instanceof ByteBuffer b) return StandardCharsets.UTF_8.decode(b.duplicate()).toString();
        return String.valueOf(one);
    }

    private static ByteBuffer key(String k) {
        return ByteBuffer.wrap(utf8(k));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
