package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.thrift.TException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.client.it.TtlDifferentialIT.Call;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.CounterColumn;
import sibyl.iface.v20.CounterSuperColumn;
import sibyl.iface.v20.Deletion;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.KsDef;
import sibyl.iface.v20.Mutation;
import sibyl.iface.v20.NotFoundException;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;

/**
 * Counters through a real Cassandra 3.11 and Sibyl, every answer and every refusal's text compared: first a fixed
 * list of calls (increments and decrements, every read call, batch_mutate with counter mutations and deletions,
 * remove_counter and what an add after it does, and the refusals of writes that do not fit the table), then a
 * random run of adds, removes and reads over a few rows of a standard and a super counter table. Both keyspaces are
 * made by system_add_keyspace; the storage-conf.xml path is tested by the server's CounterColumnFamilyTest.
 */
class CounterDifferentialIT {
    private static final String KS = "CounterDiff";
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;
    private static final String COUNTER = "org.apache.cassandra.db.marshal.CounterColumnType";
    /**
     * The random run's seed in cluster mode under CI (checked to pass), as Cassandra311DifferentialIT fixes its own:
     * CI fails for a change of Sibyl's, not for a fresh seed meeting a fault of 3.11's or Cassandra 5's.
     */
    private static final long CI_CLUSTER_SEED = 3793683951543600321L;

    @Test
    void countersAreAnsweredAndRefusedAs311Does(@TempDir Path dir) throws Exception {
        compare(dir, null);
    }

    /**
     * The same with Sibyl in cluster mode, its counter tables Cassandra 5's ({@link Cassandra5Node}): there an add
     * after a deletion of its row or super column answers as 3.11 does (KNOWN_DIFFERENCES are not set apart), but a
     * range scan leaves out a row of removed counters ({@link #KNOWN_IN_CLUSTER_MODE}).
     */
    @Test
    void countersInClusterModeAreAnsweredAndRefusedAs311Does(@TempDir Path dir) throws Exception {
        compare(dir, Cassandra5Node.shared());
    }

    /** @param cluster where Sibyl stores, or null for its embedded engine */
    private static void compare(Path dir, Cassandra5Node cluster) throws Exception {
        Cassandra311Peer c311 = Cassandra311Peer.shared();
        Cassandra.Client reference = c311.client();
        String conf = java.nio.file.Files.readString(LocalNode.home().resolve("conf/storage-conf.xml"));
        LocalNode sibyl = LocalNode.configuredBy(dir, cluster == null ? conf
                : cluster.inCluster(conf, "cd_" + ProcessHandle.current().pid() + "_"));
        sibyl.start("sibyl");
        Map<String, java.util.function.UnaryOperator<String>> known = cluster == null ? KNOWN_DIFFERENCES
                : KNOWN_IN_CLUSTER_MODE;
        Cassandra.Client subject = Cassandra311Peer.framedClient(Cassandra311DifferentialIT.thriftPort(dir));
        List<String> differences = new ArrayList<>();
        try {
            compare("00 create the keyspace", c -> {
                createKeyspace(c);
                c.set_keyspace(KS);
                return "created";
            }, reference, subject, differences, known);
            for (Map.Entry<String, Call> call : calls().entrySet()) {
                compare(call.getKey(), call.getValue(), reference, subject, differences, known);
            }
            long seed = Long.getLong("sibyl.counters.seed", cluster != null && "true".equals(System.getenv("CI"))
                    ? CI_CLUSTER_SEED : new Random().nextLong());
            System.out.println("CounterDifferentialIT random run, seed " + seed + " (-Dsibyl.counters.seed to repeat)");
            Random random = new Random(seed);
            for (int i = 0; i < 400 && differences.size() < 10; i++) {
                compare("random " + i, randomCall(random), reference, subject, differences, known);
            }
            compare("random: the rows at the end", c -> rangeOf(c, "RC") + " " + rangeOf(c, "RSup"), reference, subject,
                    differences, known);
        } finally {
            Cassandra311Peer.close(reference);
            Cassandra311Peer.close(subject);
            sibyl.stop();
        }
        assertEquals("", String.join("\n", differences), differences.size() + " answers differ from 3.11's");
    }

    private static void compare(String name, Call call, Cassandra.Client reference, Cassandra.Client subject,
                                List<String> differences, Map<String, java.util.function.UnaryOperator<String>> known) {
        String answer311 = TtlDifferentialIT.answer(reference, call);
        String expected = known.getOrDefault(name, a -> a).apply(answer311);
        String actual = TtlDifferentialIT.answer(subject, call);
        if (!expected.equals(answer311)) System.out.println("CounterDifferentialIT " + name + ": 3.11 answers " + answer311);
        System.out.println("CounterDifferentialIT " + name + ": " + expected + (expected.equals(actual) ? "" : "\n    Sibyl: " + actual));
        if (!expected.equals(actual)) differences.add(name + "\n  3.11:  " + expected + "\n  Sibyl: " + actual);
    }

    /**
     * What Sibyl answers where it differs from 3.11 on purpose (docs/differences.md §The 0.7+ dialect), from 3.11's
     * answer: an add after a deletion of the counter's row or super column counts from zero, where 3.11 adds to
     * the count from before the deletion (its counter cache still holds it).
     */
    private static final Map<String, java.util.function.UnaryOperator<String>> KNOWN_DIFFERENCES = Map.of(
            "07 remove_counter of a row, then add again", a -> a.replace("value:7", "value:2"),
            "08 remove_counter of a super column and of a subcolumn, then add again",
            a -> a.substring(0, a.lastIndexOf("value:3")) + "value:2" + a.substring(a.lastIndexOf("value:3") + 7));

    /**
     * What Sibyl in cluster mode answers where it differs from 3.11 on purpose: a row whose counters are all removed
     * is not listed by get_range_slices, where 3.11 lists it with no columns (docs/differences.md §Cluster mode).
     */
    private static final Map<String, java.util.function.UnaryOperator<String>> KNOWN_IN_CLUSTER_MODE = Map.of(
            "random: the rows at the end", a -> a.replaceAll("KeySlice\\(key:[0-9a-f ]*, columns:\\[\\]\\)(, )?", "")
                    .replace(", ]", "]"));

    /** The calls in the order they run, by a name that says what each checks. */
    private static Map<String, Call> calls() {
        Map<String, Call> calls = new LinkedHashMap<>();
        ColumnParent c = new ColumnParent("C");
        ColumnParent sup = new ColumnParent("CSup");
        calls.put("01 describe: the counter tables", cl -> {
            Map<String, String> types = new TreeMap<>();
            for (CfDef cf : cl.describe_keyspace(KS).cf_defs) types.put(cf.name, cf.column_type + " " + cf.default_validation_class);
            return types;
        });
        calls.put("02 add, add a decrement, get", cl -> {
            cl.add(b("k1"), c, counter("a", 5), ONE);
            cl.add(b("k1"), c, counter("a", -2), ONE);
            cl.add(b("k1"), c, counter("b", 0), ONE);
            return cl.get(b("k1"), new ColumnPath("C").setColumn(b("a")), ONE) + " " + cl.get_slice(b("k1"), c, all(), ONE);
        });
        calls.put("03 reads: count, multiget, range, paged, names, multi slice", cl -> {
            cl.add(b("k2"), c, counter("a", 7), ONE);
            cl.add(b("k2"), c, counter("c", Long.MAX_VALUE), ONE);
            cl.add(b("k2"), c, counter("c", 1), ONE);
            return cl.get_count(b("k1"), c, all(), ONE) + " " + TtlDifferentialIT.byKey(cl.multiget_slice(List.of(b("k1"), b("k2")), c, all(), ONE))
                    + " " + TtlDifferentialIT.byKey(cl.multiget_count(List.of(b("k1"), b("k2")), c, all(), ONE))
                    + " " + cl.get_range_slices(c, all(), new KeyRange(100).setStart_key(b("")).setEnd_key(b("")), ONE).size()
                    + " " + cl.get_paged_slice("C", new KeyRange(100).setStart_key(b("")).setEnd_key(b("")), b(""), ONE).size()
                    + " " + cl.get_slice(b("k2"), c, new SlicePredicate().setColumn_names(List.of(b("c"), b("z"))), ONE);
        });
        calls.put("04 add to a super table, get the super column and a subcolumn", cl -> {
            cl.add(b("s1"), new ColumnParent("CSup").setSuper_column(b("x")), counter("a", 3), ONE);
            cl.add(b("s1"), new ColumnParent("CSup").setSuper_column(b("x")), counter("a", 4), ONE);
            cl.add(b("s1"), new ColumnParent("CSup").setSuper_column(b("y")), counter("b", -1), ONE);
            return cl.get(b("s1"), new ColumnPath("CSup").setSuper_column(b("x")), ONE) + " "
                    + cl.get(b("s1"), new ColumnPath("CSup").setSuper_column(b("y")).setColumn(b("b")), ONE) + " "
                    + cl.get_slice(b("s1"), sup, all(), ONE) + " "
                    + cl.get_slice(b("s1"), new ColumnParent("CSup").setSuper_column(b("x")), all(), ONE) + " "
                    + cl.get_count(b("s1"), sup, all(), ONE);
        });
        calls.put("05 batch_mutate: counter columns, counter super columns", cl -> {
            cl.batch_mutate(Map.of(b("bm"), Map.of("C", List.of(counterWrite("a", 2), counterWrite("a", 3), counterWrite("b", 1)),
                    "CSup", List.of(new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setCounter_super_column(
                            new CounterSuperColumn(b("x"), List.of(counter("p", 9), counter("q", -9)))))))), ONE);
            return cl.get_slice(b("bm"), c, all(), ONE) + " " + cl.get_slice(b("bm"), sup, all(), ONE);
        });
        calls.put("06 remove_counter of a column, then add again", cl -> {
            cl.add(b("r1"), c, counter("a", 5), ONE);
            cl.add(b("r1"), c, counter("b", 5), ONE);
            cl.remove_counter(b("r1"), new ColumnPath("C").setColumn(b("a")), ONE);
            String removed = cl.get_slice(b("r1"), c, all(), ONE).toString();
            cl.add(b("r1"), c, counter("a", 2), ONE);
            return removed + " " + cl.get_slice(b("r1"), c, all(), ONE);
        });
        calls.put("07 remove_counter of a row, then add again", cl -> {
            cl.add(b("r2"), c, counter("a", 5), ONE);
            cl.remove_counter(b("r2"), new ColumnPath("C"), ONE);
            String removed = cl.get_slice(b("r2"), c, all(), ONE).toString();
            cl.add(b("r2"), c, counter("a", 2), ONE);
            return removed + " " + cl.get_slice(b("r2"), c, all(), ONE);
        });
        calls.put("08 remove_counter of a super column and of a subcolumn, then add again", cl -> {
            ColumnParent x = new ColumnParent("CSup").setSuper_column(b("x"));
            cl.add(b("r3"), x, counter("a", 5), ONE);
            cl.add(b("r3"), x, counter("b", 5), ONE);
            cl.add(b("r3"), new ColumnParent("CSup").setSuper_column(b("y")), counter("a", 1), ONE);
            cl.remove_counter(b("r3"), new ColumnPath("CSup").setSuper_column(b("x")).setColumn(b("a")), ONE);
            String one = cl.get_slice(b("r3"), sup, all(), ONE).toString();
            cl.remove_counter(b("r3"), new ColumnPath("CSup").setSuper_column(b("y")), ONE);
            String two = cl.get_slice(b("r3"), sup, all(), ONE).toString();
            cl.add(b("r3"), x, counter("a", 2), ONE);
            cl.add(b("r3"), new ColumnParent("CSup").setSuper_column(b("y")), counter("a", 2), ONE);
            return one + " " + two + " " + cl.get_slice(b("r3"), sup, all(), ONE);
        });
        calls.put("09 batch_mutate deletion of counters, no timestamp", cl -> {
            cl.add(b("bd"), c, counter("a", 1), ONE);
            cl.add(b("bd"), c, counter("b", 1), ONE);
            cl.batch_mutate(Map.of(b("bd"), Map.of("C", List.of(new Mutation().setDeletion(new Deletion()
                    .setPredicate(new SlicePredicate().setColumn_names(List.of(b("a")))))))), ONE);
            return cl.get_slice(b("bd"), c, all(), ONE);
        });
        calls.put("09 batch_mutate deletion of a counter row with a timestamp", cl -> {
            cl.add(b("be"), c, counter("a", 1), ONE);
            cl.batch_mutate(Map.of(b("be"), Map.of("C", List.of(new Mutation().setDeletion(new Deletion().setTimestamp(5))))), ONE);
            return cl.get_slice(b("be"), c, all(), ONE);
        });
        calls.put("09 batch_mutate deletion of a counter slice range", cl -> {
            cl.add(b("bf"), c, counter("a", 1), ONE);
            cl.batch_mutate(Map.of(b("bf"), Map.of("C", List.of(new Mutation().setDeletion(new Deletion()
                    .setPredicate(all()))))), ONE);
            return cl.get_slice(b("bf"), c, all(), ONE);
        });
        calls.put("09 batch_mutate deletion of a counter row at a far timestamp, then add", cl -> {
            cl.add(b("bg"), c, counter("a", 1), ONE);
            cl.batch_mutate(Map.of(b("bg"), Map.of("C", List.of(new Mutation().setDeletion(new Deletion().setTimestamp(Long.MAX_VALUE / 2))))), ONE);
            String deleted = cl.get_slice(b("bg"), c, all(), ONE).toString();
            cl.add(b("bg"), c, counter("b", 1), ONE);
            return deleted + " " + cl.get_slice(b("bg"), c, all(), ONE);
        });
        calls.put("10 get of a missing counter", cl -> cl.get(b("k1"), new ColumnPath("C").setColumn(b("zz")), ONE));
        calls.put("11 add to a table that is not a counter table", cl -> add(cl, "k", new ColumnParent("S"), counter("a", 1)));
        calls.put("11 insert into a counter table", cl -> {
            cl.insert(b("k"), c, new Column(b("a")).setValue(b("v")).setTimestamp(1), ONE);
            return cl.get_slice(b("k"), c, all(), ONE);
        });
        calls.put("11 batch_mutate a column into a counter table", cl -> batch(cl, "C",
                new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(new Column(b("a")).setValue(b("v")).setTimestamp(1)))));
        calls.put("11 batch_mutate a counter into a table that is not one", cl -> batch(cl, "S", counterWrite("a", 1)));
        calls.put("11 batch_mutate a counter super column into a standard counter table", cl -> batch(cl, "C",
                new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setCounter_super_column(
                        new CounterSuperColumn(b("x"), List.of(counter("p", 9)))))));
        calls.put("11 batch_mutate a counter column into a super counter table", cl -> batch(cl, "CSup", counterWrite("a", 1)));
        calls.put("11 batch_mutate a counter and a column in one", cl -> batch(cl, "C", new Mutation().setColumn_or_supercolumn(
                new ColumnOrSuperColumn().setCounter_column(counter("a", 1)).setColumn(new Column(b("a")).setValue(b("v")).setTimestamp(1)))));
        calls.put("11 batch_mutate a counter with a deletion in one", cl -> batch(cl, "C", counterWrite("a", 1).setDeletion(new Deletion())));
        calls.put("11 batch_mutate to a counter table and to another in one", cl -> {
            cl.batch_mutate(Map.of(b("mix"), Map.of("C", List.of(counterWrite("a", 1)), "S", List.of(new Mutation().setColumn_or_supercolumn(
                    new ColumnOrSuperColumn().setColumn(new Column(b("a")).setValue(b("v")).setTimestamp(1)))))), ONE);
            return cl.get_slice(b("mix"), c, all(), ONE) + " " + cl.get_slice(b("mix"), new ColumnParent("S"), all(), ONE);
        });
        calls.put("12 add to a super table without a super column", cl -> add(cl, "k", sup, counter("a", 1)));
        calls.put("12 add to a standard table with a super column", cl -> add(cl, "k", new ColumnParent("C").setSuper_column(b("x")), counter("a", 1)));
        calls.put("12 add of an empty name", cl -> add(cl, "k", c, counter("", 1)));
        calls.put("12 add with an empty key", cl -> add(cl, "", c, counter("a", 1)));
        calls.put("12 add to a missing table", cl -> add(cl, "k", new ColumnParent("Nope"), counter("a", 1)));
        calls.put("12 add at ANY", cl -> {
            cl.add(b("any"), c, counter("a", 1), ConsistencyLevel.ANY);
            return cl.get_slice(b("any"), c, all(), ONE);
        });
        calls.put("12 add at ALL", cl -> {
            cl.add(b("all"), c, counter("a", 1), ConsistencyLevel.ALL);
            return cl.get_slice(b("all"), c, all(), ONE);
        });
        calls.put("12 add at SERIAL", cl -> add(cl, "k", c, counter("a", 1), ConsistencyLevel.SERIAL));
        calls.put("12 add with a name LongType refuses", cl -> add(cl, "k", new ColumnParent("CLong"), counter("abc", 1)));
        calls.put("13 remove on a counter table", cl -> {
            cl.remove(b("k1"), new ColumnPath("C").setColumn(b("a")), 10, ONE);
            return cl.get_slice(b("k1"), c, all(), ONE);
        });
        calls.put("13 remove_counter on a table that is not a counter table", cl -> {
            cl.remove_counter(b("k1"), new ColumnPath("S").setColumn(b("a")), ONE);
            return "done";
        });
        calls.put("13 remove_counter of a missing table", cl -> {
            cl.remove_counter(b("k1"), new ColumnPath("Nope").setColumn(b("a")), ONE);
            return "done";
        });
        calls.put("13 remove_counter at ANY", cl -> {
            cl.remove_counter(b("k2"), new ColumnPath("C").setColumn(b("a")), ConsistencyLevel.ANY);
            return cl.get_slice(b("k2"), c, all(), ONE);
        });
        calls.put("14 add a counter table with a default ttl", cl -> cl.system_add_column_family(
                new CfDef(KS, "CTtl").setDefault_validation_class(COUNTER).setDefault_time_to_live(100)) != null);
        calls.put("14 add a table with a counter column among plain ones", cl -> cl.system_add_column_family(
                new CfDef(KS, "Mixed").setColumn_metadata(List.of(new sibyl.iface.v20.ColumnDef(b("n"), COUNTER)))) != null);
        calls.put("14 update a counter table to a plain one", cl -> cl.system_update_column_family(
                cfDef("C", false).setDefault_validation_class("BytesType")) != null);
        calls.put("14 update a plain table to a counter one", cl -> cl.system_update_column_family(
                new CfDef(KS, "S").setDefault_validation_class(COUNTER)) != null);
        return calls;
    }

    /**
     * One random call on rows r0..r3 of RC and RSup: an add, a remove_counter of one counter, or a read. No deletion
     * of a row or super column: an add after one is where Sibyl differs on purpose (KNOWN_DIFFERENCES).
     */
    private static Call randomCall(Random random) {
        String key = "r" + random.nextInt(4);
        String name = String.valueOf((char) ('a' + random.nextInt(4)));
        String superName = "s" + random.nextInt(2);
        boolean isSuper = random.nextBoolean();
        ColumnParent parent = isSuper ? new ColumnParent("RSup").setSuper_column(b(superName)) : new ColumnParent("RC");
        int op = random.nextInt(20);
        long delta = random.nextInt(2001) - 1000;
        if (op < 12) return cl -> add(cl, key, parent, counter(name, delta));
        if (op == 12) return cl -> {
            cl.remove_counter(b(key), new ColumnPath(parent.column_family).setSuper_column(parent.super_column).setColumn(b(name)), ONE);
            return "removed";
        };
        if (op == 14) return cl -> {
            cl.batch_mutate(Map.of(b(key), Map.of(parent.column_family, List.of(isSuper
                    ? new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setCounter_super_column(
                    new CounterSuperColumn(b(superName), List.of(counter(name, delta)))))
                    : counterWrite(name, delta)))), ONE);
            return cl.get_slice(b(key), new ColumnParent(parent.column_family), all(), ONE);
        };
        if (op == 15) return cl -> cl.get(b(key), new ColumnPath(parent.column_family).setSuper_column(parent.super_column).setColumn(b(name)), ONE);
        if (op == 16) return cl -> TtlDifferentialIT.byKey(cl.multiget_count(List.of(b("r0"), b("r1"), b("r2"), b("r3")), new ColumnParent(parent.column_family), all(), ONE));
        return cl -> cl.get_slice(b(key), parent, all(), ONE);
    }

    private static Object add(Cassandra.Client cl, String key, ColumnParent parent, CounterColumn counter) throws TException {
        return add(cl, key, parent, counter, ONE);
    }

    private static Object add(Cassandra.Client cl, String key, ColumnParent parent, CounterColumn counter, ConsistencyLevel level)
            throws TException {
        cl.add(b(key), parent, counter, level);
        return cl.get_slice(b(key), new ColumnParent(parent.column_family), all(), ONE);
    }

    private static Object batch(Cassandra.Client cl, String table, Mutation m) throws TException {
        cl.batch_mutate(Map.of(b("b"), Map.of(table, List.of(m))), ONE);
        return cl.get_slice(b("b"), new ColumnParent(table), all(), ONE);
    }

    private static String rangeOf(Cassandra.Client cl, String table) throws TException {
        return String.valueOf(cl.get_range_slices(new ColumnParent(table), all(),
                new KeyRange(100).setStart_key(b("")).setEnd_key(b("")), ONE));
    }

    private static CounterColumn counter(String name, long value) {
        return new CounterColumn(b(name), value);
    }

    private static Mutation counterWrite(String name, long value) {
        return new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setCounter_column(counter(name, value)));
    }

    private static SlicePredicate all() {
        return new SlicePredicate().setSlice_range(new SliceRange(b(""), b(""), false, 100));
    }

    private static ByteBuffer b(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static CfDef cfDef(String name, boolean isSuper) {
        CfDef def = new CfDef(KS, name).setColumn_type(isSuper ? "Super" : "Standard").setComparator_type("BytesType")
                .setKey_validation_class("BytesType").setDefault_validation_class(COUNTER);
        return isSuper ? def.setSubcomparator_type("BytesType") : def;
    }

    /** Makes the keyspace anew: a node shared by the run may have it from a run before. */
    private static void createKeyspace(Cassandra.Client c) throws TException {
        try {
            c.describe_keyspace(KS);
            c.system_drop_keyspace(KS);
        } catch (NotFoundException absent) {
            // the usual case: a fresh node
        }
        List<CfDef> defs = new ArrayList<>(List.of(cfDef("C", false), cfDef("CSup", true), cfDef("RC", false), cfDef("RSup", true),
                cfDef("CLong", false).setComparator_type("LongType"),
                new CfDef(KS, "S").setComparator_type("BytesType").setKey_validation_class("BytesType").setDefault_validation_class("BytesType")));
        c.system_add_keyspace(new KsDef(KS, "org.apache.cassandra.locator.SimpleStrategy", defs)
                .setStrategy_options(Map.of("replication_factor", "1")));
    }
}
