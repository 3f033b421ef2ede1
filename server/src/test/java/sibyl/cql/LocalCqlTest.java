package sibyl.cql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import sibyl.db.CFMetaData;
import sibyl.db.InvalidQueryException;
import sibyl.db.KSMetaData;
import sibyl.db.Validators;
import sibyl.db.marshal.BytesType;
import sibyl.db.marshal.CompositeType;
import sibyl.db.marshal.CounterColumnType;
import sibyl.db.marshal.Int32Type;
import sibyl.db.marshal.LongType;
import sibyl.db.marshal.ReversedType;
import sibyl.db.marshal.UTF8Type;
import sibyl.dht.RandomPartitioner;
import sibyl.engine.LocalStorageService;
import sibyl.service.Consistency;
import sibyl.service.CqlAnswer;
import sibyl.service.CqlPrepared;

/** CQL on the embedded engine's compact-storage views (docs/thrift-api-0.7.md §CQL), through a memory-only store. */
class LocalCqlTest {
    private static final String KS = "Ks";
    private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");
    private final LocalStorageService store = new LocalStorageService(new RandomPartitioner(), List.of(new KSMetaData(KS, 1,
            List.of(CFMetaData.standard(KS, "Plain", BytesType.instance),
                    CFMetaData.standard(KS, "Typed", LongType.instance)
                            .withValidators(new Validators(UTF8Type.instance, Int32Type.instance, Map.of())),
                    CFMetaData.standard(KS, "Comp", new CompositeType(List.of(UTF8Type.instance, Int32Type.instance)))
                            .withValidators(new Validators(Int32Type.instance, UTF8Type.instance, Map.of())),
                    CFMetaData.standard(KS, "Rev", ReversedType.of(LongType.instance)),
                    CFMetaData.ofSuper(KS, "Sup", BytesType.instance, BytesType.instance),
                    CFMetaData.standard(KS, "Ctr", BytesType.instance)
                            .withValidators(new Validators(BytesType.instance, CounterColumnType.instance, Map.of()))))),
            128, Clock.fixed(NOW, ZoneOffset.UTC));

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void insertsAndSelectsTheCompactView() {
        run("INSERT INTO \"Plain\" (key, column1, value) VALUES (0x6b31, 0x6332, 0x7632) USING TTL 100 AND TIMESTAMP 7");
        run("INSERT INTO \"Plain\" (key, column1, value) VALUES (0x6b31, 0x6331, 0x7631)");
        CqlAnswer a = run("SELECT * FROM \"Plain\" WHERE key = 0x6b31");
        assertEquals(List.of("key", "column1", "value"), a.names());
        assertEquals(List.of("org.apache.cassandra.db.marshal.BytesType", "org.apache.cassandra.db.marshal.BytesType",
                "org.apache.cassandra.db.marshal.BytesType"), a.types());
        assertEquals(List.of("6b31 6331 7631", "6b31 6332 7632"), rows(a));
        assertEquals(List.of("0000000000000007 00000064"),
                rows(run("SELECT writetime(value), ttl(value) FROM \"Plain\" WHERE key = 0x6b31 AND column1 > 0x6331")));
        // The second statement in the same microsecond of the (fixed) clock is given the next one.
        assertEquals(List.of(NOW.toEpochMilli() * 1000 + 1), List.of(ByteBuffer.wrap(HexFormat.of().parseHex(
                rows(run("SELECT writetime(value) FROM \"Plain\" WHERE key = 0x6b31 LIMIT 1")).get(0))).getLong()));
        assertEquals(List.of("6332", "6331"), rows(run("SELECT column1 FROM \"Plain\" WHERE key = 0x6b31 ORDER BY column1 DESC")));
        assertEquals(List.of("0000000000000002"), rows(run("SELECT COUNT(*) FROM \"Plain\"")));
    }

    @Test
    void inOnTheClusteringColumnSelectsAndDeletesThoseNames() {
        for (String c : List.of("01", "02", "03")) run("INSERT INTO \"Plain\" (key, column1, value) VALUES (0x0a, 0x" + c + ", 0x00)");
        assertEquals(List.of("01", "03"), rows(run("SELECT column1 FROM \"Plain\" WHERE key = 0x0a AND column1 IN (0x03, 0x, 0x01, 0x03)")));
        assertEquals(List.of("03"), rows(run("SELECT column1 FROM \"Plain\" WHERE key = 0x0a AND column1 IN (0x03, 0x01) ORDER BY column1 DESC LIMIT 1")));
        run("DELETE FROM \"Plain\" WHERE key = 0x0a AND column1 IN (0x01, 0x02)");
        assertEquals(List.of("03"), rows(run("SELECT column1 FROM \"Plain\" WHERE key = 0x0a")));
        assertRefused(exec("SELECT * FROM \"Comp\" WHERE key = 1 AND column1 IN ('a')"), "IN on a clustering column of a CompositeType");
    }

    @Test
    void typedAndCompositeViewsConvertLiteralsAndSliceExactly() {
        run("INSERT INTO \"Typed\" (key, column1, value) VALUES ('ab', -3, 7)");
        run("UPDATE \"Typed\" SET value = 8 WHERE key = 'ab' AND column1 = 4");
        assertEquals(List.of("6162 fffffffffffffffd 00000007", "6162 0000000000000004 00000008"),
                rows(run("SELECT * FROM \"Typed\" WHERE key IN ('ab', 'zz')")));
        for (String c : List.of("('a', 5)", "('a', 7)", "('b', 1)")) {
            run("INSERT INTO \"Comp\" (key, column1, column2, value) VALUES (1, " + c.substring(1, c.length() - 1) + ", 'v')");
        }
        assertEquals(List.of("61 00000007"), rows(run("SELECT column1, column2 FROM \"Comp\" WHERE key = 1 AND column1 = 'a' AND column2 > 5")));
        assertEquals(List.of("61 00000005", "61 00000007"), rows(run("SELECT column1, column2 FROM \"Comp\" WHERE key = 1 AND column1 = 'a'")));
        assertEquals(List.of("62 00000001"), rows(run("SELECT column1, column2 FROM \"Comp\" WHERE key = 1 AND column1 > 'a'")));
        // Bounds that cross select nothing, as in 3.11, rather than upset the store.
        assertEquals(List.of(), rows(run("SELECT * FROM \"Comp\" WHERE key = 1 AND column1 > 'b' AND column1 < 'a'")));
        assertEquals(List.of(), rows(run("SELECT * FROM \"Typed\" WHERE key = 'ab' AND column1 >= 5 AND column1 <= -5 ORDER BY column1 DESC")));
        run("DELETE FROM \"Comp\" WHERE key = 1 AND column1 >= 'b' AND column1 <= 'a'");
        assertEquals(3, run("SELECT * FROM \"Comp\" WHERE key = 1").rows().size());
        run("DELETE FROM \"Comp\" WHERE key = 1 AND column1 = 'a'");
        assertEquals(List.of("62 00000001"), rows(run("SELECT column1, column2 FROM \"Comp\" WHERE key = 1")));
    }

    @Test
    void aReversedComparatorIsDescendingUnlessOrderedOtherwise() {
        for (int i = 1; i <= 4; i++) run("INSERT INTO \"Rev\" (key, column1, value) VALUES (0x01, " + i + ", 0x00)");
        assertEquals(List.of("0000000000000004", "0000000000000003"),
                rows(run("SELECT column1 FROM \"Rev\" WHERE key = 0x01 AND column1 >= 2 AND column1 < 5 LIMIT 2")));
        assertEquals(List.of("0000000000000003", "0000000000000004"),
                rows(run("SELECT column1 FROM \"Rev\" WHERE key = 0x01 AND column1 > 2 ORDER BY column1 ASC")));
    }

    @Test
    void countersAreIncrementedReadAndDeleted() {
        run("UPDATE \"Ctr\" SET value = value + 5 WHERE key = 0x01 AND column1 = 0x02");
        run("UPDATE \"Ctr\" SET value = value - 7 WHERE key IN (0x01, 0x03) AND column1 = 0x02");
        assertEquals(List.of("01 02 fffffffffffffffe", "03 02 fffffffffffffff9"),
                rows(run("SELECT * FROM \"Ctr\" WHERE key IN (0x03, 0x01)")));
        assertRefused(exec("UPDATE \"Ctr\" SET value = 3 WHERE key = 0x01 AND column1 = 0x02"), "Cannot set the value of counter column");
        assertRefused(exec("UPDATE \"Ctr\" USING TIMESTAMP 5 SET value = value + 1 WHERE key = 0x01 AND column1 = 0x02"),
                "Cannot provide custom timestamp for counter updates");
        assertRefused(exec("UPDATE \"Plain\" SET value = value + 1 WHERE key = 0x01 AND column1 = 0x02"), "for non counter column value");
        run("DELETE FROM \"Ctr\" WHERE key = 0x01");
        assertEquals(List.of("0000000000000001"), rows(run("SELECT COUNT(*) FROM \"Ctr\"")));
    }

    @Test
    void preparedStatementsReportTheirMarkersAndBindValues() {
        CqlPrepared p = store.prepareCql(KS, "INSERT INTO \"Typed\" (key, column1, value) VALUES (?, ?, :v) USING TTL ?").join();
        assertEquals(List.of("key", "column1", "ColumnSpecification{name=v, type=org.apache.cassandra.db.marshal.Int32Type}",
                "ColumnSpecification{name=[ttl], type=org.apache.cassandra.db.marshal.Int32Type}"), p.variableNames());
        assertEquals(p.id(), store.prepareCql(KS, "INSERT INTO \"Typed\" (key, column1, value) VALUES (?, ?, :v) USING TTL ?").join().id());
        store.executePreparedCql(p.id(), List.of(utf8("k"), ByteBuffer.allocate(8).putLong(0, 9),
                ByteBuffer.allocate(4).putInt(0, 5), ByteBuffer.allocate(4).putInt(0, 0)), Consistency.ONE).join();
        assertEquals(List.of("6b 0000000000000009 00000005"), rows(run("SELECT * FROM \"Typed\" WHERE key = 'k'")));
        assertRefused(store.executePreparedCql(p.id(), List.of(), Consistency.ONE), "there were 4 markers(?) in CQL but 0 bound variables");
        assertRefused(store.executePreparedCql(p.id(), List.of(utf8("k"), utf8("short"), ByteBuffer.allocate(4),
                ByteBuffer.allocate(4)), Consistency.ONE), "column1");
        assertRefused(store.executePreparedCql(p.id() + 1, List.of(), Consistency.ONE), "not found");
    }

    @Test
    void refusalsAreThoseOf311() {
        assertRefused(store.executeCql(null, "SELECT * FROM \"Plain\"", Consistency.ONE), "No keyspace has been specified");
        assertRefused(exec("SELECT * FROM plain"), "unconfigured table plain");
        assertRefused(exec("SELECT * FROM \"Plain\" WHERE column1 = 0x01"), "ALLOW FILTERING");
        assertRefused(exec("SELECT * FROM \"Typed\" WHERE key = 'ab' AND column1 = 'x'"), "Invalid STRING constant (x) for \"column1\" of type bigint");
        assertRefused(exec("INSERT INTO \"Plain\" (key, column1) VALUES (0x01, 0x02)"), "Column value is mandatory for this COMPACT STORAGE table");
        assertRefused(exec("INSERT INTO \"Plain\" (key, value) VALUES (0x01, 0x02)"), "Some clustering keys are missing: column1");
        assertRefused(exec("SELECT * FROM \"Plain\" WHERE key = 0x"), "Key may not be empty");
        assertRefused(exec("SELECT * FROM \"Plain\" LIMIT 0"), "LIMIT must be strictly positive");
        assertRefused(exec("INSERT INTO \"Typed\" (key, column1, value) VALUES ('ab', 11, 7) USING TTL -1"), "A TTL must be greater or equal to 0, but was -1");
        assertRefused(exec("SELECT * FROM \"Sup\""), "super column family");
        assertRefused(store.executeCql(KS, "SELECT * FROM \"Plain\"", Consistency.ANY), "ANY ConsistencyLevel is only supported for writes");
        assertRefused(exec("INSERT INTO \"Ctr\" (key, column1, value) VALUES (0x01, 0x01, 1)"), "not allowed on counter tables");
    }

    /** Random statements over the views: an answer or an InvalidQueryException, never anything else. */
    @Test
    void anyStatementAnswersOrIsRefused() {
        Random random = new Random(3411);
        String[] tables = {"\"Plain\"", "\"Typed\"", "\"Comp\"", "\"Rev\"", "\"Ctr\"", "\"Sup\"", "nosuch"};
        String[] columns = {"key", "column1", "column2", "value", "nosuch"};
        String[] values = {"0x01", "0x", "0x6", "'a'", "''", "1", "-5", "99999999999999999999", "1.5", "true", "null", "?",
                "5f1e6c4c-0a2b-4a63-9a60-6a0b9d1e2c3f"};
        String[] ops = {"=", "<", "<=", ">", ">=", "IN"};
        for (int i = 0; i < 3000; i++) {
            String t = tables[random.nextInt(tables.length)];
            StringBuilder where = new StringBuilder();
            for (int r = random.nextInt(4); r > 0; r--) {
                String op = ops[random.nextInt(ops.length)];
                where.append(where.length() == 0 ? " WHERE " : " AND ").append(columns[random.nextInt(columns.length)])
                        .append(' ').append(op).append(' ').append(op.equals("IN") ? "(" + pick(random, values) + ", "
                                + pick(random, values) + ")" : pick(random, values));
            }
            String statement = switch (random.nextInt(4)) {
                case 0 -> "SELECT " + (random.nextBoolean() ? "*" : columns[random.nextInt(columns.length)]) + " FROM " + t + where
                        + (random.nextInt(4) == 0 ? " ORDER BY column1 DESC" : "") + (random.nextInt(4) == 0 ? " LIMIT " + pick(random, values) : "");
                case 1 -> "INSERT INTO " + t + " (key, column1, value) VALUES (" + pick(random, values) + ", "
                        + pick(random, values) + ", " + pick(random, values) + ")" + (random.nextBoolean() ? " USING TTL " + pick(random, values) : "");
                case 2 -> "UPDATE " + t + " SET value = " + pick(random, values) + where;
                default -> "DELETE FROM " + t + where;
            };
            CompletableFuture<CqlAnswer> answer = exec(statement);
            try {
                answer.join();
            } catch (CompletionException e) {
                assertInstanceOf(InvalidQueryException.class, e.getCause(), statement);
            }
            CompletableFuture<CqlPrepared> prepared = store.prepareCql(KS, statement);
            try {
                CqlPrepared p = prepared.join();
                List<ByteBuffer> bound = new ArrayList<>();
                for (int m = 0; m < p.variableNames().size(); m++) bound.add(random.nextBoolean() ? null : ByteBuffer.wrap(new byte[random.nextInt(10)]));
                store.executePreparedCql(p.id(), bound, Consistency.ONE).join();
            } catch (CompletionException e) {
                assertInstanceOf(InvalidQueryException.class, e.getCause(), statement);
            }
        }
    }

    private static String pick(Random random, String[] values) {
        return values[random.nextInt(values.length)];
    }

    private CompletableFuture<CqlAnswer> exec(String statement) {
        return store.executeCql(KS, statement, Consistency.ONE);
    }

    private CqlAnswer run(String statement) {
        try {
            return exec(statement).join();
        } catch (CompletionException e) {
            fail(statement + ": " + e.getCause());
            return null;
        }
    }

    private static void assertRefused(CompletableFuture<?> answer, String expected) {
        try {
            answer.join();
            fail("not refused: " + expected);
        } catch (CompletionException e) {
            assertInstanceOf(InvalidQueryException.class, e.getCause());
            assertTrue(e.getCause().getMessage().contains(expected), e.getCause().getMessage());
        }
    }

    /** Each row as its values in hex, space-separated ("null" for none). */
    private static List<String> rows(CqlAnswer a) {
        assertTrue(a.hasRows());
        List<String> rows = new ArrayList<>();
        for (List<ByteBuffer> row : a.rows()) {
            List<String> values = new ArrayList<>();
            for (ByteBuffer v : row) {
                if (v == null) {
                    values.add("null");
                    continue;
                }
                byte[] b = new byte[v.remaining()];
                v.duplicate().get(b);
                values.add(HexFormat.of().formatHex(b));
            }
            rows.add(String.join(" ", values));
        }
        assertFalse(rows.contains(null));
        return rows;
    }

    private static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }
}
