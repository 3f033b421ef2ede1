package sibyl.io;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.zip.CRC32;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;

/** Checks a data block's CRC32 trailer and decodes its cells. */
final class BlockDecoder {
    private BlockDecoder() {
    }

    /**
     * Hands every cell of a block to {@code sink}, in stored order, after checking the block.
     *
     * @param bytes      holds the block at {@code offset}
     * @param fileOffset where the block lies in the data file, for error reports
     */
    static void decode(byte[] bytes, int offset, int length, CFMetaData metadata, Path file, long fileOffset,
                       Consumer<Cell> sink) {
        int body = length - ColumnIndexBlock.CRC_LENGTH;
        CRC32 crc = new CRC32();
        crc.update(bytes, offset, body);
        if ((int) crc.getValue() != ByteBuffer.wrap(bytes, offset + body, 4).getInt()) {
            throw new CorruptSSTableException(file, fileOffset, "data block checksum mismatch");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes, offset, body);
        try {
            while (in.hasRemaining()) sink.accept(CellSerializer.read(in, metadata));
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new CorruptSSTableException(file, fileOffset, "malformed cell in data block: " + e, e);
        }
    }
}
