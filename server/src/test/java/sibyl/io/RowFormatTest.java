package sibyl.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static sibyl.io.SSTableFixtures.b;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import sibyl.db.CFMetaData;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.SuperColumn;
import sibyl.db.marshal.UTF8Type;

/**
 * A row's bytes in the data file, built here field by field from FORMAT.md's grammar rather than
 * by the code under test: SSTables written by any earlier version must keep reading back, so
 * the encoding of tombstones (row, super column, column) is pinned, not only its round trip.
 */
class RowFormatTest {
    private static final CFMetaData STANDARD = SSTableFixtures.standard(UTF8Type.instance);
    private static final CFMetaData SUPER = SSTableFixtures.ofSuper(UTF8Type.instance, UTF8Type.instance);

    @Test
    void aLiveStandardRowIsWrittenAsFormatMdSays() throws IOException {
        ColumnFamily row = ColumnFamily.empty(STANDARD)
                .withCell(Column.live(b("a"), b("v"), 7))
                .withCell(Column.tombstone(b("b"), 8, 1_650_000_003));

        Bytes cells = new Bytes();
        column(cells, "a", 0, 7, b("v"));
        column(cells, "b", 1, 8, int4(1_650_000_003));
        byte[] expected = row("key", Long.MIN_VALUE, Integer.MIN_VALUE, 2, cells.toByteArray());

        assertArrayEquals(expected, written("key", row));
        assertEquals(SSTableFixtures.render(row), SSTableFixtures.render(read(STANDARD, expected)));
    }

    @Test
    void rowAndSuperColumnTombstonesAreWrittenAsFormatMdSays() throws IOException {
        ColumnFamily row = ColumnFamily.empty(SUPER).withDeletion(40, 1_640_000_000)
                .withCell(SuperColumn.empty(b("a"), UTF8Type.instance).withDeletion(50, 1_650_000_000)
                        .withColumn(Column.live(b("x"), b("v"), 60))
                        .withColumn(Column.tombstone(b("y"), 61, 1_650_000_001)))
                .withCell(SuperColumn.empty(b("b"), UTF8Type.instance)
                        .withColumn(Column.live(b("z"), b("w"), 70)))
                .withCell(SuperColumn.empty(b("c"), UTF8Type.instance).withDeletion(80, 1_650_000_002));

        Bytes cells = new Bytes();
        superColumn(cells, "a", 50, 1_650_000_000, 2);
        column(cells, "x", 0, 60, b("v"));
        column(cells, "y", 1, 61, int4(1_650_000_001));
        superColumn(cells, "b", Long.MIN_VALUE, Integer.MIN_VALUE, 1);
        column(cells, "z", 0, 70, b("w"));
        superColumn(cells, "c", 80, 1_650_000_002, 0);
        byte[] expected = row("key", 40, 1_640_000_000, 3, cells.toByteArray());

        assertArrayEquals(expected, written("key", row));
        assertEquals(SSTableFixtures.render(row), SSTableFixtures.render(read(SUPER, expected)));
    }

    @Test
    void anExpiringColumnCarriesItsTtlAndExpirationAfterFlags2() throws IOException {
        ColumnFamily row = ColumnFamily.empty(STANDARD)
                .withCell(Column.expiring(b("a"), b("v"), 7, 3600, 1_800_003_600))
                .withCell(Column.live(b("b"), b("w"), 8));

        Bytes cells = new Bytes();
        name(cells, "a");
        cells.out.writeByte(2);
        cells.out.writeLong(7);
        cells.out.writeInt(3600);
        cells.out.writeInt(1_800_003_600);
        cells.out.writeInt(1);
        cells.out.write(b("v"));
        column(cells, "b", 0, 8, b("w"));
        byte[] expected = row("key", Long.MIN_VALUE, Integer.MIN_VALUE, 2, cells.toByteArray());

        assertArrayEquals(expected, written("key", row));
        ColumnFamily back = read(STANDARD, expected);
        assertEquals(Column.expiring(b("a"), b("v"), 7, 3600, 1_800_003_600), back.cell(b("a")));
        assertEquals(Column.live(b("b"), b("w"), 8), back.cell(b("b")));
    }

    private static byte[] written(String key, ColumnFamily row) throws IOException {
        RowSerializer serializer = new RowSerializer(64 * 1024);
        int length = serializer.serialize(key, row);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        serializer.writeTo(out);
        assertEquals(length, out.size());
        return out.toByteArray();
    }

    /** The row decoded as the reader decodes a whole row: header, then every block. */
    private static ColumnFamily read(CFMetaData metadata, byte[] bytes) {
        RowHeader header = RowHeader.read(bytes, bytes.length, Path.of("Data.db"), 0);
        ColumnFamily.Builder row = ColumnFamily.builder(metadata, header.cellCount()).delete(header.deletion());
        for (ColumnIndexBlock block : header.blocks()) {
            int at = header.blocksStart() + block.offset();
            BlockDecoder.decode(SibylRowFormat.INSTANCE, bytes, at, block.length(), metadata, Path.of("Data.db"), at, row::add);
        }
        assertEquals(header.cellCount(), row.size());
        return row.build();
    }

    /** row := headerLength i32 | header | headerCrc i32 | block, one block (no column index entries). */
    private static byte[] row(String key, long markedForDeleteAt, int localDeletionTime, int cellCount, byte[] cells)
            throws IOException {
        Bytes header = new Bytes();
        header.out.writeUTF(key);
        header.out.writeLong(markedForDeleteAt);
        header.out.writeInt(localDeletionTime);
        header.out.writeInt(cellCount);
        header.out.writeInt(1);
        byte[] h = header.toByteArray();
        Bytes row = new Bytes();
        row.out.writeInt(h.length);
        row.out.write(h);
        row.out.writeInt(crc(row.toByteArray()));
        row.out.write(cells);
        row.out.writeInt(crc(cells));
        return row.toByteArray();
    }

    /** cell (super) := name | deletion | subcolumnCount i32 | column*, deletion := markedForDeleteAt i64 | localDeletionTime i32. */
    private static void superColumn(Bytes out, String name, long markedForDeleteAt, int localDeletionTime,
                                    int subcolumns) throws IOException {
        name(out, name);
        out.out.writeLong(markedForDeleteAt);
        out.out.writeInt(localDeletionTime);
        out.out.writeInt(subcolumns);
    }

    /** column := name | flags u8 | timestamp i64 | valueLength i32 | value. */
    private static void column(Bytes out, String name, int flags, long timestamp, byte[] value) throws IOException {
        name(out, name);
        out.out.writeByte(flags);
        out.out.writeLong(timestamp);
        out.out.writeInt(value.length);
        out.out.write(value);
    }

    private static void name(Bytes out, String name) throws IOException {
        out.out.writeShort(b(name).length);
        out.out.write(b(name));
    }

    private static byte[] int4(int v) {
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }

    private static int crc(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes);
        return (int) crc.getValue();
    }

    private static final class Bytes extends ByteArrayOutputStream {
        final DataOutputStream out = new DataOutputStream(this);
    }
}
