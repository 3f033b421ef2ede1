package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.iface.v20.CASResult;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.NotFoundException;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;

/**
 * cas through a real Cassandra 3.11 and Sibyl, call by call, every answer and every refusal's text compared, and the
 * row each cas leaves read back: hand-picked calls (what an empty {@code expected} means, expected columns missing,
 * null or empty, current_values on failure, the timestamps and ttls cas writes, consistency levels, every refusal)
 * and random runs of cas mixed with plain writes and deletions. cas writes at the server's own clock, so a timestamp
 * beyond 10^15 microseconds prints as {@code now}; the plain writes use timestamps far below or far above it.
 */
class CasDifferentialIT {
    private static final String KS = "CasDiff";
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;
    private static final ConsistencyLevel SERIAL = ConsistencyLevel.SERIAL;
    /** A plain write's timestamp that wins against any cas of this century. */
    private static final long FUTURE = 4_000_000_000_000_000L;
    private static final long[] SEEDS = {1L, 34L, 20_1_0L};

    private static final String CLOSED = "connection closed";

    /**
     * The calls on which 3.11 fails inside (it closes the connection), and Sibyl's answer instead
     * (docs/differences.md §The 0.7+ dialect): a name or value of an expected column its comparator or validator
     * does not take is refused as an update's would be, and an absent list is an empty one.
     */
    private static final Map<String, String> WHERE_311_FAILS = Map.of(
            "07 a LongType name of 3 bytes in expected", "InvalidRequestException: Expected 8 or 0 byte long (3)",
            "08 value validation in expected", "InvalidRequestException: (Expected 8 or 0 byte long (3)) [CasDiff][V][61] failed validation",
            "12 no expected list", "CASResult(true, null) then [a=1@now]",
            "12 no updates list", "CASResult(true, null) then [a=1@now]",
            "12 no updates list, nothing expected", "CASResult(true, null) then []");

    private interface Call {
        Object on(Cassandra.Client c) throws TException;
    }

    @Test
    void casIsAnsweredAs311AnswersIt(@TempDir Path dir) throws Exception {
        compare(dir, null);
    }

    /**
     * The same with Sibyl in cluster mode on a Cassandra 5 node ({@link Cassandra5Node}), every timestamp left out
     * of the comparison and every ttl rounded to ten seconds: there a cas rewrites the expected columns it does not
     * update, at its ballot's time, and a read tells the time a column has left (docs/differences.md §The 0.7+
     * dialect).
     */
    @Test
    void casInClusterModeIsAnsweredAs311AnswersIt(@TempDir Path dir) throws Exception {
        compare(dir, Cassandra5Node.shared());
    }

    /** @param cluster where Sibyl stores, or null for its embedded engine */
    private static void compare(Path dir, Cassandra5Node cluster) throws Exception {
        Cassandra311Peer c311 = Cassandra311Peer.shared();
        String conf = Files.readString(LocalNode.home().resolve("conf/storage-conf.xml"));
        LocalNode sibyl = LocalNode.configuredBy(dir, cluster == null ? conf
                : cluster.inCluster(conf, "cas_" + ProcessHandle.current().pid() + "_"));
        sibyl.start("sibyl");
        V20Server reference = new V20Server("3.11", c311.thriftPort(), KS);
        V20Server subject = new V20Server("Sibyl", Cassandra311DifferentialIT.thriftPort(dir), KS);
        List<String> differences = new ArrayList<>();
        try {
            createKeyspace(reference.client());
            createKeyspace(subject.client());
            reference.client().set_keyspace(KS);
            subject.client().set_keyspace(KS);
            Map<String, Call> calls = handPicked();
            for (long seed : seeds()) calls.putAll(random(seed));
            for (Map.Entry<String, Call> call : calls.entrySet()) {
                String expected = answer(reference, call.getValue());
                String actual = answer(subject, call.getValue());
                String instead = WHERE_311_FAILS.get(call.getKey());
                if (cluster != null) {
                    expected = withoutTimes(expected);
                    actual = withoutTimes(actual);
                    instead = instead == null ? null : withoutTimes(instead);
                }
                if (instead != null && expected.equals(CLOSED)) {
                    // 3.11 fails inside (and closes the connection); Sibyl answers as docs/differences.md says.
                    System.out.println("CasDifferentialIT " + call.getKey() + ": 3.11 fails, Sibyl: " + actual);
                    if (!instead.equals(actual)) differences.add(call.getKey() + "\n  expected: " + instead + "\n  Sibyl: " + actual);
                    continue;
                }
                System.out.println("CasDifferentialIT " + call.getKey() + ": " + expected
                        + (expected.equals(actual) ? "" : "\n    Sibyl: " + actual));
                if (!expected.equals(actual)) differences.add(call.getKey() + "\n  3.11:  " + expected + "\n  Sibyl: " + actual);
            }
        } finally {
            reference.close();
            subject.close();
            sibyl.stop();
        }
        assertEquals("", String.join("\n", differences), differences.size() + " answers differ from 3.11's");
    }

    private static final Pattern TIMESTAMP = Pattern.compile("@(now|-|\\d+)");
    private static final Pattern TTL = Pattern.compile("\\[(\\d+)]");

    /** An answer without its columns' timestamps, and with their ttls rounded to ten seconds. */
    private static String withoutTimes(String answer) {
        String untimed = TIMESTAMP.matcher(answer).replaceAll("");
        return TTL.matcher(untimed).replaceAll(m -> "[~" + (Integer.parseInt(m.group(1)) + 5) / 10 * 10 + "]");
    }

    /** The fixed seeds, and one more from -Dcas.seed to retry a run. */
    private static List<Long> seeds() {
        List<Long> seeds = new ArrayList<>();
        for (long s : SEEDS) seeds.add(s);
        String more = System.getProperty("cas.seed");
        if (more != null && !more.isBlank()) seeds.add(Long.parseLong(more.trim()));
        return seeds;
    }

    /** The calls in the order they run, by a name that says what each checks. */
    private static Map<String, Call> handPicked() {
        Map<String, Call> calls = new LinkedHashMap<>();
        calls.put("01 absent row, nothing expected", c -> casAndRow(c, "S", "r1", List.of(), List.of(col("b", "1", 5), col("a", "2", 5))));
        calls.put("01 the row exists now, nothing expected", c -> casAndRow(c, "S", "r1", List.of(), List.of(col("c", "3", 5))));
        calls.put("02 expected matches", c -> casAndRow(c, "S", "r1", List.of(col("a", "2", 0)), List.of(col("a", "4", 7), col("d", "5", 7))));
        calls.put("02 expected differs", c -> casAndRow(c, "S", "r1", List.of(col("a", "2", 0)), List.of(col("a", "6", 7))));
        calls.put("02 expected two, one differs", c -> casAndRow(c, "S", "r1", List.of(col("d", "5", 0), col("a", "9", 0)), List.of(col("e", "6", 7))));
        calls.put("02 expected two in reverse order, both match", c -> casAndRow(c, "S", "r1", List.of(col("d", "5", 0), col("a", "4", 0)), List.of(col("e", "6", 7))));
        calls.put("03 expected a missing column", c -> casAndRow(c, "S", "r1", List.of(col("zz", "1", 0)), List.of(col("f", "7", 7))));
        calls.put("03 expected a missing and a matching column", c -> casAndRow(c, "S", "r1", List.of(col("a", "4", 0), col("zz", "1", 0)), List.of(col("f", "7", 7))));
        calls.put("03 expected on an absent row", c -> casAndRow(c, "S", "r2", List.of(col("a", "1", 0)), List.of(col("f", "7", 7))));
        calls.put("03 expected an empty value of a missing column", c -> casAndRow(c, "S", "r1", List.of(col("zz", "", 0)), List.of(col("f", "7", 7))));
        calls.put("03 expected an empty value of a present column", c -> {
            c.insert(b("r3"), new ColumnParent("S"), col("a", "", 1), ONE);
            return casAndRow(c, "S", "r3", List.of(col("a", "", 0)), List.of(col("b", "1", 7)));
        });
        calls.put("03 expected a column without a value", c -> casAndRow(c, "S", "r1", List.of(new Column(b("zz"))), List.of(col("f", "7", 7))));
        calls.put("03 expected a present column without a value", c -> casAndRow(c, "S", "r1", List.of(new Column(b("a"))), List.of(col("f", "7", 7))));
        calls.put("03 expected the same column twice", c -> casAndRow(c, "S", "r1", List.of(col("a", "4", 1), col("a", "x", 2)), List.of(col("g", "7", 7))));
        calls.put("03 expected the same column twice, the match later", c -> casAndRow(c, "S", "r1", List.of(col("a", "x", 2), col("a", "4", 1)), List.of(col("g", "8", 7))));
        calls.put("03 expected with a ttl and no timestamp", c -> casAndRow(c, "S", "r1", List.of(new Column(b("a")).setValue(b("4")).setTtl(50)), List.of(col("h", "8", 7))));
        calls.put("04 nothing to update, expected matches", c -> casAndRow(c, "S", "r1", List.of(col("a", "4", 0)), List.of()));
        calls.put("04 nothing to update, absent row", c -> casAndRow(c, "S", "r4", List.of(), List.of()));
        calls.put("04 nothing to update, expected differs", c -> casAndRow(c, "S", "r1", List.of(col("a", "0", 0)), List.of()));
        calls.put("05 update with a ttl", c -> casAndRow(c, "S", "r5", List.of(), List.of(col("a", "1", 7).setTtl(600))));
        calls.put("05 update with timestamp 1 over a cell at 3", c -> {
            c.insert(b("r6"), new ColumnParent("S"), col("a", "old", 3), ONE);
            return casAndRow(c, "S", "r6", List.of(col("a", "old", 0)), List.of(col("a", "new", 1)));
        });
        calls.put("05 update of a cell written in the future", c -> {
            c.insert(b("r7"), new ColumnParent("S"), col("a", "future", FUTURE), ONE);
            return casAndRow(c, "S", "r7", List.of(col("a", "future", 0)), List.of(col("a", "new", 1), col("b", "new", 1)));
        });
        calls.put("05 a plain write after a cas, at a small timestamp", c -> {
            c.insert(b("r5"), new ColumnParent("S"), col("a", "plain", 9), ONE);
            return row(c, "S", "r5");
        });
        calls.put("05 the same column twice in updates", c -> casAndRow(c, "S", "r8", List.of(), List.of(col("a", "x", 2), col("a", "y", 1))));
        calls.put("05 the same column twice in updates, one timestamp", c -> casAndRow(c, "S", "r9", List.of(), List.of(col("a", "y", 2), col("a", "x", 2))));
        calls.put("05 default ttl of the table", c -> casAndRow(c, "D", "r1", List.of(), List.of(col("a", "1", 2))));
        calls.put("06 a deleted row, nothing expected", c -> {
            c.insert(b("r10"), new ColumnParent("S"), col("a", "1", 3), ONE);
            c.remove(b("r10"), new ColumnPath("S"), 4, ONE);
            return casAndRow(c, "S", "r10", List.of(), List.of(col("b", "2", 1)));
        });
        calls.put("06 a row of a deleted column and a live one, nothing expected", c -> {
            c.insert(b("r11"), new ColumnParent("S"), col("a", "1", 3), ONE);
            c.insert(b("r11"), new ColumnParent("S"), col("b", "1", 3), ONE);
            c.remove(b("r11"), new ColumnPath("S").setColumn(b("a")), 4, ONE);
            return casAndRow(c, "S", "r11", List.of(), List.of(col("c", "2", 1)));
        });
        calls.put("06 expected a deleted column", c -> casAndRow(c, "S", "r11", List.of(col("a", "1", 3)), List.of(col("c", "2", 1))));
        calls.put("07 LongType names in order", c -> {
            casAndRow(c, "L", "r1", List.of(), List.of(col(longName(300), "a", 1), col(longName(-2), "b", 1), col(longName(7), "c", 1)));
            return casAndRow(c, "L", "r1", List.of(col(longName(300), "z", 1), col(longName(-2), "z", 1), col(longName(99), "z", 1)), List.of());
        });
        calls.put("07 first column of a LongType row", c -> casAndRow(c, "L", "r1", List.of(), List.of(col(longName(1), "x", 1))));
        calls.put("07 a LongType name of 3 bytes in updates", c -> cas(c, "L", "r2", List.of(), List.of(new Column(ByteBuffer.wrap(new byte[3])).setValue(b("v")).setTimestamp(1))));
        calls.put("07 a LongType name of 3 bytes in expected", c -> cas(c, "L", "r2", List.of(new Column(ByteBuffer.wrap(new byte[3])).setValue(b("v"))), List.of(col(longName(1), "x", 1))));
        calls.put("08 value validation in updates", c -> cas(c, "V", "r1", List.of(), List.of(col("a", "abc", 1))));
        calls.put("08 value validation in expected", c -> casAndRow(c, "V", "r1", List.of(col("a", "abc", 1)), List.of(new Column(b("a")).setValue(longName(5)).setTimestamp(1))));
        calls.put("09 super table", c -> cas(c, "Sup", "r1", List.of(), List.of(col("a", "1", 1))));
        calls.put("09 unknown table", c -> cas(c, "Nope", "r1", List.of(), List.of(col("a", "1", 1))));
        calls.put("09 empty table name", c -> cas(c, "", "r1", List.of(), List.of(col("a", "1", 1))));
        calls.put("09 empty key", c -> cas(c, "S", "", List.of(), List.of(col("a", "1", 1))));
        calls.put("09 a key of 65536 bytes", c -> c.cas(ByteBuffer.allocate(65536), "S", List.of(), List.of(col("a", "1", 1)), SERIAL, ONE));
        calls.put("09 an empty name in updates", c -> cas(c, "S", "r1", List.of(), List.of(col("", "1", 1))));
        calls.put("09 an empty name in expected", c -> cas(c, "S", "r1", List.of(col("", "1", 1)), List.of(col("a", "1", 1))));
        calls.put("09 a name of 65536 bytes in updates", c -> cas(c, "S", "r1", List.of(),
                List.of(new Column(ByteBuffer.allocate(65536)).setValue(b("v")).setTimestamp(1))));
        calls.put("09 an update without a value", c -> cas(c, "S", "r1", List.of(), List.of(new Column(b("a")).setTimestamp(1))));
        calls.put("09 an update without a timestamp", c -> cas(c, "S", "r1", List.of(), List.of(new Column(b("a")).setValue(b("v")))));
        calls.put("09 an update with a negative ttl", c -> cas(c, "S", "r1", List.of(), List.of(col("a", "1", 1).setTtl(-1))));
        calls.put("09 an update with a ttl above 20 years", c -> cas(c, "S", "r1", List.of(), List.of(col("a", "1", 1).setTtl(630_720_001))));
        calls.put("09 an empty table name and a bad level", c -> c.cas(b("r1"), "", List.of(), List.of(col("a", "1", 1)), ONE, ONE));
        calls.put("09 an empty key and a bad level", c -> c.cas(b(""), "S", List.of(), List.of(col("a", "1", 1)), ONE, ONE));
        for (ConsistencyLevel serial : ConsistencyLevel.values()) {
            calls.put("10 serial level " + serial, c -> c.cas(b("cl"), "S", List.of(col("zz", "1", 0)), List.of(col("a", "1", 1)), serial, ONE));
        }
        for (ConsistencyLevel commit : ConsistencyLevel.values()) {
            calls.put("10 commit level " + commit, c -> show(c.cas(b("cl"), "S", List.of(col("zz", "1", 0)), List.of(col("a", "1", 1)),
                    ConsistencyLevel.LOCAL_SERIAL, commit)));
        }
        for (ConsistencyLevel commit : List.of(ConsistencyLevel.TWO, ConsistencyLevel.ANY, ConsistencyLevel.ALL)) {
            calls.put("10 commit level " + commit + ", applied", c -> casAndRow(c, "S", "cl-" + commit, List.of(), List.of(col("a", "1", 1))));
        }
        calls.put("10 both levels bad", c -> c.cas(b("cl"), "S", List.of(), List.of(col("a", "1", 1)), ONE, SERIAL));
        calls.put("11 a bad level and a bad update", c -> c.cas(b("cl"), "S", List.of(), List.of(col("", "1", 1)), ONE, ONE));
        calls.put("12 no expected list", c -> casAndRow(c, "S", "r12", null, List.of(col("a", "1", 1))));
        calls.put("12 no updates list", c -> casAndRow(c, "S", "r12", List.of(col("a", "1", 1)), null));
        calls.put("12 no updates list, nothing expected", c -> casAndRow(c, "S", "r13", List.of(), null));
        calls.put("11 without a keyspace", c -> {
            Cassandra.Client fresh = Cassandra311Peer.framedClient(port(c));
            try {
                return show(fresh.cas(b("r1"), "S", List.of(), List.of(col("a", "1", 1)), SERIAL, ONE));
            } finally {
                Cassandra311Peer.close(fresh);
            }
        });
        return calls;
    }

    /**
     * A random run of {@code seed}: cas, plain writes and deletions on a few rows, columns and values, so that
     * conditions hold and fail; each cas's answer and the row it leaves are compared.
     */
    private static Map<String, Call> random(long seed) {
        Random random = new Random(seed);
        Map<String, Call> calls = new LinkedHashMap<>();
        String[] names = {"a", "b", "c", "d"};
        String[] values = {"x", "y", ""};
        for (int i = 0; i < 150; i++) {
            String key = "rand" + seed + "-" + random.nextInt(3);
            int kind = random.nextInt(10);
            String name = names[random.nextInt(names.length)];
            String value = values[random.nextInt(values.length)];
            long timestamp = random.nextBoolean() ? 1 + random.nextInt(100) : FUTURE + random.nextInt(100);
            String label = String.format("20 seed %d op %03d ", seed, i);
            if (kind == 0) {
                calls.put(label + "insert " + key + " " + name + "=" + value + "@" + timestamp, c -> {
                    c.insert(b(key), new ColumnParent("S"), col(name, value, timestamp), ONE);
                    return row(c, "S", key);
                });
            } else if (kind == 1) {
                calls.put(label + "remove " + key + " " + name + "@" + timestamp, c -> {
                    c.remove(b(key), new ColumnPath("S").setColumn(b(name)), timestamp, ONE);
                    return row(c, "S", key);
                });
            } else {
                List<Column> expected = new ArrayList<>();
                List<Column> updates = new ArrayList<>();
                int expectedCount = random.nextInt(3);
                for (int e = 0; e < expectedCount; e++) {
                    expected.add(col(names[random.nextInt(names.length)], values[random.nextInt(values.length)], 0));
                }
                int updateCount = random.nextInt(3);
                for (int u = 0; u < updateCount; u++) {
                    Column update = col(names[random.nextInt(names.length)], values[random.nextInt(values.length)], 1 + random.nextInt(9));
                    // Ttls of whole tens, which a read in cluster mode, telling the time left, rounds back to.
                    updates.add(random.nextInt(4) == 0 ? update.setTtl(600 + 10 * random.nextInt(60)) : update);
                }
                calls.put(label + "cas " + key + " expected " + show(expected) + " updates " + show(updates),
                        c -> casAndRow(c, "S", key, expected, updates));
            }
        }
        return calls;
    }

    private static Object cas(Cassandra.Client c, String table, String key, List<Column> expected, List<Column> updates)
            throws TException {
        return show(c.cas(b(key), table, expected, updates, SERIAL, ONE));
    }

    private static Object casAndRow(Cassandra.Client c, String table, String key, List<Column> expected,
                                    List<Column> updates) throws TException {
        return cas(c, table, key, expected, updates) + " then " + row(c, table, key);
    }

    private static String row(Cassandra.Client c, String table, String key) throws TException {
        List<Column> columns = new ArrayList<>();
        for (ColumnOrSuperColumn cosc : c.get_slice(b(key), new ColumnParent(table), all(), ONE)) columns.add(cosc.column);
        return show(columns);
    }

    /** A CASResult with its columns as {@link #show(List)} prints them; null where it has none. */
    private static String show(CASResult result) {
        return "CASResult(" + result.success + ", " + (result.isSetCurrent_values() ? show(result.current_values) : "null") + ")";
    }

    /** Columns as name=value@timestamp[ttl], the names and values as text, a cas's timestamp as now. */
    private static String show(List<Column> columns) {
        List<String> shown = new ArrayList<>();
        for (Column c : columns) {
            String timestamp = !c.isSetTimestamp() ? "-" : c.timestamp > 1_000_000_000_000_000L && c.timestamp < FUTURE ? "now" : String.valueOf(c.timestamp);
            shown.add(text(c.name) + "=" + (c.value == null ? "null" : text(c.value)) + "@" + timestamp
                    + (c.isSetTtl() ? "[" + c.ttl + "]" : ""));
        }
        return shown.toString();
    }

    private static String text(ByteBuffer bytes) {
        byte[] b = new byte[bytes.remaining()];
        bytes.duplicate().get(b);
        for (byte x : b) {
            if (x < 0x20 || x > 0x7e) return "0x" + HexFormat.of().formatHex(b);
        }
        return new String(b, StandardCharsets.US_ASCII);
    }

    /** The port of the server a client talks to, to open another connection to it. */
    private static int port(Cassandra.Client c) {
        return ((org.apache.thrift.transport.TSocket) ((org.apache.thrift.transport.layered.TFramedTransport) c.getInputProtocol()
                .getTransport()).getInnerTransport()).getSocket().getPort();
    }

    /**
     * The call's answer, or its exception and what it says; a server that closed the connection (3.11 does on an
     * internal error) is connected to anew for the calls that follow.
     */
    private static String answer(V20Server server, Call call) throws TException {
        try {
            Object answer = call.on(server.client());
            return answer instanceof CASResult r ? show(r) : String.valueOf(answer);
        } catch (InvalidRequestException e) {
            return "InvalidRequestException: " + e.getWhy();
        } catch (NotFoundException e) {
            return "NotFoundException";
        } catch (TTransportException | TApplicationException e) {
            server.reconnect();
            return CLOSED;
        } catch (TException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    private static Column col(String name, String value, long timestamp) {
        return col(b(name), value, timestamp);
    }

    private static Column col(ByteBuffer name, String value, long timestamp) {
        Column c = new Column(name).setValue(b(value));
        return timestamp == 0 ? c : c.setTimestamp(timestamp);
    }

    private static ByteBuffer longName(long n) {
        return ByteBuffer.allocate(8).putLong(0, n);
    }

    private static SlicePredicate all() {
        return new SlicePredicate().setSlice_range(new SliceRange(b(""), b(""), false, 100));
    }

    private static ByteBuffer b(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    /** Makes the keyspace anew: the 3.11 node a run shares may have it from a run before. */
    private static void createKeyspace(Cassandra.Client c) throws TException {
        Cassandra311Peer.recreateKeyspace(c, KS, List.of(table("S", "BytesType"), table("L", "LongType"),
                table("D", "BytesType").setDefault_time_to_live(1000), table("V", "BytesType").setDefault_validation_class("LongType"),
                table("Sup", "BytesType").setColumn_type("Super").setSubcomparator_type("BytesType")));
    }

    private static CfDef table(String name, String comparator) {
        return new CfDef(KS, name).setComparator_type(comparator).setKey_validation_class("BytesType")
                .setDefault_validation_class("BytesType");
    }
}
