package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.Compression;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.CqlPreparedResult;

/**
 * CQL over Thrift on the embedded engine (docs/thrift-api-0.7.md §CQL) against a real Cassandra 3.11: random writes
 * through Thrift and CQL, then random SELECTs (and prepared statements) of the served subset through both, every answer
 * compared in full (its type, rows, column names, values, write times and the types 3.11 names them by), as
 * {@link CqlOverThriftIT} shows and compares them: statements either refuses, by their class (the texts of parse
 * errors are 3.11's parser's own).
 */
class CqlEmbeddedDifferentialIT {
    private static final String KS = "CqlLocal";
    /** Under CI a seed checked to pass, so a run fails for a change, not for a new draw; elsewhere a new one. */
    private static final long CI_SEED = 20261207L;
    private static final long SEED = Long.getLong("sibyl.cql.seed",
            "true".equals(System.getenv("CI")) ? CI_SEED : System.nanoTime());
    private static final int OPERATIONS = 500;
    private static final String[] PLAIN_KEYS = {"0x6b31", "0x6b32", "0x6b33", "0x00", "0xff"};
    private static final String[] PLAIN_NAMES = {"0x01", "0x02", "0x0a", "0x6331", "0x6332", "0xff00"};
    private static final String[] TEXT_KEYS = {"'a'", "'b'", "'\u00e9t\u00e9'", "'zz'"};
    private static final String[] LONGS = {"-5", "0", "3", "7", "9223372036854775807", "-9223372036854775808"};
    private static final String[] INT_KEYS = {"1", "2", "-1"};
    private static final String[] TEXTS = {"'a'", "'b'", "'c'", "''"};
    private static final String[] INTS = {"1", "5", "-3", "100"};

    @Test
    void theEmbeddedEngineAnswersCqlAs311Does(@TempDir Path dir) throws Exception {
        Cassandra311Peer c311 = Cassandra311Peer.shared();
        String conf = Diff07Schema.storageConf(Files.readString(LocalNode.home().resolve("conf/storage-conf.xml")), "Other");
        LocalNode sibyl = LocalNode.configuredBy(dir, conf);
        sibyl.start("sibyl");
        Cassandra.Client reference = c311.client();
        Cassandra.Client subject = Cassandra311Peer.framedClient(sibyl.thriftPort());
        System.out.println("CqlEmbeddedDifferentialIT seed " + SEED + " (-Dsibyl.cql.seed to repeat)");
        Random random = new Random(SEED);
        List<String> differences = new ArrayList<>();
        try {
            for (Cassandra.Client c : List.of(reference, subject)) {
                Cassandra311Peer.recreateKeyspace(c, KS, tables());
                c.set_keyspace(KS);
            }
            long timestamp = 1000;
            int withRows = 0;
            for (int i = 0; i < OPERATIONS && differences.size() < 20; i++) {
                timestamp++;
                int kind = random.nextInt(10);
                if (kind < 2) {
                    ByteBuffer key = hex(pick(random, PLAIN_KEYS));
                    ByteBuffer name = hex(pick(random, PLAIN_NAMES));
                    Column column = new Column(name).setValue(ByteBuffer.wrap(new byte[] {(byte) i})).setTimestamp(timestamp);
                    for (Cassandra.Client c : List.of(reference, subject)) {
                        c.insert(key.duplicate(), new ColumnParent("Plain"), column.deepCopy(), ConsistencyLevel.ONE);
                    }
                    continue;
                }
                String statement = kind < 5 ? write(random, timestamp, i) : read(random);
                String a = CqlOverThriftIT.execute(reference, statement);
                String b = CqlOverThriftIT.execute(subject, statement);
                if (!CqlOverThriftIT.alike(a, b)) differences.add(statement + "\n  3.11:  " + a + "\n  Sibyl: " + b);
                if (a.startsWith("ROWS row(")) withRows++;
            }
            assertTrue(withRows > OPERATIONS / 10, "only " + withRows + " SELECTs found rows: the comparison saw too little");
            for (String text : List.of("SELECT * FROM \"Plain\" WHERE key = ? AND column1 > ? LIMIT ?",
                    "INSERT INTO \"Typed\" (key, column1, value) VALUES (?, ?, :v) USING TTL ? AND TIMESTAMP ?",
                    "SELECT count(*) FROM \"Comp\" WHERE key = ? AND column1 = ?",
                    "DELETE FROM \"Typed\" USING TIMESTAMP ? WHERE key IN (?, ?)")) {
                String a = prepared(reference, text);
                String b = prepared(subject, text);
                if (!a.equals(b)) differences.add("prepare " + text + "\n  3.11:  " + a + "\n  Sibyl: " + b);
            }
            String a = boundSelect(reference);
            String b = boundSelect(subject);
            if (!a.equals(b)) differences.add("a prepared SELECT executed\n  3.11:  " + a + "\n  Sibyl: " + b);
            a = deflatedAndUnknown(reference);
            b = deflatedAndUnknown(subject);
            if (!a.equals(b)) differences.add("a deflated query, an unknown prepared id\n  3.11:  " + a + "\n  Sibyl: " + b);
            assertEquals(List.of(), differences, "seed " + SEED + ":\n" + String.join("\n", differences));
        } finally {
            Cassandra311Peer.close(reference);
            Cassandra311Peer.close(subject);
            sibyl.stop();
        }
    }

    private static List<CfDef> tables() {
        return List.of(new CfDef(KS, "Plain"),
                new CfDef(KS, "Typed").setKey_validation_class("UTF8Type").setComparator_type("LongType")
                        .setDefault_validation_class("Int32Type"),
                new CfDef(KS, "Comp").setKey_validation_class("Int32Type")
                        .setComparator_type("CompositeType(UTF8Type,Int32Type)").setDefault_validation_class("UTF8Type"),
                new CfDef(KS, "Rev").setComparator_type("ReversedType(LongType)"),
                new CfDef(KS, "Ctr").setDefault_validation_class("CounterColumnType"));
    }

    /** A random write of the subset, at {@code timestamp} so that both stores keep the same write times. */
    private static String write(Random random, long timestamp, int i) {
        String using = " USING TIMESTAMP " + timestamp + (random.nextInt(4) == 0 ? " AND TTL 100000" : "");
        return switch (random.nextInt(9)) {
            case 8 -> "UPDATE \"Ctr\" SET value = value " + (random.nextBoolean() ? "+ " : "- ") + pick(random, INTS)
                    + " WHERE key IN (" + pick(random, PLAIN_KEYS) + ", " + pick(random, PLAIN_KEYS) + ") AND column1 = "
                    + pick(random, PLAIN_NAMES);
            case 0 -> "INSERT INTO \"Plain\" (key, column1, value) VALUES (" + pick(random, PLAIN_KEYS) + ", "
                    + pick(random, PLAIN_NAMES) + ", 0x" + String.format("%04x", i) + ")" + using;
            case 1 -> "INSERT INTO \"Typed\" (column1, key, value) VALUES (" + pick(random, LONGS) + ", "
                    + pick(random, TEXT_KEYS) + ", " + pick(random, INTS) + ")" + using;
            case 2 -> "UPDATE \"Comp\"" + using + " SET value = 'v" + i + "' WHERE key = " + pick(random, INT_KEYS)
                    + " AND column1 = " + pick(random, TEXTS) + " AND column2 = " + pick(random, INTS);
            case 3 -> "INSERT INTO \"Rev\" (key, column1, value) VALUES (" + pick(random, PLAIN_KEYS) + ", "
                    + pick(random, LONGS) + ", 0x01)" + using;
            case 4 -> "DELETE FROM \"Plain\" USING TIMESTAMP " + timestamp + " WHERE key = " + pick(random, PLAIN_KEYS)
                    + (random.nextBoolean() ? " AND column1 = " + pick(random, PLAIN_NAMES)
                    : random.nextBoolean() ? " AND column1 IN (" + pick(random, PLAIN_NAMES) + ", " + pick(random, PLAIN_NAMES) + ")" : "");
            case 5 -> "DELETE value FROM \"Typed\" USING TIMESTAMP " + timestamp + " WHERE key = " + pick(random, TEXT_KEYS)
                    + " AND column1 = " + pick(random, LONGS);
            case 6 -> "DELETE FROM \"Comp\" USING TIMESTAMP " + timestamp + " WHERE key = " + pick(random, INT_KEYS)
                    + (random.nextBoolean() ? " AND column1 = " + pick(random, TEXTS) : "");
            default -> "UPDATE \"Typed\"" + using + " SET value = " + (random.nextInt(5) == 0 ? "null" : pick(random, INTS))
                    + " WHERE key IN (" + pick(random, TEXT_KEYS) + ", " + pick(random, TEXT_KEYS) + ") AND column1 = "
                    + pick(random, LONGS);
        };
    }

    /** A random SELECT of the subset (or a statement both refuse). */
    private static String read(Random random) {
        String limit = random.nextInt(3) == 0 ? " LIMIT " + (1 + random.nextInt(4)) : "";
        String order = random.nextInt(3) == 0 ? " ORDER BY column1 " + (random.nextBoolean() ? "DESC" : "ASC") : "";
        String[] ops = {"=", "<", "<=", ">", ">="};
        return switch (random.nextInt(10)) {
            case 9 -> "SELECT * FROM \"Ctr\"" + (random.nextBoolean() ? "" : " WHERE key = " + pick(random, PLAIN_KEYS)
                    + " AND column1 >= " + pick(random, PLAIN_NAMES)) + limit;
            case 0 -> "SELECT * FROM \"Plain\"" + limit;
            case 1 -> "SELECT key, column1, value, writetime(value) FROM \"Plain\" WHERE key = " + pick(random, PLAIN_KEYS)
                    + (random.nextInt(3) == 0 ? " AND column1 IN (" + pick(random, PLAIN_NAMES) + ", " + pick(random, PLAIN_NAMES) + ")"
                    : (random.nextBoolean() ? " AND column1 " + pick(random, ops) + " " + pick(random, PLAIN_NAMES) : "")
                    + (random.nextBoolean() ? " AND column1 < 0x6400" : "")) + order + limit;
            case 2 -> "SELECT value, column1 FROM \"Plain\" WHERE key IN (" + pick(random, PLAIN_KEYS) + ", "
                    + pick(random, PLAIN_KEYS) + ")" + order + limit;
            case 3 -> "SELECT * FROM \"Typed\" WHERE key = " + pick(random, TEXT_KEYS) + " AND column1 "
                    + pick(random, ops) + " " + pick(random, LONGS) + order + limit;
            case 4 -> "SELECT * FROM \"Comp\" WHERE key = " + pick(random, INT_KEYS)
                    + (random.nextBoolean() ? " AND column1 = " + pick(random, TEXTS) + (random.nextBoolean()
                    ? " AND column2 " + pick(random, ops) + " " + pick(random, INTS) : "")
                    : random.nextBoolean() ? " AND column1 " + pick(random, ops) + " " + pick(random, TEXTS) : "") + order + limit;
            case 5 -> "SELECT count(*) FROM \"" + pick(random, new String[] {"Plain", "Typed", "Comp", "Rev"}) + "\""
                    + (random.nextBoolean() ? "" : " LIMIT 2");
            case 6 -> "SELECT column1, value FROM \"Rev\" WHERE key = " + pick(random, PLAIN_KEYS)
                    + (random.nextBoolean() ? " AND column1 " + pick(random, ops) + " " + pick(random, LONGS) : "") + order + limit;
            case 7 -> "SELECT * FROM \"Typed\"" + limit;
            default -> pick(random, new String[] {"SELECT * FROM \"Plain\" WHERE column1 = 0x01",
                    "SELECT * FROM nosuch", "SELECT nosuch FROM \"Plain\"", "SELEKT * FROM \"Plain\"",
                    "SELECT * FROM \"Typed\" WHERE key = 'a' AND column1 = 'x'", "INSERT INTO \"Plain\" (key, value) VALUES (0x01, 0x02)",
                    "SELECT * FROM \"Plain\" WHERE key = 0x", "SELECT * FROM \"Comp\" WHERE key = 1 AND column2 = 5",
                    "UPDATE \"Plain\" SET column1 = 0x01 WHERE key = 0x01 AND column1 = 0x02",
                    "SELECT writetime(key) FROM \"Plain\"", "SELECT * FROM \"Plain\" ORDER BY column1 DESC"});
        };
    }

    private static String prepared(Cassandra.Client c, String text) {
        return CqlOverThriftIT.refusal(() -> {
            CqlPreparedResult p = c.prepare_cql3_query(utf8(text), Compression.NONE);
            return p.count + " " + p.variable_names + " " + p.variable_types;
        });
    }

    private static String boundSelect(Cassandra.Client c) {
        return CqlOverThriftIT.refusal(() -> {
            CqlPreparedResult p = c.prepare_cql3_query(utf8("SELECT key, column1 FROM \"Plain\" WHERE key IN (?, ?) LIMIT ?"),
                    Compression.NONE);
            return CqlOverThriftIT.show(c.execute_prepared_cql3_query(p.itemId, List.of(hex("0x6b31"), hex("0x6b32"),
                    ByteBuffer.allocate(4).putInt(0, 3)), ConsistencyLevel.ONE)) + " / "
                    + CqlOverThriftIT.refusal(() -> c.execute_prepared_cql3_query(p.itemId, List.of(), ConsistencyLevel.ONE));
        });
    }

    /**
     * A query deflated (Compression.GZIP), a prepared id neither node gave, and a counter table's update and delete
     * at ANY.
     */
    private static String deflatedAndUnknown(Cassandra.Client c) {
        return CqlOverThriftIT.refusal(() -> CqlOverThriftIT.show(c.execute_cql3_query(
                CqlOverThriftIT.deflated("SELECT * FROM \"Typed\" WHERE key IN ('a', 'b') LIMIT 5"), Compression.GZIP,
                ConsistencyLevel.ONE))) + " / " + CqlOverThriftIT.refusal(() -> c.execute_prepared_cql3_query(-77, List.of(),
                ConsistencyLevel.ONE))
                + " / " + CqlOverThriftIT.refusal(() -> CqlOverThriftIT.show(c.execute_cql3_query(CqlOverThriftIT.deflated(
                        "UPDATE \"Ctr\" SET value = value + 1 WHERE key = 0x01 AND column1 = 0x02"), Compression.GZIP,
                        ConsistencyLevel.ANY)))
                + " / " + CqlOverThriftIT.refusal(() -> CqlOverThriftIT.show(c.execute_cql3_query(CqlOverThriftIT.deflated(
                        "DELETE FROM \"Ctr\" WHERE key = 0x01"), Compression.GZIP, ConsistencyLevel.ANY)));
    }

    private static String pick(Random random, String[] values) {
        return values[random.nextInt(values.length)];
    }

    private static ByteBuffer hex(String literal) {
        String digits = literal.substring(2);
        byte[] b = new byte[digits.length() / 2];
        for (int i = 0; i < b.length; i++) b[i] = (byte) Integer.parseInt(digits, 2 * i, 2 * i + 2, 16);
        assertTrue(b.length > 0 || digits.isEmpty());
        return ByteBuffer.wrap(b);
    }

    private static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }
}
