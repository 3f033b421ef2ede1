package sibyl.io;

import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * One entry of a row's column index: the first and last cell name of a block of the row, and
 * where the block lies relative to the start of the row's blocks. In Sibyl's format the length
 * includes the block's 4-byte CRC32 trailer; a Cassandra 0.6 block has none.
 *
 * <p>A row of one block has no stored index; its single block is described with null names,
 * meaning "covers every name".
 */
record ColumnIndexBlock(byte[] firstName, byte[] lastName, int offset, int length) {
    static final int CRC_LENGTH = 4;

    void writeTo(DataOutput out) throws IOException {
        CellSerializer.writeName(out, firstName);
        CellSerializer.writeName(out, lastName);
        out.writeInt(offset);
        out.writeInt(length);
    }

    static ColumnIndexBlock readFrom(ByteBuffer in) {
        byte[] first = CellSerializer.readName(in);
        byte[] last = CellSerializer.readName(in);
        return new ColumnIndexBlock(first, last, in.getInt(), in.getInt());
    }

    boolean coversAll() {
        return firstName == null;
    }
}
