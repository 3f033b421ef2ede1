package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.Deflater;
import org.apache.thrift.TException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.Compression;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.CqlPreparedResult;
import sibyl.iface.v20.CqlResult;
import sibyl.iface.v20.CqlRow;

/**
 * CQL over Thrift (docs/thrift-api-0.7.md §CQL), Sibyl over a Cassandra 5 cluster against a real Cassandra 3.11: the
 * same statements through both, after the same Thrift writes, each answer compared in full (its type, rows, column
 * names, values and the types 3.11 names them by; a prepared statement's markers and their types) or, for a refusal,
 * by its class, and by its text where 3.11's is Sibyl's own.
 */
class CqlOverThriftIT {
    private static final String KS = "Cql07";

    @Test
    void sibylOverAClusterAnswersCqlAs311Does(@TempDir Path dir) throws Exception {
        Cassandra311Peer c311 = Cassandra311Peer.shared();
        Cassandra5Node cluster = Cassandra5Node.shared();
        recreate(c311);
        String conf = Diff07Schema.storageConf(Files.readString(LocalNode.home().resolve("conf/storage-conf.xml")), KS);
        LocalNode sibyl = LocalNode.configuredBy(dir, cluster.inCluster(conf, "cql_" + ProcessHandle.current().pid() + "_"));
        sibyl.start("sibyl");
        Cassandra.Client reference = c311.client();
        Cassandra.Client subject = Cassandra311Peer.framedClient(port(dir));
        try {
            List<String> differences = new ArrayList<>();
            for (Cassandra.Client c : List.of(reference, subject)) {
                // A column family's table is Sibyl's own name in the cluster: truncate it for a run on a shared node.
                c.set_keyspace(KS);
                c.truncate("StdBytes");
                c.truncate("StdLong");
                c.insert(b("k1"), new ColumnParent("StdBytes"), new Column(b("c1")).setValue(b("v1")).setTimestamp(5), ConsistencyLevel.ONE);
                c.insert(b("k2"), new ColumnParent("StdLong"), new Column(ByteBuffer.allocate(8).putLong(0, -7)).setValue(b("v7"))
                        .setTimestamp(6), ConsistencyLevel.ONE);
            }
            List<String> statements = List.of(
                    "USE \"" + KS + "\"",
                    "SELECT * FROM \"StdBytes\"",
                    "SELECT key, column1, value, writetime(value) FROM \"StdLong\" WHERE key = 0x6b32",
                    "SELECT count(*) FROM \"StdBytes\"",
                    "DROP TABLE IF EXISTS t",
                    "CREATE TABLE t (k int PRIMARY KEY, v text, l list<int>, m map<text, bigint>, s set<uuid>, d decimal,"
                            + " vi varint, f float, dd double, bo boolean, i inet, a ascii, ts timestamp, tu timeuuid,"
                            + " fl frozen<list<text>>, tp tuple<int, text>)",
                    "INSERT INTO t (k, v, l, m, s, d, vi, f, dd, bo, i, a, ts, fl, tp) VALUES (1, 'x', [1, 2], {'a': 3},"
                            + " {5f1e6c4c-0a2b-4a63-9a60-6a0b9d1e2c3f}, 1.25, 123456789012345678901234567890, 1.5, 2.5, true,"
                            + " '10.0.0.1', 'asc', '2020-01-02 03:04:05+0000', ['p', 'q'], (7, 'tt'))",
                    "SELECT * FROM t",
                    "SELECT v, l FROM t WHERE k = 2",
                    "UPDATE t SET v = 'y' WHERE k = 1 IF v = 'x'",
                    "UPDATE t SET v = 'z' WHERE k = 1 IF v = 'x'",
                    "BEGIN BATCH INSERT INTO t (k, v) VALUES (2, 'b'); INSERT INTO t (k, v) VALUES (3, 'c'); APPLY BATCH",
                    "SELECT k, v FROM t WHERE k IN (1, 2, 3)",
                    "DELETE FROM t WHERE k = 3",
                    "SELECT k, v FROM t WHERE k = 3",
                    "SELEKT * FROM t",
                    "SELECT * FROM no_such_table",
                    "DROP TABLE t");
            for (String statement : statements) {
                String a = execute(reference, statement);
                String b = execute(subject, statement);
                if (!alike(a, b)) differences.add(statement + "\n  3.11:  " + a + "\n  Sibyl: " + b);
            }
            compare(differences, "prepare and execute", reference, subject, c -> {
                CqlPreparedResult p = c.prepare_cql3_query(b("SELECT * FROM \"StdBytes\" WHERE key = ?"), Compression.NONE);
                return "markers " + p.count + " " + p.variable_names + " " + p.variable_types + " -> "
                        + show(c.execute_prepared_cql3_query(p.itemId, List.of(b("k1")), ConsistencyLevel.ONE))
                        + " / again: " + (c.prepare_cql3_query(b("SELECT * FROM \"StdBytes\" WHERE key = ?"), Compression.NONE).itemId == p.itemId)
                        + " / " + refusal(() -> c.execute_prepared_cql3_query(p.itemId, List.of(), ConsistencyLevel.ONE));
            });
            compare(differences, "an unknown prepared id", reference, subject,
                    c -> refusal(() -> c.execute_prepared_cql3_query(-77, List.of(), ConsistencyLevel.ONE)));
            compare(differences, "CQL 2", reference, subject,
                    c -> refusal(() -> c.execute_cql_query(b("SELECT * FROM t"), Compression.NONE)) + " / "
                            + refusal(() -> c.prepare_cql_query(b("SELECT * FROM t"), Compression.NONE)));
            compare(differences, "a deflated query", reference, subject,
                    c -> show(c.execute_cql3_query(deflated("SELECT * FROM \"StdBytes\""), Compression.GZIP, ConsistencyLevel.ONE))
                            + " / " + refusal(() -> c.execute_cql3_query(b("not deflated"), Compression.GZIP, ConsistencyLevel.ONE)));
            assertEquals(List.of(), differences, String.join("\n", differences));
        } finally {
            Cassandra311Peer.close(reference);
            Cassandra311Peer.close(subject);
            sibyl.stop();
        }
    }

    private interface Exchange {
        String run(Cassandra.Client c) throws Exception;
    }

    interface Call {
        Object run() throws Exception;
    }

    private static void compare(List<String> differences, String what, Cassandra.Client reference, Cassandra.Client subject,
                                Exchange exchange) throws Exception {
        String a = exchange.run(reference);
        String b = exchange.run(subject);
        if (!a.equals(b)) differences.add(what + "\n  3.11:  " + a + "\n  Sibyl: " + b);
    }

    /**
     * Two answers alike: equal, or refusals of one class. The texts of refusals that come from the CQL parser and
     * schema are Cassandra 5's in Sibyl's answers, worded as 3.11 words them or close to it, so only the class is
     * compared.
     */
    static boolean alike(String a, String b) {
        if (a.equals(b)) return true;
        return a.startsWith("!") && b.startsWith("!") && a.substring(0, a.indexOf(':')).equals(b.substring(0, b.indexOf(':')));
    }

    static String execute(Cassandra.Client c, String statement) {
        return refusal(() -> show(c.execute_cql3_query(b(statement), Compression.NONE, ConsistencyLevel.ONE)));
    }

    /** The answer of {@code call} as text, or its refusal: "!" and the exception's class and text. */
    static String refusal(Call call) {
        try {
            return String.valueOf(call.run());
        } catch (sibyl.iface.v20.InvalidRequestException e) {
            return "!InvalidRequestException: " + e.getWhy();
        } catch (Exception e) {
            return "!" + e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    /** A result as text: its type, then each row's columns (name=value in hex, or unset) and the types, sorted. */
    static String show(CqlResult r) {
        StringBuilder s = new StringBuilder(r.getType().toString());
        if (r.isSetRows()) {
            for (CqlRow row : r.getRows()) {
                s.append(" row(key=").append(V20Call.hex(row.bufferForKey())).append(';');
                for (Column c : row.getColumns()) {
                    s.append(' ').append(new String(c.getName(), StandardCharsets.UTF_8)).append('=')
                            .append(c.isSetValue() ? V20Call.hex(c.bufferForValue()) : "unset")
                            .append(c.isSetTimestamp() ? "@" + c.getTimestamp() : "");
                }
                s.append(')');
            }
        }
        if (r.isSetSchema()) {
            s.append(" names ").append(sorted(r.getSchema().getName_types())).append(" values ")
                    .append(sorted(r.getSchema().getValue_types())).append(" defaults ")
                    .append(r.getSchema().getDefault_name_type()).append('/').append(r.getSchema().getDefault_value_type());
        }
        return s.toString();
    }

    private static Map<String, String> sorted(Map<ByteBuffer, String> types) {
        Map<String, String> sorted = new TreeMap<>();
        types.forEach((k, v) -> sorted.put(StandardCharsets.UTF_8.decode(k.duplicate()).toString(), v));
        return sorted;
    }

    private static ByteBuffer b(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    static ByteBuffer deflated(String s) {
        Deflater d = new Deflater();
        d.setInput(s.getBytes(StandardCharsets.UTF_8));
        d.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] chunk = new byte[256];
        while (!d.finished()) out.write(chunk, 0, d.deflate(chunk));
        d.end();
        return ByteBuffer.wrap(out.toByteArray());
    }

    private static void recreate(Cassandra311Peer c311) throws TException {
        Cassandra.Client client = c311.client();
        try {
            Cassandra311Peer.recreateKeyspace(client, KS, Diff07Schema.ksDef(KS).getCf_defs());
        } finally {
            Cassandra311Peer.close(client);
        }
    }

    private static int port(Path dir) throws Exception {
        Matcher m = Pattern.compile("<ThriftPort>(\\d+)</ThriftPort>").matcher(Files.readString(dir.resolve("conf/storage-conf.xml")));
        assertTrue(m.find(), "no ThriftPort");
        return Integer.parseInt(m.group(1));
    }
}
