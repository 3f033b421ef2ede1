package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.thrift.TException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.Mutation;
import sibyl.iface.v20.NotFoundException;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;
import sibyl.iface.v20.SuperColumn;

/**
 * Ttls and default_time_to_live through a real Cassandra 3.11 and Sibyl, call by call, every answer and every
 * refusal's text compared: the ttls reads answer, which writes take the table's default, the refusals (negative,
 * above 20 years, expiring after 2038, by a column's ttl or a table's default), ties at one timestamp between
 * columns that expire and columns that do not, and describe_keyspace's default_time_to_live. No column here
 * expires while the test runs (the shortest ttl is minutes), so nothing races the clock; expiry itself is tested
 * on Sibyl's own clock (server tests ExpiringColumnTest, Dialect20TtlTest).
 */
class TtlDifferentialIT {
    private static final String KS = "TtlDiff";
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;

    /** One of the keyspace's tables; {@code defaultTtl} 0 for none. */
    private record Table(String name, boolean isSuper, int defaultTtl) {
        CfDef cfDef() {
            CfDef def = new CfDef(KS, name).setColumn_type(isSuper ? "Super" : "Standard").setComparator_type("BytesType")
                    .setKey_validation_class("BytesType").setDefault_validation_class("BytesType").setDefault_time_to_live(defaultTtl);
            return isSuper ? def.setSubcomparator_type("BytesType") : def;
        }

        String xml() {
            return "      <ColumnFamily Name=\"" + name + "\" CompareWith=\"BytesType\""
                    + (isSuper ? " ColumnType=\"Super\" CompareSubcolumnsWith=\"BytesType\"" : "")
                    + (defaultTtl > 0 ? " DefaultTimeToLive=\"" + defaultTtl + "\"" : "") + "/>\n";
        }
    }

    /** Far's default expires after 2038 from any write of today; 3.11 takes it as a default and refuses the writes. */
    private static final List<Table> TABLES = List.of(new Table("S", false, 0), new Table("D", false, 1000),
            new Table("Sup", true, 0), new Table("DSup", true, 500), new Table("Far", false, 400_000_000));

    /** One call of a comparison, made the same way through each server (CounterDifferentialIT's too). */
    interface Call {
        Object on(Cassandra.Client c) throws TException;
    }

    @Test
    void ttlsAreAnsweredAndRefusedAs311Does(@TempDir Path dir) throws Exception {
        Cassandra311Peer c311 = Cassandra311Peer.shared();
        Cassandra.Client reference = c311.client();
        StringBuilder families = new StringBuilder();
        for (Table t : TABLES) families.append(t.xml());
        LocalNode sibyl = LocalNode.configuredBy(dir, Diff07Schema.withKeyspace(
                Files.readString(LocalNode.home().resolve("conf/storage-conf.xml")), KS, families.toString()));
        sibyl.start("sibyl");
        Cassandra.Client subject = Cassandra311Peer.framedClient(Cassandra311DifferentialIT.thriftPort(dir));
        List<String> differences = new ArrayList<>();
        try {
            createKeyspace(reference);
            reference.set_keyspace(KS);
            subject.set_keyspace(KS);
            for (Map.Entry<String, Call> call : calls().entrySet()) {
                String expected = answer(reference, call.getValue());
                String actual = answer(subject, call.getValue());
                System.out.println("TtlDifferentialIT " + call.getKey() + ": " + expected
                        + (expected.equals(actual) ? "" : "\n    Sibyl: " + actual));
                if (!expected.equals(actual)) differences.add(call.getKey() + "\n  3.11:  " + expected + "\n  Sibyl: " + actual);
            }
        } finally {
            Cassandra311Peer.close(reference);
            Cassandra311Peer.close(subject);
            sibyl.stop();
        }
        assertEquals("", String.join("\n", differences), differences.size() + " answers differ from 3.11's");
    }

    /** The calls in the order they run, by a name that says what each checks. */
    private static Map<String, Call> calls() {
        Map<String, Call> calls = new LinkedHashMap<>();
        ColumnParent s = new ColumnParent("S");
        calls.put("01 describe: default_time_to_live", c -> {
            Map<String, Integer> ttls = new TreeMap<>();
            for (CfDef cf : c.describe_keyspace(KS).cf_defs) ttls.put(cf.name, cf.isSetDefault_time_to_live() ? cf.default_time_to_live : -1);
            return ttls;
        });
        for (int ttl : new int[] {-1, 630_720_001, 630_720_000, 400_000_000, 0, 600}) {
            calls.put("02 insert ttl " + ttl, c -> insertAndGet(c, s, "i" + ttl, column("a", "v", 1, ttl)));
        }
        calls.put("03 insert ttl -1 and no value", c -> insertAndGet(c, s, "nv", new Column(b("a")).setTimestamp(1).setTtl(-1)));
        calls.put("03 insert ttl -1 and an empty name", c -> insertAndGet(c, s, "en", column("", "v", 1, -1)));
        calls.put("04 slice, multiget, range with ttls", c -> {
            c.batch_mutate(Map.of(b("r"), Map.of("S", List.of(write(column("x", "v", 1, 700)), write(column("y", "v", 1, null))))), ONE);
            return c.get_slice(b("r"), s, all(), ONE) + " " + byKey(c.multiget_slice(List.of(b("r"), b("i600")), s, all(), ONE))
                    + " " + c.get_range_slices(s, all(), new KeyRange(100).setStart_key(b("")).setEnd_key(b("")), ONE).size();
        });
        calls.put("05 D insert without ttl", c -> insertAndGet(c, new ColumnParent("D"), "d1", column("a", "v", 1, null)));
        calls.put("05 D insert ttl 0", c -> insertAndGet(c, new ColumnParent("D"), "d2", column("a", "v", 1, 0)));
        calls.put("05 D insert ttl 700", c -> insertAndGet(c, new ColumnParent("D"), "d3", column("a", "v", 1, 700)));
        calls.put("05 D batch without ttl", c -> {
            c.batch_mutate(Map.of(b("d4"), Map.of("D", List.of(write(column("a", "v", 1, null))))), ONE);
            return c.get_slice(b("d4"), new ColumnParent("D"), all(), ONE);
        });
        calls.put("05 DSup insert without ttl", c -> insertAndGet(c, new ColumnParent("DSup").setSuper_column(b("sc")), "ds1",
                column("a", "v", 1, null)));
        calls.put("05 DSup batch without ttl", c -> {
            c.batch_mutate(Map.of(b("ds2"), Map.of("DSup", List.of(superWrite("sc", column("a", "v", 1, null))))), ONE);
            return c.get_slice(b("ds2"), new ColumnParent("DSup"), all(), ONE);
        });
        calls.put("05 Sup insert ttl 900", c -> insertAndGet(c, new ColumnParent("Sup").setSuper_column(b("sc")), "s1",
                column("a", "v", 1, 900)));
        calls.put("06 batch ttl -5", c -> batch(c, "S", write(column("a", "v", 1, -5))));
        calls.put("06 batch ttl 700000000", c -> batch(c, "S", write(column("a", "v", 1, 700_000_000))));
        calls.put("06 batch ttl 400000000", c -> batch(c, "S", write(column("a", "v", 1, 400_000_000))));
        calls.put("06 batch of a super column ttl -5", c -> batch(c, "Sup", superWrite("sc", column("a", "v", 1, -5))));
        calls.put("06 batch of a super column ttl 400000000", c -> batch(c, "Sup", superWrite("sc", column("a", "v", 1, 400_000_000))));
        calls.put("07 Far insert without ttl", c -> insertAndGet(c, new ColumnParent("Far"), "f1", column("a", "v", 1, null)));
        calls.put("07 Far batch without ttl", c -> batch(c, "Far", write(column("a", "v", 1, null))));
        calls.put("07 Far insert ttl 0", c -> insertAndGet(c, new ColumnParent("Far"), "f2", column("a", "v", 1, 0)));
        calls.put("07 Far insert ttl 800", c -> insertAndGet(c, new ColumnParent("Far"), "f3", column("a", "v", 1, 800)));
        calls.put("08 tie: lasting z, then expiring a", c -> tie(c, "t1", column("a", "z", 5, null), column("a", "a", 5, 600)));
        calls.put("08 tie: expiring a, then lasting z", c -> tie(c, "t2", column("a", "a", 5, 600), column("a", "z", 5, null)));
        calls.put("08 tie: expiring z, then lasting a", c -> tie(c, "t3", column("a", "z", 5, 600), column("a", "a", 5, null)));
        calls.put("08 tie: expiring z 600, then expiring a 1200", c -> tie(c, "t4", column("a", "z", 5, 600), column("a", "a", 5, 1200)));
        calls.put("08 tie: lasting v, then expiring v", c -> tie(c, "t5", column("a", "v", 5, null), column("a", "v", 5, 600)));
        calls.put("08 tie: expiring v, then a deletion", c -> {
            c.insert(b("t6"), s, column("a", "v", 5, 600), ONE);
            c.remove(b("t6"), new ColumnPath("S").setColumn(b("a")), 5, ONE);
            return c.get_slice(b("t6"), s, all(), ONE);
        });
        calls.put("08 tie: expiring v, then lasting v", c -> tie(c, "t7", column("a", "v", 5, 600), column("a", "v", 5, null)));
        calls.put("08 tie: expiring v 600, then expiring v 1200", c -> tie(c, "t8", column("a", "v", 5, 600), column("a", "v", 5, 1200)));
        calls.put("08 tie: expiring v 1200, then expiring v 600", c -> tie(c, "t9", column("a", "v", 5, 1200), column("a", "v", 5, 600)));
        calls.put("09 counts with ttls", c -> c.get_count(b("r"), s, all(), ONE) + " "
                + byKey(c.multiget_count(List.of(b("r"), b("t1")), s, all(), ONE)));
        return calls;
    }

    /** A multiget's answer by its keys as text, in their order: ByteBuffer keys print their positions. */
    static Map<String, ?> byKey(Map<ByteBuffer, ?> answer) {
        Map<String, Object> byKey = new TreeMap<>();
        answer.forEach((k, v) -> byKey.put(StandardCharsets.UTF_8.decode(k.duplicate()).toString(), v));
        return byKey;
    }

    private static Object insertAndGet(Cassandra.Client c, ColumnParent parent, String key, Column column) throws TException {
        c.insert(b(key), parent, column, ONE);
        return c.get_slice(b(key), parent, all(), ONE);
    }

    private static Object batch(Cassandra.Client c, String table, Mutation m) throws TException {
        c.batch_mutate(Map.of(b("b"), Map.of(table, List.of(m))), ONE);
        return c.get_slice(b("b"), new ColumnParent(table), all(), ONE);
    }

    private static Object tie(Cassandra.Client c, String key, Column first, Column second) throws TException {
        c.insert(b(key), new ColumnParent("S"), first, ONE);
        c.insert(b(key), new ColumnParent("S"), second, ONE);
        return c.get(b(key), new ColumnPath("S").setColumn(b("a")), ONE);
    }

    /** The call's answer, or its exception and what it says. */
    static String answer(Cassandra.Client client, Call call) {
        try {
            return String.valueOf(call.on(client));
        } catch (InvalidRequestException e) {
            return "InvalidRequestException: " + e.getWhy();
        } catch (NotFoundException e) {
            return "NotFoundException";
        } catch (TException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    private static Column column(String name, String value, long timestamp, Integer ttl) {
        Column c = new Column(b(name)).setValue(b(value)).setTimestamp(timestamp);
        return ttl == null ? c : c.setTtl(ttl);
    }

    private static Mutation write(Column c) {
        return new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(c));
    }

    private static Mutation superWrite(String superColumn, Column c) {
        return new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setSuper_column(new SuperColumn(b(superColumn), List.of(c))));
    }

    private static SlicePredicate all() {
        return new SlicePredicate().setSlice_range(new SliceRange(b(""), b(""), false, 100));
    }

    private static ByteBuffer b(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    /** Makes the keyspace in 3.11 anew: a node shared by the run may have it from a run before. */
    private static void createKeyspace(Cassandra.Client c) throws TException {
        List<CfDef> defs = new ArrayList<>();
        for (Table t : TABLES) defs.add(t.cfDef());
        Cassandra311Peer.recreateKeyspace(c, KS, defs);
    }
}
