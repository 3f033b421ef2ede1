package sibyl.io;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import sibyl.db.Deletion;

/**
 * The decoded start of a row in the data file: key, row tombstone, cell count and the column
 * index. {@code blocksStart} is where the first block begins, relative to the row's start; block
 * offsets are relative to it. The static methods read Sibyl's header; a Cassandra 0.6 row's has the
 * same parts ({@link Cassandra06RowFormat}).
 */
record RowHeader(String key, Deletion deletion, int cellCount,
                 List<ColumnIndexBlock> blocks, int blocksStart) {
    /** A first read of this many bytes holds the whole header of any row without a large column index. */
    static final int TYPICAL_SPAN = 4096;

    /**
     * Bytes from the row's start to its first block: header length, header and header CRC.
     *
     * @param row the row's first bytes, at least 4 (every row has them)
     */
    static int span(byte[] row, int rowLength, Path file, long rowOffset) {
        int headerLength = ByteBuffer.wrap(row, 0, 4).getInt();
        if (headerLength < 0 || 8L + headerLength > rowLength) {
            throw new CorruptSSTableException(file, rowOffset, "row header length " + headerLength
                    + " does not fit in a row of " + rowLength + " bytes");
        }
        return 8 + headerLength;
    }

    /**
     * Decodes and checks a row header.
     *
     * @param row the row's bytes from its start, at least {@link #span} of them
     */
    static RowHeader read(byte[] row, int rowLength, Path file, long rowOffset) {
        int span = span(row, rowLength, file, rowOffset);
        CRC32 crc = new CRC32();
        crc.update(row, 0, span - 4);
        if ((int) crc.getValue() != ByteBuffer.wrap(row, span - 4, 4).getInt()) {
            throw new CorruptSSTableException(file, rowOffset, "row header checksum mismatch");
        }
        try {
            String key = ModifiedUtf8.decode(row, 4, span - 4);
            int restStart = 4 + ModifiedUtf8.encodedLength(row, 4);
            ByteBuffer rest = ByteBuffer.wrap(row, restStart, span - 4 - restStart);
            Deletion deletion = DeletionSerializer.read(rest);
            int cellCount = rest.getInt();
            int blockCount = rest.getInt();
            int blocksLength = rowLength - span;
            List<ColumnIndexBlock> blocks = new ArrayList<>(Math.max(0, Math.min(blockCount, 1024)));
            if (blockCount == 1) {
                blocks.add(new ColumnIndexBlock(null, null, 0, blocksLength));
            } else if (blockCount > 1) {
                for (int i = 0; i < blockCount; i++) blocks.add(ColumnIndexBlock.readFrom(rest));
            } else if (blockCount < 0 || blocksLength != 0) {
                throw new IllegalArgumentException("block count " + blockCount + " with " + blocksLength + " bytes of blocks");
            }
            checkBlocks(blocks, blocksLength, ColumnIndexBlock.CRC_LENGTH);
            return new RowHeader(key, deletion, cellCount, blocks, span);
        } catch (IOException | BufferUnderflowException | IllegalArgumentException e) {
            throw new CorruptSSTableException(file, rowOffset, "malformed row header: " + e.getMessage(), e);
        }
    }

    /**
     * Blocks must tile the row's block bytes exactly, in order, each longer than {@code overhead} (a trailer).
     *
     * @throws IllegalArgumentException saying how they do not
     */
    static void checkBlocks(List<ColumnIndexBlock> blocks, int blocksLength, int overhead) {
        int expected = 0;
        for (ColumnIndexBlock b : blocks) {
            if (b.offset() != expected || b.length() <= overhead) {
                throw new IllegalArgumentException("column index block at " + b.offset() + " of length " + b.length()
                        + " where one was expected at " + expected);
            }
            expected += b.length();
        }
        if (expected != blocksLength) {
            throw new IllegalArgumentException("column index covers " + expected + " of " + blocksLength + " bytes of blocks");
        }
    }
}
