package sibyl.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.ColumnFamily;

/**
 * The data file of one SSTable read as rows of its format: all that the readers of one row ({@link SliceRead},
 * {@link CellCursor}) and of rows in ring order ({@link SSTableScanner}) need, and nothing of the index, the caches
 * or the SSTable's lifetime. Whoever reads through it holds a reference to the SSTable that owns the file.
 *
 * @param metadata the column family, whose comparator orders the cells and whose type says what a cell is
 */
record RowFile(PositionalFile data, RowFormat format, CFMetaData metadata) {
    Path path() {
        return data.path();
    }

    /**
     * The first bytes of a row with its decoded header: one small read, which holds all of a
     * small row; a second one only when the column index is larger than that read.
     */
    RowStart readStart(IndexEntry entry) throws IOException {
        byte[] head = data.read(entry.dataOffset(), Math.min(entry.rowLength(), RowHeader.TYPICAL_SPAN));
        int span;
        while ((span = format.headerSpan(head, entry.rowLength(), data.path(), entry.dataOffset())) > head.length) {
            head = data.read(entry.dataOffset(), span);
        }
        RowHeader header = format.readHeader(head, entry.rowLength(), data.path(), entry.dataOffset());
        checkKey(header, entry);
        return new RowStart(head, header);
    }

    /**
     * Decodes a whole row read from the data file, checking every checksum. The row is the first
     * {@code entry.rowLength()} bytes of {@code row}, which the result does not refer to: a
     * caller may reuse the array.
     */
    ColumnFamily decodeRow(byte[] row, IndexEntry entry) {
        RowHeader header = format.readHeader(row, entry.rowLength(), data.path(), entry.dataOffset());
        checkKey(header, entry);
        ColumnFamily.Builder cells = ColumnFamily.builder(metadata, Math.max(0, Math.min(header.cellCount(), 1 << 16)))
                .delete(header.deletion());
        for (ColumnIndexBlock block : header.blocks()) {
            int at = header.blocksStart() + block.offset();
            BlockDecoder.decode(format, row, at, block.length(), metadata, data.path(), entry.dataOffset() + at,
                    cells::add);
        }
        if (cells.size() != header.cellCount()) {
            throw new CorruptSSTableException(data.path(), entry.dataOffset(), "row of key " + entry.key() + " holds "
                    + cells.size() + " cells, its header says " + header.cellCount());
        }
        return cells.build();
    }

    private void checkKey(RowHeader header, IndexEntry entry) {
        if (!header.key().equals(entry.key())) {
            throw new CorruptSSTableException(data.path(), entry.dataOffset(), "row of key " + header.key()
                    + " where the index has key " + entry.key());
        }
    }

    /** A row of the header's tombstone and {@code cells}, which are in comparator order. */
    ColumnFamily rowOf(RowHeader header, List<Cell> cells) {
        ColumnFamily.Builder row = ColumnFamily.builder(metadata, cells.size()).delete(header.deletion());
        for (Cell c : cells) row.add(c);
        return row.build();
    }
}
