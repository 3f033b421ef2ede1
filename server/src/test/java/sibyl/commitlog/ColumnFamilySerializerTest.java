package sibyl.commitlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.db.TestSchema.KS;
import static sibyl.db.TestSchema.b;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.Deletion;
import sibyl.db.KSMetaData;
import sibyl.db.ResolvedMutation;
import sibyl.db.SuperColumn;
import sibyl.db.TestSchema;
import sibyl.dht.BinaryKeys;

class ColumnFamilySerializerTest {
    private static final KSMetaData KS1 = TestSchema.keyspace1();
    private static final CFMetaData STD = KS1.columnFamily(TestSchema.STD).orElseThrow();
    private static final CFMetaData SUPER = KS1.columnFamily(TestSchema.SUPER).orElseThrow();

    @Test
    void emptyRowRoundTrips() throws IOException {
        assertSameRow(ColumnFamily.empty(STD), roundTrip(ColumnFamily.empty(STD)));
    }

    @Test
    void columnsAndColumnTombstonesKeepTimestampsValuesAndDeletionTimes() throws IOException {
        ColumnFamily row = ColumnFamily.empty(STD)
                .withCell(Column.live(b("a"), b("value a"), 10))
                .withCell(Column.live(b("b"), new byte[0], Long.MIN_VALUE + 1))
                .withCell(Column.tombstone(b("c"), 12, 1_700_000_123))
                .withCell(Column.live(new byte[0xFFFF], new byte[70_000], Long.MAX_VALUE));
        ColumnFamily back = roundTrip(row);
        assertSameRow(row, back);
        assertEquals(1_700_000_123, ((Column) back.cell(b("c"))).localDeletionTime());
    }

    @Test
    void countersAreLoggedAsTheirIncrementWithFlags4() throws IOException {
        Column increment = Column.counter(b("n"), -17, 12);
        ColumnFamily row = ColumnFamily.empty(STD).withCell(increment);
        byte[] bytes = serialize(row);
        assertEquals(ColumnFamilySerializer.serializedLength(row), bytes.length);
        // Deletion (12 bytes), count (4), then the column: name (2 + 1), flags.
        assertEquals(4, bytes[12 + 4 + 3]);
        ColumnFamily back = roundTrip(row);
        assertSameRow(row, back);
        assertTrue(((Column) back.cell(b("n"))).isCounter());
        assertEquals(-17, ((Column) back.cell(b("n"))).count());
    }

    @Test
    void expiringColumnsKeepTheirTtlAndExpirationAndAreWrittenWithFlags2() throws IOException {
        Column expiring = Column.expiring(b("e"), b("value e"), 10, 86400, 1_800_086_400);
        ColumnFamily row = ColumnFamily.empty(STD).withCell(expiring).withCell(Column.live(b("l"), b("v"), 11));
        byte[] bytes = serialize(row);
        assertEquals(ColumnFamilySerializer.serializedLength(row), bytes.length);
        // Deletion (12 bytes), count (4), then the column: name (2 + 1), flags.
        assertEquals(2, bytes[12 + 4 + 3]);
        ColumnFamily back = roundTrip(row);
        assertSameRow(row, back);
        assertEquals(86400, ((Column) back.cell(b("e"))).ttl());
        assertEquals(1_800_086_400, ((Column) back.cell(b("e"))).localExpirationTime());
        SuperColumn sc = SuperColumn.empty(b("sc"), SUPER.subcomparator()).withColumn(expiring);
        assertSameRow(ColumnFamily.empty(SUPER).withCell(sc), roundTrip(ColumnFamily.empty(SUPER).withCell(sc)));
    }

    @Test
    void rowTombstoneRoundTripsWithItsDeletionTime() throws IOException {
        ColumnFamily row = ColumnFamily.empty(STD).withDeletion(99, 1_600_000_000)
                .withCell(Column.live(b("x"), b("after"), 100));
        ColumnFamily back = roundTrip(row);
        assertSameRow(row, back);
        assertEquals(Deletion.of(99, 1_600_000_000), back.deletion());
    }

    @Test
    void superColumnsKeepTheirTombstonesAndSubcolumns() throws IOException {
        SuperColumn deleted = SuperColumn.empty(b("sc1"), SUPER.subcomparator()).withDeletion(50, 1_650_000_000)
                .withColumn(Column.live(b("s1"), b("v1"), 60))
                .withColumn(Column.tombstone(b("s2"), 61, 1_650_000_001));
        SuperColumn plain = SuperColumn.empty(b("sc2"), SUPER.subcomparator())
                .withColumn(Column.live(b("s3"), b("v3"), 70));
        SuperColumn onlyTombstone = SuperColumn.empty(b("sc3"), SUPER.subcomparator()).withDeletion(80, 1_650_000_002);
        ColumnFamily row = ColumnFamily.empty(SUPER).withDeletion(40, 1_640_000_000)
                .withCell(deleted).withCell(plain).withCell(onlyTombstone);
        ColumnFamily back = roundTrip(row);
        assertSameRow(row, back);
        SuperColumn sc = (SuperColumn) back.cell(b("sc1"));
        assertEquals(Deletion.of(50, 1_650_000_000), sc.deletion());
        assertTrue(sc.subcolumn(b("s2")).isTombstone());
    }

    @Test
    void tombstonesAreWrittenAsTheFormatSays() throws IOException {
        // Built field by field from the class comment's grammar: logs written by earlier versions must replay.
        ColumnFamily row = ColumnFamily.empty(SUPER).withDeletion(40, 1_640_000_000)
                .withCell(SuperColumn.empty(b("a"), SUPER.subcomparator()).withDeletion(50, 1_650_000_000)
                        .withColumn(Column.tombstone(b("y"), 61, 1_650_000_001)))
                .withCell(SuperColumn.empty(b("b"), SUPER.subcomparator()).withColumn(Column.live(b("z"), b("w"), 70)));
        ByteBuffer expected = ByteBuffer.allocate(ColumnFamilySerializer.serializedLength(row));
        expected.putLong(40).putInt(1_640_000_000).putInt(2);
        expected.putShort((short) 1).put(b("a")).putLong(50).putInt(1_650_000_000).putInt(1);
        expected.putShort((short) 1).put(b("y")).put((byte) 1).putLong(61).putInt(1_650_000_001);
        expected.putShort((short) 1).put(b("b")).putLong(Long.MIN_VALUE).putInt(Integer.MIN_VALUE).putInt(1);
        expected.putShort((short) 1).put(b("z")).put((byte) 0).putLong(70).putInt(1).put(b("w"));
        assertEquals(0, expected.remaining());

        assertArrayEquals(expected.array(), serialize(row));
        assertSameRow(row, ColumnFamilySerializer.deserialize(SUPER, input(expected.array())));
        byte[] live = ByteBuffer.allocate(16).putLong(Long.MIN_VALUE).putInt(Integer.MIN_VALUE).putInt(0).array();
        assertArrayEquals(live, serialize(ColumnFamily.empty(STD)));
    }

    @Test
    void truncatedInputFailsInsteadOfInventingData() throws IOException {
        ColumnFamily row = ColumnFamily.empty(STD).withCell(Column.live(b("a"), b("value"), 1));
        byte[] bytes = serialize(row);
        for (int cut = 0; cut < bytes.length; cut++) {
            byte[] part = Arrays.copyOf(bytes, cut);
            assertThrows(IOException.class, () -> ColumnFamilySerializer.deserialize(STD, input(part)), "cut at " + cut);
        }
    }

    @Test
    void unknownColumnFlagsAreRefused() throws IOException {
        byte[] bytes = serialize(ColumnFamily.empty(STD).withCell(Column.live(b("a"), b("v"), 1)));
        bytes[8 + 4 + 4 + 2 + 1] = 7; // the flags byte of the first column
        IOException e = assertThrows(IOException.class, () -> ColumnFamilySerializer.deserialize(STD, input(bytes)));
        assertTrue(e.getMessage().contains("flags"), e.getMessage());
    }

    @Test
    void mutationRoundTripsAndSkipsColumnFamiliesNoLongerConfigured() throws IOException {
        ColumnFamily std = ColumnFamily.empty(STD).withCell(Column.live(b("a"), b("1"), 1));
        ColumnFamily sup = ColumnFamily.empty(SUPER).withCell(SuperColumn.empty(b("s"), SUPER.subcomparator())
                .withColumn(Column.live(b("x"), b("2"), 2)));
        byte[] payload = ResolvedMutationSerializer.serialize(new ResolvedMutation(KS, "käy", List.of(std, sup)));

        List<String> unknown = new ArrayList<>();
        ResolvedMutation back = ResolvedMutationSerializer.deserialize(payload, ks -> Optional.of(KS1), unknown::add);
        assertEquals("käy", back.key());
        assertEquals(2, back.columnFamilies().size());
        assertSameRow(std, back.columnFamilies().get(0));
        assertSameRow(sup, back.columnFamilies().get(1));
        assertEquals(List.of(), unknown);

        KSMetaData withoutSuper = new KSMetaData(KS, 1, List.of(STD));
        back = ResolvedMutationSerializer.deserialize(payload, ks -> Optional.of(withoutSuper), unknown::add);
        assertEquals(1, back.columnFamilies().size());
        assertEquals(List.of(KS + "." + TestSchema.SUPER), unknown);

        unknown.clear();
        KSMetaData superNowStandard = new KSMetaData(KS, 1, List.of(STD,
                CFMetaData.standard(KS, TestSchema.SUPER, SUPER.comparator())));
        back = ResolvedMutationSerializer.deserialize(payload, ks -> Optional.of(superNowStandard), unknown::add);
        assertEquals(List.of(STD), back.columnFamilies().stream().map(ColumnFamily::metadata).toList());
        assertEquals(List.of(KS + "." + TestSchema.SUPER + " (written as Super)"), unknown);
    }

    @Test
    void aKeyOfBytesThatAreNotUtf8IsLoggedAsItsBytesAndReplayedAsTheSameKey() throws IOException {
        String key = BinaryKeys.decode(new byte[] {'k', (byte) 0xff, (byte) 0xc3});
        byte[] payload = ResolvedMutationSerializer.serialize(new ResolvedMutation(KS, key,
                List.of(ColumnFamily.empty(STD).withCell(Column.live(b("a"), b("1"), 1)))));
        byte[] logged = {0, 0, 0, 3, 'k', (byte) 0xff, (byte) 0xc3};
        int at = 4 + KS.length();
        assertArrayEquals(logged, Arrays.copyOfRange(payload, at, at + logged.length));
        assertEquals(key, ResolvedMutationSerializer.deserialize(payload, ks -> Optional.of(KS1), s -> { }).key());
    }

    @Test
    void mutationWithTrailingBytesIsRefused() {
        byte[] payload = ResolvedMutationSerializer.serialize(new ResolvedMutation(KS, "k",
                List.of(ColumnFamily.empty(STD).withDeletion(1, 1))));
        byte[] longer = Arrays.copyOf(payload, payload.length + 1);
        assertThrows(IOException.class,
                () -> ResolvedMutationSerializer.deserialize(longer, ks -> Optional.of(KS1), s -> { }));
    }

    static void assertSameRow(ColumnFamily expected, ColumnFamily actual) {
        assertEquals(expected.metadata(), actual.metadata());
        assertEquals(expected.deletion(), actual.deletion());
        assertEquals(expected.cellCount(), actual.cellCount());
        Iterator<Cell> a = actual.cells().iterator();
        for (Cell e : expected.cells()) {
            Cell c = a.next();
            assertEquals(e, c);
            if (e instanceof SuperColumn sc) {
                assertEquals(sc.deletion(), ((SuperColumn) c).deletion());
            }
        }
    }

    private static ColumnFamily roundTrip(ColumnFamily row) throws IOException {
        byte[] bytes = serialize(row);
        DataInputStream in = input(bytes);
        ColumnFamily back = ColumnFamilySerializer.deserialize(row.metadata(), in);
        assertEquals(0, in.available(), "all bytes read");
        return back;
    }

    private static byte[] serialize(ColumnFamily row) {
        return ColumnFamilySerializer.serialize(row);
    }

    private static DataInputStream input(byte[] bytes) {
        return new DataInputStream(new ByteArrayInputStream(bytes));
    }
}
