package sibyl.io;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Deletion;

/**
 * Cassandra 0.6's rows (FORMAT.md, "Cassandra 0.6 SSTables"):
 * <pre>
 * row    := diskKey (modified UTF-8) | size i32 | bloomLength i32 | bloom | indexLength i32 | indexEntry*
 *           | localDeletionTime i32 | markedForDeleteAt i64 | cellCount i32 | cell*
 * indexEntry := firstName name | lastName name | offset i64 | width i64
 * </pre>
 * {@code size} counts the bytes after it; the row's own bloom filter of its names is skipped; the column index
 * entries (of {@code indexLength} bytes in all) name blocks of cells by offset from the first cell, tiling the
 * cells exactly, so slices and cursors read blocks as in Sibyl's rows, without checksums (0.6 wrote none).
 */
final class Cassandra06RowFormat implements RowFormat {
    /** Bytes after the column index: localDeletionTime, markedForDeleteAt and the cell count. */
    private static final int DELETION_AND_COUNT = 4 + 8 + 4;

    private final Cassandra06Keys keys;

    Cassandra06RowFormat(Cassandra06Keys keys) {
        this.keys = keys;
    }

    /** The fewest bytes a row of a key of {@code keyBytes} encoded bytes takes: no bloom filter bytes, no cells. */
    static long minimumRowLength(int keyBytes) {
        return 2L + keyBytes + 4 + 4 + 4 + DELETION_AND_COUNT;
    }

    @Override
    public int headerSpan(byte[] head, int rowLength, Path file, long rowOffset) {
        // Three lengths decide where the cells begin: the key's, the bloom filter's and the column index's,
        // each found only once the bytes before it are at hand.
        long need = 2;
        if (head.length >= need) need += (((head[0] & 0xFF) << 8) | (head[1] & 0xFF)) + 4 + 4; // key, size, bloom length
        if (head.length >= need) need += lengthAt(head, need - 4, file, rowOffset) + 4; // bloom filter, index length
        if (head.length >= need) need += lengthAt(head, need - 4, file, rowOffset) + (long) DELETION_AND_COUNT;
        if (need > rowLength) {
            throw new CorruptSSTableException(file, rowOffset, "row header of at least " + need
                    + " bytes does not fit in a row of " + rowLength + " bytes");
        }
        return (int) need;
    }

    private static long lengthAt(byte[] head, long at, Path file, long rowOffset) {
        int length = ByteBuffer.wrap(head).getInt((int) at);
        if (length < 0) throw new CorruptSSTableException(file, rowOffset, "negative length " + length + " in the row header");
        return length;
    }

    @Override
    public RowHeader readHeader(byte[] row, int rowLength, Path file, long rowOffset) {
        try {
            int keyLength = ((row[0] & 0xFF) << 8) | (row[1] & 0xFF);
            String diskKey = ModifiedUtf8.decode(row, 0, 2 + keyLength);
            // The row's first bytes, at least the header: a slice reads no more of a wide row.
            ByteBuffer in = ByteBuffer.wrap(row, 2 + keyLength, Math.min(row.length, rowLength) - 2 - keyLength);
            int size = in.getInt();
            if (size != rowLength - in.position()) {
                throw new IllegalArgumentException("row size " + size + " where " + (rowLength - in.position())
                        + " bytes follow");
            }
            skip(in, in.getInt(), "bloom filter");
            int indexLength = in.getInt();
            if (indexLength < 0 || indexLength > in.remaining()) throw new IllegalArgumentException("column index of " + indexLength + " bytes");
            int indexEnd = in.position() + indexLength;
            List<ColumnIndexBlock> blocks = new ArrayList<>();
            while (in.position() < indexEnd) {
                byte[] first = CellSerializer.readName(in);
                byte[] last = CellSerializer.readName(in);
                long offset = in.getLong();
                long width = in.getLong();
                if (offset < 0 || offset > Integer.MAX_VALUE || width < 0 || width > Integer.MAX_VALUE) {
                    throw new IllegalArgumentException("column index block at " + offset + " of " + width + " bytes");
                }
                blocks.add(new ColumnIndexBlock(first, last, (int) offset, (int) width));
            }
            if (in.position() != indexEnd) throw new IllegalArgumentException("column index overruns its length");
            int localDeletionTime = in.getInt();
            Deletion deletion = Deletion.of(in.getLong(), localDeletionTime);
            int cellCount = in.getInt();
            if (cellCount < 0 || (cellCount == 0) != blocks.isEmpty()) {
                throw new IllegalArgumentException(cellCount + " cells with " + blocks.size() + " column index blocks");
            }
            RowHeader.checkBlocks(blocks, rowLength - in.position(), 0);
            return new RowHeader(keys.keyOf(diskKey, file, rowOffset), deletion, cellCount, blocks, in.position());
        } catch (IOException | BufferUnderflowException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new CorruptSSTableException(file, rowOffset, "malformed Cassandra 0.6 row header: " + e.getMessage(), e);
        }
    }

    private static void skip(ByteBuffer in, int length, String what) {
        if (length < 0 || length > in.remaining()) throw new IllegalArgumentException(what + " of " + length + " bytes");
        in.position(in.position() + length);
    }

    @Override
    public ByteBuffer blockCells(byte[] bytes, int offset, int length, Path file, long fileOffset) {
        return ByteBuffer.wrap(bytes, offset, length);
    }

    @Override
    public Cell read(ByteBuffer in, CFMetaData metadata) {
        return Cassandra06Cells.read(in, metadata);
    }

    @Override
    public Cell readIf(ByteBuffer in, CFMetaData metadata, Predicate<byte[]> wanted) {
        return Cassandra06Cells.readIf(in, metadata, wanted);
    }
}
