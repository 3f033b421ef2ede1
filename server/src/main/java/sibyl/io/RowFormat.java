package sibyl.io;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.function.Predicate;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;

/**
 * How one SSTable format lays out a row in the data file. Both formats Sibyl reads have the same shape, which
 * {@link RowHeader} describes: a header (key, row tombstone, cell count, column index) and then the cells in
 * blocks the column index names by first and last name. So one slice read ({@link SliceRead}), one cell cursor
 * ({@link CellCursor}) and one whole-row decode serve both; only the bytes differ, and they are read here.
 *
 * <p>Every method reports malformed bytes as a {@link CorruptSSTableException} naming the file and offset (the
 * cell readers throw BufferUnderflowException or IllegalArgumentException, which {@link BlockDecoder} turns
 * into one).
 */
interface RowFormat {
    /**
     * Bytes from the row's start that hold its whole header, as far as the first {@code head.length} bytes of
     * the row tell: a result beyond {@code head.length} means "read that many and ask again".
     */
    int headerSpan(byte[] head, int rowLength, Path file, long rowOffset);

    /** Decodes and checks a row header from the row's first bytes (at least {@link #headerSpan} of them). */
    RowHeader readHeader(byte[] row, int rowLength, Path file, long rowOffset);

    /** The cells of a block at {@code bytes[offset]}, as a buffer over them, once the block checks out. */
    ByteBuffer blockCells(byte[] bytes, int offset, int length, Path file, long fileOffset);

    /** Reads one cell (a column, or a super column in a super column family). */
    Cell read(ByteBuffer in, CFMetaData metadata);

    /** Reads the next cell when {@code wanted} accepts its name, else steps over it and returns null. */
    Cell readIf(ByteBuffer in, CFMetaData metadata, Predicate<byte[]> wanted);
}
