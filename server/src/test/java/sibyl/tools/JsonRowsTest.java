package sibyl.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.Deletion;
import sibyl.db.SuperColumn;
import sibyl.db.Validators;
import sibyl.db.marshal.BytesType;
import sibyl.db.marshal.CounterColumnType;
import sibyl.db.marshal.LongType;
import sibyl.tools.JsonTokens.BadJson;

/** The export format: 0.6's shape exactly, Sibyl's additions for tombstones, and what the reader refuses. */
class JsonRowsTest {
    static final CFMetaData STD = CFMetaData.standard("Keyspace1", "Standard1", BytesType.instance);
    static final CFMetaData SUPER = CFMetaData.ofSuper("Keyspace1", "Super1", BytesType.instance, BytesType.instance);
    static final CFMetaData LONGS = CFMetaData.standard("Keyspace1", "Longs", LongType.instance);
    private static final Validators COUNTING = new Validators(BytesType.instance, CounterColumnType.instance, Map.of());
    static final CFMetaData COUNTERS = CFMetaData.standard("Keyspace1", "Counters1", BytesType.instance)
            .withValidators(COUNTING);
    static final CFMetaData SUPER_COUNTERS = CFMetaData.ofSuper("Keyspace1", "SuperCounters1", BytesType.instance,
            BytesType.instance).withValidators(COUNTING);
    private static final int NOW = 1_700_000_000;

    @Test
    void standardRowsAreArraysOfHexColumnsAndARowTombstoneAnObjectAroundThem() throws Exception {
        ColumnFamily jsmith = ColumnFamily.builder(STD, 2)
                .add(Column.live(b("first"), b("John"), 5))
                .add(Column.tombstone(b("last"), 6, 10))
                .build();
        ColumnFamily gone = ColumnFamily.builder(STD, 1).delete(7, 1_600_000_000)
                .add(Column.live(b("x"), b("y"), 8))
                .build();
        assertEquals("""
                {
                  "jsmith": [["6669727374", "4a6f686e", 5, false], ["6c617374", "0000000a", 6, true]],
                  "gone": {"deletedAt": 7, "localDeletionTime": 1600000000, "columns": [["78", "79", 8, false]]}
                }
                """, write(List.of("jsmith", "gone"), List.of(jsmith, gone)));
    }

    @Test
    void superColumnsNestAsIn06WithTheirLocalDeletionTimeWhenDeleted() throws Exception {
        ColumnFamily row = ColumnFamily.builder(SUPER, 2)
                .add(SuperColumn.builder(b("a"), BytesType.instance, 1).add(Column.live(b("c"), b("v"), 3)).build())
                .add(SuperColumn.builder(b("b"), BytesType.instance, 1).delete(9, 1_600_000_001)
                        .add(Column.live(b("c"), b("w"), 4)).build())
                .build();
        ColumnFamily deleted = ColumnFamily.builder(SUPER, 0).delete(11, 1_600_000_002).build();
        assertEquals("""
                {
                  "r": {"61": {"deletedAt": -9223372036854775808, "subColumns": [["63", "76", 3, false]]}, \
                "62": {"deletedAt": 9, "localDeletionTime": 1600000001, "subColumns": [["63", "77", 4, false]]}},
                  "d": {"deletedAt": 11, "localDeletionTime": 1600000002, "columns": {}}
                }
                """, write(List.of("r", "d"), List.of(row, deleted)));
    }

    /** A counter is its count as 8 bytes with a fifth element; it reads back as a counter, and only into counters. */
    @Test
    void countersRoundTripAndOnlyIntoACounterColumnFamily() throws Exception {
        ColumnFamily std = ColumnFamily.builder(COUNTERS, 2)
                .add(Column.counter(b("hits"), -5, 12))
                .add(Column.tombstone(b("gone"), 13, 1_600_000_000))
                .build();
        ColumnFamily sup = ColumnFamily.builder(SUPER_COUNTERS, 1)
                .add(SuperColumn.builder(b("s"), BytesType.instance, 1).add(Column.counter(b("c"), Long.MAX_VALUE, 7)).build())
                .build();
        String json = write(List.of("k"), List.of(std));
        assertEquals("""
                {
                  "k": [["676f6e65", "5f5e1000", 13, true], ["68697473", "fffffffffffffffb", 12, false, "counter"]]
                }
                """, json);
        assertSameRow(std, reader(COUNTERS, json).next().columns(), "standard");
        assertSameRow(sup, reader(SUPER_COUNTERS, write(List.of("k"), List.of(sup))).next().columns(), "super");

        BadJson intoColumns = assertThrows(BadJson.class, () -> readAll(STD, json));
        assertEquals("x.json:2:89: row \"k\": a counter in Standard1, which is not a counter column family",
                intoColumns.getMessage());
        BadJson columnIntoCounters = assertThrows(BadJson.class,
                () -> readAll(COUNTERS, "{\"k\": [[\"61\", \"00\", 1, false]]}"));
        assertEquals("x.json:1:15: row \"k\": a column in Counters1, which holds counters only (a counter is [name,"
                + " count, timestamp, false, \"counter\"])", columnIntoCounters.getMessage());
        BadJson shortCount = assertThrows(BadJson.class,
                () -> readAll(COUNTERS, "{\"k\": [[\"61\", \"00\", 1, false, \"counter\"]]}"));
        assertEquals("x.json:1:15: row \"k\": a counter's value is its count as 8 bytes; found 1", shortCount.getMessage());
        BadJson other = assertThrows(BadJson.class,
                () -> readAll(COUNTERS, "{\"k\": [[\"61\", \"00\", 1, false, \"c\"]]}"));
        assertEquals("x.json:1:31: row \"k\": a column's fifth element is a ttl or \"counter\"; found \"c\"",
                other.getMessage());
    }

    @Test
    void noRowsIsAnEmptyObject() throws Exception {
        assertEquals("{\n}\n", write(List.of(), List.of()));
        assertNull(reader(STD, "{\n}\n").next());
    }

    @Test
    void whatIsWrittenReadsBackIdentical() throws Exception {
        long seed = System.nanoTime();
        System.out.println("JsonRowsTest seed " + seed);
        Random random = new Random(seed);
        for (CFMetaData cf : List.of(STD, SUPER)) {
            List<String> keys = new ArrayList<>();
            List<ColumnFamily> rows = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                keys.add(randomKey(random));
                rows.add(randomRow(random, cf));
            }
            JsonRowReader reader = reader(cf, write(keys, rows));
            for (int i = 0; i < rows.size(); i++) {
                JsonRowReader.Row row = reader.next();
                assertEquals(keys.get(i), row.key(), "seed " + seed);
                assertSameRow(rows.get(i), row.columns(), "seed " + seed + ", row " + i);
                assertEquals(i + 2, row.line(), "one row per line");
            }
            assertNull(reader.next());
        }
    }

    /** Keys are any Java string, as Thrift hands them over: quotes, control characters, lone surrogates. */
    @Test
    void anyKeyRoundTrips() throws Exception {
        List<String> keys = List.of("quote\"back\\slash", "tab\tnew\nline\u0000nul", "\ud800lone", "emoji \ud83d\ude00", "é/ü");
        List<ColumnFamily> rows = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) rows.add(ColumnFamily.builder(STD, 1).add(Column.live(b("c"), b("v"), i)).build());
        String json = write(keys, rows);
        assertEquals(json, new String(json.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8), "valid UTF-8 throughout");
        JsonRowReader reader = reader(STD, json);
        for (String key : keys) assertEquals(key, reader.next().key());
        assertNull(reader.next());
    }

    /** What 0.6's sstable2json wrote: no row tombstones, super column tombstones without their local deletion time. */
    @Test
    void reads06sExportsTakingTheImportTimeForTombstonesWithoutOne() throws Exception {
        JsonRowReader reader = reader(SUPER, """
                {
                  "row1": {"73637a": {"deletedAt": -9223372036854775808, "subColumns": [["62", "32", 2, false], ["61", "31", 1, false]]}, "736361": {"deletedAt": 5, "subColumns": []}}
                }
                """);
        ColumnFamily row = reader.next().columns();
        List<Cell> cells = cells(row);
        assertEquals(2, cells.size());
        SuperColumn first = (SuperColumn) cells.get(0);
        assertEquals("sca", new String(first.name(), StandardCharsets.UTF_8), "super columns in comparator order");
        assertEquals(Deletion.of(5, NOW), first.deletion());
        SuperColumn second = (SuperColumn) cells.get(1);
        assertEquals(Deletion.LIVE, second.deletion());
        List<Column> subs = new ArrayList<>();
        second.subcolumns().forEach(subs::add);
        assertEquals(List.of(Column.live(b("a"), b("1"), 1), Column.live(b("b"), b("2"), 2)), subs, "sorted");
        assertNull(reader.next());

        ColumnFamily deleted = reader(STD, "{\"k\": {\"deletedAt\": 3}}").next().columns();
        assertEquals(Deletion.of(3, NOW), deleted.deletion());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "[]|x.json:1:1: expected '{' opening the rows (an object of row key to columns), found '['",
        "{\"k\": [[\"zz\", \"00\", 1, false]]}|x.json:1:9: row \"k\": column name \"zz\" is not hex (pairs of digits 0-9, a-f)",
        "{\"k\": [[\"\", \"00\", 1, false]]}|x.json:1:9: row \"k\": column name must not be empty",
        "{\"k\": [[\"61\", \"00\", 1.5, false]]}|x.json:1:21: row \"k\": the column timestamp: a whole number was expected, found a fraction or exponent",
        "{\"k\": [[\"61\", \"00\", 1, true]]}|x.json:1:15: row \"k\": a deleted column's value is its local deletion time, 4 bytes; found 1",
        "{\"k\": [[\"61\", \"00\", 1, true, 2, 3]]}|x.json:1:28: row \"k\": a deleted column has four elements [name, value, timestamp, true]; this one has more",
        "{\"k\": [[\"61\", \"00\", 1, false, 0, 3]]}|x.json:1:31: row \"k\": a ttl is a positive number of seconds; found 0",
        "{\"k\": [[\"61\", \"00\", 1, false, 2]]}|x.json:1:32: row \"k\": expected ',' after the column's ttl, found ']'",
        "{\"k\": [[\"61\", \"00\", 99999999999999999999, false]]}|x.json:1:21: row \"k\": the column timestamp: a number out of the range of a long",
        "{\"k\": [[\"61\", \"00\", 1, no]]}|x.json:1:24: row \"k\": expected true or false (whether the column is deleted), found 'n'",
        "{\"k\": {\"deletedAt\": 1, \"extra\": 2}}|x.json:1:24: row \"k\": unknown field \"extra\": a row of a standard column family is an array of columns, or {\"deletedAt\", \"localDeletionTime\", \"columns\"}",
        "{\"k\": {\"localDeletionTime\": 1}}|x.json:1:30: row \"k\": row has a localDeletionTime but no deletedAt",
        "{\"k\": {\"deletedAt\": 1, \"deletedAt\": 2}}|x.json:1:24: row \"k\": \"deletedAt\" given twice",
        "{\"\": []}|x.json:1:2: a row key must not be empty",
        "{\"k\": []} {|x.json:1:11: expected the end of the input after the closing '}', found '{'",
        "{\"k\": [],}|x.json:1:10: expected a row key (a string), found '}'",
        "{\"k\": []|x.json:1:9: row \"k\": expected ',' or '}' after a row, found the end of the input",
        "{\"k\": \"v\"}|x.json:1:7: row \"k\": expected the row's columns, an array of [name, value, timestamp, deleted], found '\"'",
        "{\"k\": [[\"61\", \"0\", 1, false]]}|x.json:1:15: row \"k\": column value \"0\" is not hex (pairs of digits 0-9, a-f)",
        "{\"a\\qb\": []}|x.json:1:2: unknown escape \\q in a string",
        "{\"k\": [[\"61\", \"00\", 01, false]]}|x.json:1:21: row \"k\": the column timestamp: a number with a leading zero",
    })
    void badInputIsRefusedWithFileLineColumnAndProblem(String json, String message) {
        BadJson e = assertThrows(BadJson.class, () -> readAll(STD, json));
        assertEquals(message, e.getMessage());
    }

    @Test
    void namesAreCheckedAgainstTheComparator() {
        BadJson e = assertThrows(BadJson.class, () -> readAll(LONGS, "{\n  \"k\": [[\"0102\", \"00\", 1, false]]\n}"));
        assertEquals("x.json:2:10: row \"k\": column name 0102 is not valid for org.apache.cassandra.db.marshal.LongType:"
                + " A long is exactly 8 bytes", e.getMessage());
        BadJson superShape = assertThrows(BadJson.class, () -> readAll(SUPER, "{\"k\": [[\"61\", \"00\", 1, false]]}"));
        assertEquals("x.json:1:7: row \"k\": expected the row's super columns, an object of hex name to super column,"
                + " found '['", superShape.getMessage());
        BadJson mixed = assertThrows(BadJson.class, () -> readAll(SUPER,
                "{\"k\": {\"deletedAt\": 1, \"61\": {\"deletedAt\": 2, \"subColumns\": []}}}"));
        assertEquals("x.json:1:24: row \"k\": super columns beside \"deletedAt\", \"localDeletionTime\" or \"columns\":"
                + " a row with a tombstone keeps its super columns under \"columns\"", mixed.getMessage());
    }

    @Test
    void aKeyInAnErrorIsEscapedSoTheMessageIsOneLine() {
        BadJson e = assertThrows(BadJson.class, () -> readAll(STD, "{\"a\\nb\": 5}"));
        assertEquals("x.json:1:10: row \"a\\nb\": expected the row's columns, an array of [name, value, timestamp, deleted],"
                + " found '5'", e.getMessage());
    }

    private static void readAll(CFMetaData cf, String json) throws IOException, BadJson {
        JsonRowReader reader = reader(cf, json);
        while (reader.next() != null) {
            // reading is the test
        }
    }

    static JsonRowReader reader(CFMetaData cf, String json) {
        return new JsonRowReader(new JsonTokens(new StringReader(json), "x.json"), cf, NOW);
    }

    static String write(List<String> keys, List<ColumnFamily> rows) throws IOException {
        StringWriter out = new StringWriter();
        JsonRowWriter writer = new JsonRowWriter(out);
        for (int i = 0; i < keys.size(); i++) writer.write(keys.get(i), rows.get(i));
        writer.finish();
        return out.toString();
    }

    static void assertSameRow(ColumnFamily expected, ColumnFamily actual, String message) {
        assertEquals(expected.deletion(), actual.deletion(), message);
        assertEquals(cells(expected), cells(actual), message);
        for (int i = 0; i < cells(expected).size(); i++) {
            if (cells(expected).get(i) instanceof SuperColumn sc) {
                assertEquals(sc.deletion(), ((SuperColumn) cells(actual).get(i)).deletion(), message);
            }
        }
    }

    static List<Cell> cells(ColumnFamily row) {
        List<Cell> cells = new ArrayList<>();
        row.cells().forEach(cells::add);
        return cells;
    }

    static String randomKey(Random random) {
        StringBuilder s = new StringBuilder();
        int length = 1 + random.nextInt(12);
        for (int i = 0; i < length; i++) {
            s.append(switch (random.nextInt(6)) {
                case 0 -> (char) random.nextInt(0x20);
                case 1 -> (char) (0x80 + random.nextInt(0xD000));
                case 2 -> '"';
                default -> (char) ('a' + random.nextInt(26));
            });
        }
        return s.toString();
    }

    /** A stored row version with everything a row can hold: live columns, tombstones, row and super column tombstones. */
    static ColumnFamily randomRow(Random random, CFMetaData cf) {
        ColumnFamily.Builder row = ColumnFamily.builder(cf, 8);
        if (random.nextInt(4) == 0) row.delete(random.nextLong(), random.nextInt());
        int cells = random.nextInt(6);
        for (int i = 0; i < cells; i++) {
            if (!cf.isSuper()) {
                row.add(randomColumn(random));
            } else {
                SuperColumn.Builder sc = SuperColumn.builder(randomName(random), cf.subcomparator(), 4);
                if (random.nextInt(3) == 0) sc.delete(random.nextLong(), random.nextInt());
                int subs = random.nextInt(4);
                for (int j = 0; j < subs; j++) sc.add(randomColumn(random));
                row.add(sc.build());
            }
        }
        if (row.isEmpty()) row.add(cf.isSuper()
                ? SuperColumn.builder(randomName(random), cf.subcomparator(), 0).delete(1, 2).build() : randomColumn(random));
        return row.build();
    }

    private static Column randomColumn(Random random) {
        byte[] value = new byte[random.nextInt(20)];
        random.nextBytes(value);
        return switch (random.nextInt(6)) {
            case 0 -> Column.tombstone(randomName(random), random.nextLong(), random.nextInt());
            case 1 -> Column.expiring(randomName(random), value, random.nextLong(), 1 + random.nextInt(Integer.MAX_VALUE - 1),
                    random.nextInt(Integer.MAX_VALUE));
            default -> Column.live(randomName(random), value, random.nextLong());
        };
    }

    private static byte[] randomName(Random random) {
        byte[] name = new byte[1 + random.nextInt(10)];
        random.nextBytes(name);
        return name;
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
