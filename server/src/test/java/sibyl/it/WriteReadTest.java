package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static sibyl.it.Requests.all;
import static sibyl.it.Requests.b;
import static sibyl.it.Requests.column;
import static sibyl.it.Requests.cosc;
import static sibyl.it.Requests.hex;
import static sibyl.it.Requests.hexNamesOf;
import static sibyl.it.Requests.longName;
import static sibyl.it.Requests.names;
import static sibyl.it.Requests.namesOf;
import static sibyl.it.Requests.parent;
import static sibyl.it.Requests.path;
import static sibyl.it.Requests.range;
import static sibyl.it.Requests.superColumn;
import static sibyl.it.Requests.text;
import static sibyl.it.Requests.timeUuid;
import static sibyl.it.Requests.uuid;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.NotFoundException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * insert, get, get_slice, multiget, multiget_slice, get_count and remove through the generated
 * client on a real node (docs/semantics.md §Reads, §Tombstones, §Writes), over standard and
 * super column families and every comparator. Each test uses its own row keys, so they share
 * one node. Runs against each backend ({@link TestNode.Backend}).
 */
@ParameterizedClass
@MethodSource("sibyl.it.TestNode#backends")
class WriteReadTest {
    private static final String KS = "Keyspace1";
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;

    /** The shipped schema has no AsciiType or LexicalUUIDType column family; this node has one of each type. */
    @RegisterExtension
    static final NodeExtension NODE = NodeExtension.onEachBackend().edit(ConfEdits.addKeyspace(ConfEdits.keyspace(
            "Types", 1, cf("Bytes", "BytesType"), cf("Ascii", "AsciiType"), cf("Utf8", "UTF8Type"),
            cf("Long", "LongType"), cf("Lexical", "LexicalUUIDType"), cf("Time", "TimeUUIDType"),
            "<ColumnFamily Name=\"SuperLong\" ColumnType=\"Super\" CompareWith=\"LongType\""
                    + " CompareSubcolumnsWith=\"TimeUUIDType\"/>")));
    @NodeExtension.Connected
    static Cassandra.Client c;

    @Parameter
    TestNode.Backend backend;

    private static String cf(String name, String comparator) {
        return "<ColumnFamily Name=\"" + name + "\" CompareWith=\"" + comparator + "\"/>";
    }

    private static void insert(String key, String cf, String column, String value, long ts) throws Exception {
        c.insert(KS, key, path(cf, column), b(value), ts, ONE);
    }

    private static void insertSub(String key, String cf, String sc, String column, String value, long ts)
            throws Exception {
        c.insert(KS, key, path(cf, sc, column), b(value), ts, ONE);
    }

    private static List<ColumnOrSuperColumn> slice(String key, String cf) throws Exception {
        return c.get_slice(KS, key, parent(cf), all(), ONE);
    }

    private static String valueOf(String key, String cf, String column) throws Exception {
        return text(c.get(KS, key, path(cf, column), ONE).getColumn().bufferForValue());
    }

    // ---- standard column families

    @Test
    void insertedColumnComesBackWithItsValueAndTimestamp() throws Exception {
        insert("wr-get", "Standard1", "c1", "v1", 17);
        ColumnOrSuperColumn got = c.get(KS, "wr-get", path("Standard1", "c1"), ONE);
        assertEquals(cosc(column("c1", "v1", 17)), got);
        assertFalse(got.isSetSuper_column());
        assertThrows(NotFoundException.class, () -> c.get(KS, "wr-get", path("Standard1", "c2"), ONE));
        assertThrows(NotFoundException.class, () -> c.get(KS, "wr-nothing", path("Standard1", "c1"), ONE));
        // The same column name in another column family of the same row is another column.
        assertThrows(NotFoundException.class, () -> c.get(KS, "wr-get", path("Standard2", "c1"), ONE));
        assertEquals(List.of(), slice("wr-nothing", "Standard1"), "a missing row is an empty slice");
    }

    @Test
    void sliceByNamesIsInComparatorOrderWithoutDuplicatesOrMissingNames() throws Exception {
        for (String n : List.of("a", "b", "c", "d")) insert("wr-names", "Standard1", n, "v" + n, 1);
        assertEquals(List.of("a", "c", "d"),
                namesOf(c.get_slice(KS, "wr-names", parent("Standard1"), names("d", "a", "zz", "c", "a"), ONE)));
        assertEquals(List.of(), c.get_slice(KS, "wr-names", parent("Standard1"), names(), ONE),
                "an empty name list selects nothing");
        assertEquals(List.of(cosc(column("b", "vb", 1))),
                c.get_slice(KS, "wr-names", parent("Standard1"), names("b"), ONE));
    }

    @Test
    void sliceByRangeHonoursStartFinishReversedAndCount() throws Exception {
        for (String n : List.of("a", "b", "c", "d", "e")) insert("wr-range", "Standard1", n, "v", 1);
        assertEquals(List.of("a", "b", "c", "d", "e"), sliceNames("wr-range", "", "", false, 100));
        assertEquals(List.of("b", "c", "d"), sliceNames("wr-range", "b", "d", false, 100), "inclusive bounds");
        assertEquals(List.of("b", "c"), sliceNames("wr-range", "b", "d", false, 2));
        assertEquals(List.of("c", "d", "e"), sliceNames("wr-range", "bb", "", false, 100), "start between columns");
        assertEquals(List.of("a", "b"), sliceNames("wr-range", "", "bz", false, 100));
        assertEquals(List.of("e", "d", "c", "b", "a"), sliceNames("wr-range", "", "", true, 100));
        assertEquals(List.of("d", "c", "b"), sliceNames("wr-range", "d", "b", true, 100));
        assertEquals(List.of("e", "d"), sliceNames("wr-range", "", "", true, 2));
        assertEquals(List.of("b", "a"), sliceNames("wr-range", "b", "", true, 100), "reversed from b to the first");
        assertEquals(List.of(), sliceNames("wr-range", "", "", false, 0), "count 0");
        assertEquals(List.of(), sliceNames("wr-range", "f", "", false, 100));
        assertEquals(List.of("c"), sliceNames("wr-range", "c", "c", false, 100));
    }

    private static List<String> sliceNames(String key, String start, String finish, boolean reversed, int count)
            throws Exception {
        return namesOf(c.get_slice(KS, key, parent("Standard1"), range(start, finish, reversed, count), ONE));
    }

    @Test
    void countOnlyCountsLiveColumns() throws Exception {
        for (String n : List.of("a", "b", "c", "d")) insert("wr-count", "Standard1", n, "v", 5);
        c.remove(KS, "wr-count", path("Standard1", "a"), 6, ONE);
        c.remove(KS, "wr-count", path("Standard1", "b"), 6, ONE);
        assertEquals(List.of("c", "d"), sliceNames("wr-count", "", "", false, 2));
        assertEquals(List.of("c"), sliceNames("wr-count", "", "", false, 1), "tombstones do not use up the count");
        assertEquals(2, c.get_count(KS, "wr-count", parent("Standard1"), ONE));
    }

    @Test
    void multigetAnswersEveryKeyWithAnEmptyEntryForMissingOnes() throws Exception {
        insert("wr-mg1", "Standard1", "col", "one", 1);
        insert("wr-mg2", "Standard1", "col", "two", 1);
        insert("wr-mg3", "Standard1", "other", "x", 1);
        Map<String, ColumnOrSuperColumn> got = c.multiget(KS, List.of("wr-mg1", "wr-mg2", "wr-mg1", "wr-mg3", "wr-mgX"),
                path("Standard1", "col"), ONE);
        assertEquals(Map.of("wr-mg1", cosc(column("col", "one", 1)), "wr-mg2", cosc(column("col", "two", 1)),
                "wr-mg3", new ColumnOrSuperColumn(), "wr-mgX", new ColumnOrSuperColumn()), got);
        assertFalse(got.get("wr-mgX").isSetColumn() || got.get("wr-mgX").isSetSuper_column());
    }

    @Test
    void multigetSliceAnswersEveryDistinctKey() throws Exception {
        insert("wr-ms1", "Standard1", "a", "1", 1);
        insert("wr-ms1", "Standard1", "b", "2", 1);
        insert("wr-ms2", "Standard1", "b", "3", 1);
        Map<String, List<ColumnOrSuperColumn>> got = c.multiget_slice(KS,
                List.of("wr-ms2", "wr-ms1", "wr-ms2", "wr-msX"), parent("Standard1"), range("b", "", false, 10), ONE);
        assertEquals(Map.of("wr-ms1", List.of(cosc(column("b", "2", 1))), "wr-ms2", List.of(cosc(column("b", "3", 1))),
                "wr-msX", List.of()), got);
        assertEquals(Map.of(), c.multiget_slice(KS, List.of(), parent("Standard1"), all(), ONE));
    }

    /** The 0/2/2/2 counts of 0.6's system test: an empty CF, a standard row, a super column, a super row. */
    @Test
    void getCountOfColumnsSubcolumnsAndSuperColumns() throws Exception {
        insert("wr-gc", "Standard1", "c1", "v", 1);
        insert("wr-gc", "Standard1", "c2", "v", 1);
        insertSub("wr-gc", "Super1", "sc1", "c4", "v", 1);
        insertSub("wr-gc", "Super1", "sc2", "c5", "v", 1);
        insertSub("wr-gc", "Super1", "sc2", "c6", "v", 1);
        assertEquals(0, c.get_count(KS, "wr-gc", parent("Standard2"), ONE));
        assertEquals(2, c.get_count(KS, "wr-gc", parent("Standard1"), ONE));
        assertEquals(2, c.get_count(KS, "wr-gc", parent("Super1", "sc2"), ONE));
        assertEquals(2, c.get_count(KS, "wr-gc", parent("Super1"), ONE));
        assertEquals(0, c.get_count(KS, "wr-gc-none", parent("Super1"), ONE));
        assertEquals(0, c.get_count(KS, "wr-gc", parent("Super1", "sc9"), ONE));
    }

    // ---- super column families

    @Test
    void superColumnsAndSubcolumnsAreReadAtEachLevel() throws Exception {
        insertSub("wr-sup", "Super1", "sc2", "b", "vb", 3);
        insertSub("wr-sup", "Super1", "sc1", "z", "vz", 2);
        insertSub("wr-sup", "Super1", "sc1", "a", "va", 1);
        assertEquals(cosc(column("z", "vz", 2)), c.get(KS, "wr-sup", path("Super1", "sc1", "z"), ONE));
        assertEquals(cosc(superColumn("sc1", column("a", "va", 1), column("z", "vz", 2))),
                c.get(KS, "wr-sup", path("Super1", "sc1", null), ONE), "a super column with its subcolumns in order");
        assertThrows(NotFoundException.class, () -> c.get(KS, "wr-sup", path("Super1", "sc3", null), ONE));
        assertThrows(NotFoundException.class, () -> c.get(KS, "wr-sup", path("Super1", "sc1", "b"), ONE));

        assertEquals(List.of(cosc(superColumn("sc1", column("a", "va", 1), column("z", "vz", 2))),
                cosc(superColumn("sc2", column("b", "vb", 3)))), slice("wr-sup", "Super1"));
        assertEquals(List.of(cosc(superColumn("sc2", column("b", "vb", 3))),
                cosc(superColumn("sc1", column("a", "va", 1), column("z", "vz", 2)))),
                c.get_slice(KS, "wr-sup", parent("Super1"), range("", "", true, 10), ONE),
                "reversed super columns keep their subcolumns in natural order");
        assertEquals(List.of("sc1"), namesOf(c.get_slice(KS, "wr-sup", parent("Super1"), range("", "", false, 1), ONE)),
                "count counts super columns");
        assertEquals(List.of(cosc(column("z", "vz", 2)), cosc(column("a", "va", 1))),
                c.get_slice(KS, "wr-sup", parent("Super1", "sc1"), range("", "", true, 10), ONE));
        assertEquals(List.of("z"),
                namesOf(c.get_slice(KS, "wr-sup", parent("Super1", "sc1"), names("z", "q"), ONE)));
        assertEquals(List.of("sc2"), namesOf(c.get_slice(KS, "wr-sup", parent("Super1"), names("sc2", "sc7"), ONE)));

        Map<String, ColumnOrSuperColumn> multi = c.multiget(KS, List.of("wr-sup", "wr-supX"),
                path("Super1", "sc2", null), ONE);
        assertEquals(Map.of("wr-sup", cosc(superColumn("sc2", column("b", "vb", 3))),
                "wr-supX", new ColumnOrSuperColumn()), multi);
    }

    @Test
    void superColumnWithoutLiveSubcolumnsIsAbsent() throws Exception {
        insertSub("wr-supdead", "Super1", "sc1", "a", "v", 1);
        insertSub("wr-supdead", "Super1", "sc2", "a", "v", 1);
        c.remove(KS, "wr-supdead", path("Super1", "sc1", "a"), 2, ONE);
        assertThrows(NotFoundException.class, () -> c.get(KS, "wr-supdead", path("Super1", "sc1", null), ONE));
        assertEquals(List.of("sc2"), namesOf(slice("wr-supdead", "Super1")));
        assertEquals(1, c.get_count(KS, "wr-supdead", parent("Super1"), ONE));
        assertEquals(Map.of("wr-supdead", new ColumnOrSuperColumn()),
                c.multiget(KS, List.of("wr-supdead"), path("Super1", "sc1", null), ONE));
    }

    // ---- remove at every level

    @Test
    void removeStandardColumnAndRow() throws Exception {
        for (String n : List.of("a", "b", "c")) insert("wr-rm", "Standard1", n, "v", 10);
        insert("wr-rm", "Standard2", "a", "other cf", 10);
        c.remove(KS, "wr-rm", path("Standard1", "b"), 11, ONE);
        assertEquals(List.of("a", "c"), namesOf(slice("wr-rm", "Standard1")));
        assertThrows(NotFoundException.class, () -> c.get(KS, "wr-rm", path("Standard1", "b"), ONE));
        c.remove(KS, "wr-rm", path("Standard1"), 11, ONE);
        assertEquals(List.of(), slice("wr-rm", "Standard1"));
        assertEquals(0, c.get_count(KS, "wr-rm", parent("Standard1"), ONE));
        assertEquals(List.of("a"), namesOf(slice("wr-rm", "Standard2")), "a row deletion is per column family");
    }

    @Test
    void removeSuperRowSuperColumnAndSubcolumn() throws Exception {
        for (String sc : List.of("s1", "s2", "s3")) {
            for (String col : List.of("a", "b")) insertSub("wr-rms", "Super1", sc, col, sc + col, 10);
        }
        c.remove(KS, "wr-rms", path("Super1", "s1", "a"), 11, ONE);
        assertEquals(List.of(cosc(superColumn("s1", column("b", "s1b", 10)))),
                c.get_slice(KS, "wr-rms", parent("Super1"), names("s1"), ONE));
        c.remove(KS, "wr-rms", path("Super1", "s2", null), 11, ONE);
        assertEquals(List.of("s1", "s3"), namesOf(slice("wr-rms", "Super1")));
        assertEquals(List.of(), c.get_slice(KS, "wr-rms", parent("Super1", "s2"), all(), ONE));
        c.remove(KS, "wr-rms", path("Super1"), 11, ONE);
        assertEquals(List.of(), slice("wr-rms", "Super1"));
        assertThrows(NotFoundException.class, () -> c.get(KS, "wr-rms", path("Super1", "s3", "a"), ONE));
    }

    // ---- timestamps and tombstones (docs/semantics.md §Tombstones)

    @Test
    void higherTimestampWinsWhicheverArrivesFirst() throws Exception {
        insert("wr-ts", "Standard1", "c", "new", 20);
        insert("wr-ts", "Standard1", "c", "old", 10);
        assertEquals("new", valueOf("wr-ts", "Standard1", "c"));
        insert("wr-ts", "Standard1", "c", "newer", 21);
        assertEquals(cosc(column("c", "newer", 21)), c.get(KS, "wr-ts", path("Standard1", "c"), ONE));
    }

    @Test
    void equalTimestampsTheLargerValueWins() throws Exception {
        insert("wr-tie", "Standard1", "c", "bbb", 5);
        insert("wr-tie", "Standard1", "c", "aaa", 5);
        insert("wr-tie", "Standard1", "d", "aaa", 5);
        insert("wr-tie", "Standard1", "d", "bbb", 5);
        assertEquals("bbb", valueOf("wr-tie", "Standard1", "c"));
        assertEquals("bbb", valueOf("wr-tie", "Standard1", "d"));
        // unsigned byte order: 0xff beats 0x7f; a longer value beats its prefix
        c.insert(KS, "wr-tie", path("Standard1", "e"), b((byte) 0xff), 5, ONE);
        c.insert(KS, "wr-tie", path("Standard1", "e"), b((byte) 0x7f, (byte) 0x7f), 5, ONE);
        assertEquals("ff", hex(c.get(KS, "wr-tie", path("Standard1", "e"), ONE).getColumn().bufferForValue()));
        insert("wr-tie", "Standard1", "f", "ab", 5);
        insert("wr-tie", "Standard1", "f", "a", 5);
        assertEquals("ab", valueOf("wr-tie", "Standard1", "f"));
    }

    @Test
    void deletionWinsATieAndOnlyANewerWriteResurrects() throws Exception {
        insert("wr-tomb", "Standard1", "c", "v", 7);
        c.remove(KS, "wr-tomb", path("Standard1", "c"), 7, ONE);
        assertThrows(NotFoundException.class, () -> c.get(KS, "wr-tomb", path("Standard1", "c"), ONE));
        insert("wr-tomb", "Standard1", "c", "zzz", 7);
        assertThrows(NotFoundException.class, () -> c.get(KS, "wr-tomb", path("Standard1", "c"), ONE),
                "a live write at the tombstone's timestamp stays hidden");
        insert("wr-tomb", "Standard1", "c", "back", 8);
        assertEquals("back", valueOf("wr-tomb", "Standard1", "c"));

        // a row tombstone hides every column up to its timestamp, including later arrivals
        insert("wr-tomb", "Standard1", "d", "v", 9);
        c.remove(KS, "wr-tomb", path("Standard1"), 10, ONE);
        insert("wr-tomb", "Standard1", "e", "v", 10);
        insert("wr-tomb", "Standard1", "f", "v", 11);
        assertEquals(List.of("f"), namesOf(slice("wr-tomb", "Standard1")));
        // an older remove changes nothing
        c.remove(KS, "wr-tomb", path("Standard1", "f"), 3, ONE);
        assertEquals("v", valueOf("wr-tomb", "Standard1", "f"));
    }

    @Test
    void superTombstonesHideOlderSubcolumnsOnly() throws Exception {
        insertSub("wr-stomb", "Super1", "sc", "old", "v", 5);
        c.remove(KS, "wr-stomb", path("Super1", "sc", null), 6, ONE);
        insertSub("wr-stomb", "Super1", "sc", "tie", "v", 6);
        insertSub("wr-stomb", "Super1", "sc", "new", "v", 7);
        assertEquals(cosc(superColumn("sc", column("new", "v", 7))),
                c.get(KS, "wr-stomb", path("Super1", "sc", null), ONE));
        c.remove(KS, "wr-stomb", path("Super1"), 7, ONE);
        assertEquals(List.of(), slice("wr-stomb", "Super1"));
        insertSub("wr-stomb", "Super1", "sc", "old", "again", 8);
        assertEquals(List.of(cosc(superColumn("sc", column("old", "again", 8)))), slice("wr-stomb", "Super1"));
    }

    // ---- comparators

    /** Inserts {@code ordered} shuffled into {@code cf} of Types and expects the slice in that order. */
    private static void assertOrder(String key, String cf, List<ByteBuffer> ordered) throws Exception {
        List<ByteBuffer> shuffled = new ArrayList<>(ordered);
        Collections.shuffle(shuffled, new Random(key.hashCode()));
        for (ByteBuffer name : shuffled) c.insert("Types", key, new ColumnPath(cf).setColumn(name), b("v"), 1, ONE);
        List<String> expected = ordered.stream().map(Requests::hex).toList();
        assertEquals(expected, hexNamesOf(c.get_slice("Types", key, parent(cf), all(), ONE)), cf + " order");
        List<String> reversed = new ArrayList<>(expected);
        Collections.reverse(reversed);
        assertEquals(reversed, hexNamesOf(c.get_slice("Types", key, parent(cf), range(b(), b(), true, 1000), ONE)),
                cf + " reversed order");
        // a bounded slice from the second name to the second-last
        int n = ordered.size();
        assertEquals(expected.subList(1, n - 1), hexNamesOf(c.get_slice("Types", key, parent(cf),
                range(ordered.get(1), ordered.get(n - 2), false, 1000), ONE)), cf + " bounded slice");
        assertEquals(reversed.subList(1, n - 1), hexNamesOf(c.get_slice("Types", key, parent(cf),
                range(ordered.get(n - 2), ordered.get(1), true, 1000), ONE)), cf + " bounded reversed slice");
    }

    @Test
    void bytesAndAsciiSortUnsignedWithPrefixesFirst() throws Exception {
        List<ByteBuffer> ordered = List.of(b((byte) 0x00), b((byte) 0x01), b((byte) 0x01, (byte) 0x00),
                b((byte) 0x7f), b((byte) 0x80), b((byte) 0xff), b((byte) 0xff, (byte) 0xff));
        assertOrder("wr-bytes", "Bytes", ordered);
        assertOrder("wr-ascii", "Ascii", List.of(b("A"), b("B"), b("a"), b("ab"), b("b"), b((byte) 0x80)));
    }

    @Test
    void utf8SortsByCodePoint() throws Exception {
        // In UTF-16 order U+1F600 (a surrogate pair, 0xD83D...) would sort before U+FFFD; by code point it is after.
        assertOrder("wr-utf8", "Utf8", List.of(b("A"), b("a"), b("é"), b("中"), b("\uFFFD"), b("\uD83D\uDE00")));
        assertOrder("wr-utf8-shipped", "Utf8", List.of(b("a"), b("ab"), b("b"), b("ü")));
    }

    @Test
    void longSortsAsSignedNumbers() throws Exception {
        assertOrder("wr-long", "Long", List.of(longName(Long.MIN_VALUE), longName(-300), longName(-1), longName(0),
                longName(1), longName(255), longName(256), longName(Long.MAX_VALUE)));
        // and the shipped LongType CF of Twissandra
        for (long n : new long[] {5, -5, 0}) {
            c.insert("Twissandra", "wr-long", new ColumnPath("Timeline").setColumn(longName(n)),
                    b("v"), 1, ONE);
        }
        List<ColumnOrSuperColumn> got = c.get_slice("Twissandra", "wr-long", parent("Timeline"), all(), ONE);
        assertEquals(List.of(-5L, 0L, 5L), got.stream().map(x -> x.getColumn().bufferForName().getLong()).toList());
    }

    @Test
    void lexicalUuidSortsAsJavaUuidsWithSignedHalves() throws Exception {
        assertOrder("wr-lexical", "Lexical", List.of(uuid(new UUID(0x8000_0000_0000_0000L, 0)),
                uuid(new UUID(-1, 5)), uuid(new UUID(0, 0x8000_0000_0000_0000L)), uuid(new UUID(0, 0)),
                uuid(new UUID(0, 1)), uuid(new UUID(1, -1)), uuid(new UUID(0x7fff_ffff_ffff_ffffL, 0))));
    }

    @Test
    void timeUuidSortsByTimeThenBytes() throws Exception {
        // time order differs from byte order: time_low comes first in the bytes, last in the time
        List<ByteBuffer> ordered = List.of(uuid(timeUuid(1, 0)), uuid(timeUuid(0xFFFF_FFFFL, 0)),
                uuid(timeUuid(0x1_0000_0000L, 0)), uuid(timeUuid(0x1_0000_0000L, 1)),
                uuid(timeUuid(0x0FFF_0000_0000_0000L, 0)));
        assertOrder("wr-time", "Time", ordered);
        assertOrder("wr-time-shipped", "Time", ordered);
        List<ByteBuffer> backwards = new ArrayList<>(ordered);
        Collections.reverse(backwards);
        for (ByteBuffer name : backwards) {
            c.insert(KS, "wr-time", new ColumnPath("StandardByUUID1").setColumn(name),
                    b("v"), 1, ONE);
        }
        assertEquals(ordered.stream().map(Requests::hex).toList(),
                hexNamesOf(c.get_slice(KS, "wr-time", parent("StandardByUUID1"), all(), ONE)));
    }

    @Test
    void superColumnNamesAndSubcolumnNamesUseTheirOwnComparators() throws Exception {
        ByteBuffer early = uuid(timeUuid(100, 0));
        ByteBuffer late = uuid(timeUuid(0x1_0000_0000L, 0));
        for (long sc : new long[] {3, -3}) {
            for (ByteBuffer sub : List.of(late, early)) {
                c.insert("Types", "wr-superlong", new ColumnPath("SuperLong")
                        .setSuper_column(longName(sc)).setColumn(sub), b("v"), 1, ONE);
            }
        }
        List<ColumnOrSuperColumn> got = c.get_slice("Types", "wr-superlong", parent("SuperLong"), all(), ONE);
        assertEquals(List.of(-3L, 3L), got.stream().map(x -> x.getSuper_column().bufferForName().getLong()).toList());
        for (ColumnOrSuperColumn sc : got) {
            assertEquals(List.of(hex(early), hex(late)),
                    sc.getSuper_column().getColumns().stream().map(x -> hex(x.bufferForName())).toList());
        }
    }
}
