package sibyl.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.io.SSTableFixtures.render;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CFMetaData;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.ColumnSelection;
import sibyl.db.Deletion;
import sibyl.db.marshal.LongType;
import sibyl.dht.DecoratedKey;
import sibyl.dht.RandomPartitioner;
import sibyl.engine.Memtable;

/** A slice of a wide row reads only the column index blocks it needs. */
class WideRowSliceTest {
    private static final int COLUMNS = 5000;
    private static final int COLUMN_INDEX_SIZE = 4 * 1024;

    @TempDir
    Path dir;

    private final RandomPartitioner partitioner = new RandomPartitioner();
    private final CFMetaData cf = CFMetaData.standard(SSTableFixtures.KS, "Wide", LongType.instance);
    private final DecoratedKey wide = partitioner.decorateKey("wide");

    private static byte[] name(long i) {
        return ByteBuffer.allocate(8).putLong(i).array();
    }

    private SSTableReader writeWideRow() throws IOException {
        Memtable memtable = new Memtable(cf, Runnable::run);
        ColumnFamily row = ColumnFamily.empty(cf).withDeletion(5, 1_000_000);
        for (long i = 0; i < COLUMNS; i++) row = row.withCell(Column.live(name(i), new byte[32], 10 + i));
        memtable.apply(wide, row, COLUMNS);
        memtable.apply(partitioner.decorateKey("narrow"), ColumnFamily.empty(cf).withCell(Column.live(name(1), new byte[1], 1)), 1);
        return SSTableReader.open(SSTableFixtures.write(dir, 1, memtable, partitioner, COLUMN_INDEX_SIZE), cf, partitioner, 128);
    }

    @Test
    void aNarrowSliceReadsAFewBlocksNotTheRow() throws IOException {
        SSTableReader sstable = writeWideRow();
        try {
            long before = sstable.dataBytesRead();
            ColumnFamily whole = sstable.getRow(wide);
            long wholeBytes = sstable.dataBytesRead() - before;
            assertEquals(COLUMNS, whole.cellCount());

            before = sstable.dataBytesRead();
            ColumnFamily slice = sstable.readSlice(wide, ColumnSelection.range(name(2500), name(2509), false, 10));
            long sliceBytes = sstable.dataBytesRead() - before;
            assertEquals(10, slice.cellCount());
            assertEquals(Deletion.of(5, 1_000_000), slice.deletion(), "the row tombstone comes with any slice");
            assertEquals(render(SSTableRoundTripTest.filter(whole, ColumnSelection.range(name(2500), name(2509), false, 10))),
                    render(slice));
            // The header (column index of ~60 entries) plus one or two 4 KiB blocks, of ~285 KB.
            assertTrue(sliceBytes < 3 * COLUMN_INDEX_SIZE + RowHeader.TYPICAL_SPAN,
                    "slice read " + sliceBytes + " bytes, the whole row " + wholeBytes);
            assertTrue(sliceBytes * 20 < wholeBytes, "slice read " + sliceBytes + " bytes, the whole row " + wholeBytes);
        } finally {
            sstable.release();
        }
    }

    /** A Cassandra 0.6 row is sliced by its own column index just the same; its header holds a bloom filter too. */
    @Test
    void aCassandra06WideRowIsSlicedByItsColumnIndexToo() throws IOException {
        ColumnFamily row = ColumnFamily.empty(cf).withDeletion(5, 1_000_000);
        for (long i = 0; i < COLUMNS; i++) row = row.withCell(Column.live(name(i), new byte[32], 10 + i));
        Descriptor d = Cassandra06Writer.write(dir, "Wide", 2, partitioner, COLUMN_INDEX_SIZE, List.of(java.util.Map.entry(wide, row)));
        SSTableReader sstable = SSTableReader.open(d, cf, partitioner, 128);
        try {
            long before = sstable.dataBytesRead();
            ColumnFamily whole = sstable.getRow(wide);
            long wholeBytes = sstable.dataBytesRead() - before;
            before = sstable.dataBytesRead();
            ColumnSelection range = ColumnSelection.range(name(2500), name(2509), false, 10);
            ColumnFamily slice = sstable.readSlice(wide, range);
            long sliceBytes = sstable.dataBytesRead() - before;
            assertEquals(render(SSTableRoundTripTest.filter(whole, range)), render(slice));
            assertEquals(Deletion.of(5, 1_000_000), slice.deletion());
            assertTrue(sliceBytes * 8 < wholeBytes, "slice read " + sliceBytes + " bytes, the whole row " + wholeBytes);

            before = sstable.dataBytesRead();
            CellCursor cursor = sstable.cellsFrom(wide, name(4000), true);
            for (int i = 0; i < 5; i++) assertEquals(render(ColumnFamily.empty(cf).withCell(whole.cell(name(4000 - i)))),
                    render(ColumnFamily.empty(cf).withCell(cursor.next())));
            assertTrue((sstable.dataBytesRead() - before) * 8 < wholeBytes, "a cursor reads the blocks it goes through");
        } finally {
            sstable.release();
        }
    }

    @Test
    void namesReadOnlyTheirBlocks() throws IOException {
        SSTableReader sstable = writeWideRow();
        try {
            long before = sstable.dataBytesRead();
            ColumnFamily picked = sstable.readSlice(wide, ColumnSelection.names(List.of(name(4999), name(3), name(77_777))));
            long bytes = sstable.dataBytesRead() - before;
            assertEquals(2, picked.cellCount());
            assertEquals(Column.live(name(3), new byte[32], 13), picked.cell(name(3)));
            assertTrue(bytes < 3 * COLUMN_INDEX_SIZE + RowHeader.TYPICAL_SPAN, "names read " + bytes + " bytes");
        } finally {
            sstable.release();
        }
    }

    @Test
    void aCursorReadsOnlyTheBlocksItWentThrough() throws IOException {
        SSTableReader sstable = writeWideRow();
        try {
            for (boolean reversed : List.of(false, true)) {
                long before = sstable.dataBytesRead();
                CellCursor cursor = sstable.cellsFrom(wide, reversed ? new byte[0] : name(1000), reversed);
                for (int i = 0; i < 10; i++) {
                    long expected = reversed ? COLUMNS - 1 - i : 1000 + i;
                    assertEquals(Column.live(name(expected), new byte[32], 10 + expected), cursor.next());
                }
                long bytes = sstable.dataBytesRead() - before;
                assertTrue(bytes < 2 * COLUMN_INDEX_SIZE + RowHeader.TYPICAL_SPAN, "10 cells read " + bytes + " bytes");
            }
            CellCursor all = sstable.cellsFrom(wide, new byte[0], false);
            int n = 0;
            while (all.hasNext()) {
                assertEquals(Column.live(name(n), new byte[32], 10 + n), all.next());
                n++;
            }
            assertEquals(COLUMNS, n);
        } finally {
            sstable.release();
        }
    }

    @Test
    void reversedAndOpenEndedSlicesFindTheirEnds() throws IOException {
        SSTableReader sstable = writeWideRow();
        try {
            ColumnFamily last = sstable.readSlice(wide, ColumnSelection.range(new byte[0], name(4990), true, 5));
            assertEquals(10, last.cellCount(), "reversed from the end down to 4990");
            ColumnFamily first = sstable.readSlice(wide, ColumnSelection.range(new byte[0], name(4), false, 5));
            assertEquals(5, first.cellCount());
            ColumnFamily none = sstable.readSlice(wide, ColumnSelection.names(List.of()));
            assertEquals(0, none.cellCount());
            assertEquals(Deletion.of(5, 1_000_000), none.deletion());
        } finally {
            sstable.release();
        }
    }
}
