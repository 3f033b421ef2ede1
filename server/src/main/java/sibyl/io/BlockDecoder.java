package sibyl.io;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.zip.CRC32;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;

/** Checks a data block (Sibyl's: its CRC32 trailer) and decodes its cells, in the row format of its SSTable. */
final class BlockDecoder {
    private static final Predicate<byte[]> EVERY_NAME = name -> true;

    private BlockDecoder() {
    }

    /**
     * Hands every cell of a block to {@code sink}, in stored order, after checking the block.
     *
     * @param bytes      holds the block at {@code offset}
     * @param fileOffset where the block lies in the data file, for error reports
     */
    static void decode(RowFormat format, byte[] bytes, int offset, int length, CFMetaData metadata, Path file,
                       long fileOffset, Consumer<Cell> sink) {
        decode(format, bytes, offset, length, metadata, file, fileOffset, EVERY_NAME, sink);
    }

    /**
     * Hands the cells of a block whose names {@code wanted} accepts to {@code sink}, in stored order, after checking
     * the block; the others are stepped over without being built (a slice wants a few cells of a block of hundreds).
     */
    static void decode(RowFormat format, byte[] bytes, int offset, int length, CFMetaData metadata, Path file,
                       long fileOffset, Predicate<byte[]> wanted, Consumer<Cell> sink) {
        ByteBuffer in = format.blockCells(bytes, offset, length, file, fileOffset);
        try {
            while (in.hasRemaining()) {
                Cell cell = format.readIf(in, metadata, wanted);
                if (cell != null) sink.accept(cell);
            }
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw malformed(file, fileOffset, e);
        }
    }

    /** The cells of a block of Sibyl's, as a buffer over them, once the block's checksum holds. */
    static ByteBuffer checked(byte[] bytes, int offset, int length, Path file, long fileOffset) {
        int body = length - ColumnIndexBlock.CRC_LENGTH;
        CRC32 crc = new CRC32();
        crc.update(bytes, offset, body);
        if ((int) crc.getValue() != ByteBuffer.wrap(bytes, offset + body, 4).getInt()) {
            throw new CorruptSSTableException(file, fileOffset, "data block checksum mismatch");
        }
        return ByteBuffer.wrap(bytes, offset, body);
    }

    /** The report of a cell that does not decode in a block whose checksum held. */
    static CorruptSSTableException malformed(Path file, long fileOffset, RuntimeException e) {
        return new CorruptSSTableException(file, fileOffset, "malformed cell in data block: " + e, e);
    }
}
