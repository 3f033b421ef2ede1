package sibyl.io;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.function.Predicate;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;

/** Sibyl's rows (FORMAT.md, "Data"): a checksummed header, then blocks of cells each with its CRC32. */
final class SibylRowFormat implements RowFormat {
    static final SibylRowFormat INSTANCE = new SibylRowFormat();

    private SibylRowFormat() {
    }

    @Override
    public int headerSpan(byte[] head, int rowLength, Path file, long rowOffset) {
        return RowHeader.span(head, rowLength, file, rowOffset);
    }

    @Override
    public RowHeader readHeader(byte[] row, int rowLength, Path file, long rowOffset) {
        return RowHeader.read(row, rowLength, file, rowOffset);
    }

    @Override
    public ByteBuffer blockCells(byte[] bytes, int offset, int length, Path file, long fileOffset) {
        return BlockDecoder.checked(bytes, offset, length, file, fileOffset);
    }

    @Override
    public Cell read(ByteBuffer in, CFMetaData metadata) {
        return CellSerializer.read(in, metadata);
    }

    @Override
    public Cell readIf(ByteBuffer in, CFMetaData metadata, Predicate<byte[]> wanted) {
        return CellSerializer.readIf(in, metadata, wanted);
    }
}
