package sibyl.cql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import sibyl.db.InvalidQueryException;

class ParserTest {
    @Test
    void aSelectKeepsItsSelectorsRelationsOrderAndLimit() {
        Statement.Select s = (Statement.Select) Parser.parse(
                "select KEY, writetime(value), ttl(\"value\") AS t from ks.\"Cf\" where key IN (0x01, ?) and column1 >= 'a'"
                        + " ORDER BY column1 DESC LIMIT ?;");
        assertEquals(new Statement.Table("ks", "Cf"), s.table());
        assertEquals(List.of("key", "writetime(value)", "t"), s.selectors().stream().map(Statement.Selector::shownName).toList());
        assertEquals(Statement.Operator.IN, s.where().get(0).operator());
        assertEquals(List.of(new Term.Literal(Token.Kind.HEX, "01"), new Term.Marker(0, null)), s.where().get(0).terms());
        assertEquals(new Term.Literal(Token.Kind.STRING, "a"), s.where().get(1).terms().get(0));
        assertEquals(Statement.Operator.GTE, s.where().get(1).operator());
        assertEquals(List.of("column1"), s.orderBy());
        assertTrue(s.descending());
        assertEquals(new Term.Marker(1, null), s.limit());
        assertEquals(2, s.markers());
    }

    @Test
    void countStarAndItsAlias() {
        Statement.Select s = (Statement.Select) Parser.parse("SELECT COUNT(*) AS n FROM t");
        assertTrue(s.count());
        assertNull(s.selectors());
        assertEquals("n", s.countName());
        assertTrue(((Statement.Select) Parser.parse("select count(1) from t")).count());
    }

    @Test
    void writesNumberTheirMarkersInTheOrderWritten() {
        Statement.Update u = (Statement.Update) Parser.parse(
                "UPDATE t USING TTL ? AND TIMESTAMP 5 SET value = :v WHERE key = ? AND column1 = -3");
        assertEquals(new Term.Marker(0, null), u.using().ttl());
        assertEquals(new Term.Literal(Token.Kind.INTEGER, "5"), u.using().timestamp());
        assertEquals(new Term.Marker(1, "v"), u.value());
        assertEquals(new Term.Literal(Token.Kind.INTEGER, "-3"), u.where().get(1).terms().get(0));
        Statement.Insert i = (Statement.Insert) Parser.parse(
                "INSERT INTO t (key, column1, value) VALUES ('it''s', 1.5e3, 5f1e6c4c-0a2b-4a63-9a60-6a0b9d1e2c3f)");
        assertEquals(List.of(new Term.Literal(Token.Kind.STRING, "it's"), new Term.Literal(Token.Kind.FLOAT, "1.5e3"),
                new Term.Literal(Token.Kind.UUID, "5f1e6c4c-0a2b-4a63-9a60-6a0b9d1e2c3f")), i.values());
        Statement.Delete d = (Statement.Delete) Parser.parse("DELETE value FROM t /* c */ WHERE key = $$x$$ -- end");
        assertEquals(List.of("value"), d.columns());
        assertEquals(new Term.Literal(Token.Kind.STRING, "x"), d.where().get(0).terms().get(0));
    }

    @Test
    void statementsNotServedAreRefusedNamingWhatIsNot() {
        assertRefused("CREATE TABLE t (k int PRIMARY KEY)", "CREATE is not served");
        assertRefused("BEGIN BATCH INSERT INTO t (key) VALUES (1) APPLY BATCH", "BATCH is not served");
        assertRefused("SELECT * FROM t WHERE token(key) > 0", "token() is not served");
        assertRefused("SELECT * FROM t WHERE column1 = 1 ALLOW FILTERING", "ALLOW FILTERING is not served");
        assertRefused("UPDATE t SET value = 1 WHERE key = 1 AND column1 = 1 IF value = 2", "(IF) is not served");
        assertRefused("INSERT INTO t (key) VALUES (1) IF NOT EXISTS", "(IF) is not served");
        assertRefused("SELECT max(value) FROM t", "a function in a selection is not served");
        assertRefused("INSERT INTO t (key, column1, value) VALUES (1, now(), 2)", "a function call (now) is not served");
        assertRefused("UPDATE t SET value = 1 + value WHERE key = 1", "an UPDATE that adds to a value (n + column) is not served");
        assertRefused("SELECT JSON * FROM t", "SELECT JSON is not served");
        assertRefused("TRUNCATE t", "TRUNCATE is not served");
    }

    @Test
    void parseErrorsNameTheirPlace() {
        assertRefused("SELEKT * FROM t", "line 1:0 no viable alternative at input 'SELEKT'");
        assertRefused("SELECT * FROM", "line 0:-1 no viable alternative at input '<EOF>'");
        assertRefused("SELECT * FROM t WHERE key = 1 junk", "line 1:30 no viable alternative at input 'junk'");
        assertRefused("SELECT * FROM t WHERE key = 'open", "line 1:28 unterminated string");
        assertRefused("SELECT * FROM t\nWHERE key = #", "line 2:12 no viable alternative at character '#'");
    }

    /** Random text, random tokens and mangled statements: a parse or a refusal, never anything else. */
    @Test
    void anyInputParsesOrIsRefused() {
        Random random = new Random(34);
        String[] words = {"SELECT", "INSERT", "UPDATE", "DELETE", "FROM", "WHERE", "INTO", "VALUES", "SET", "USING",
                "TTL", "TIMESTAMP", "AND", "IN", "ORDER", "BY", "DESC", "LIMIT", "COUNT", "writetime", "key", "column1",
                "value", "\"Cf\"", "*", "(", ")", ",", "=", "<", ">=", "?", ":m", "0x0a", "'s'", "-1", "2.5", "true",
                "null", ";", ".", "/*", "--", "$$", "\"", "'", "\n"};
        String base = "SELECT key, value FROM \"Cf\" WHERE key IN (0x01, ?) AND column1 > 'x' ORDER BY column1 DESC LIMIT 3";
        for (int i = 0; i < 30_000; i++) {
            String text = switch (i % 3) {
                case 0 -> randomChars(random);
                case 1 -> {
                    StringBuilder b = new StringBuilder();
                    for (int w = random.nextInt(14); w > 0; w--) b.append(words[random.nextInt(words.length)]).append(' ');
                    yield b.toString();
                }
                default -> {
                    StringBuilder b = new StringBuilder(base);
                    int edits = 1 + random.nextInt(3);
                    for (int e = 0; e < edits && b.length() > 0; e++) {
                        int at = random.nextInt(b.length());
                        if (random.nextBoolean()) b.deleteCharAt(at);
                        else b.insert(at, (char) (32 + random.nextInt(95)));
                    }
                    yield b.toString();
                }
            };
            try {
                Parser.parse(text);
            } catch (InvalidQueryException e) {
                assertTrue(e.getMessage() != null && !e.getMessage().isEmpty(), text);
            }
        }
    }

    private static String randomChars(Random random) {
        StringBuilder b = new StringBuilder();
        for (int n = random.nextInt(40); n > 0; n--) b.appendCodePoint(random.nextInt(5) == 0 ? random.nextInt(0x3000) : 32 + random.nextInt(95));
        return b.toString();
    }

    private static void assertRefused(String statement, String expected) {
        InvalidQueryException e = assertThrows(InvalidQueryException.class, () -> Parser.parse(statement));
        assertTrue(e.getMessage().contains(expected), () -> statement + ": " + e.getMessage());
        assertInstanceOf(InvalidQueryException.class, e);
    }
}
