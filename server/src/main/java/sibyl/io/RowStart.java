package sibyl.io;

import java.io.IOException;
import java.util.Arrays;

/**
 * The first bytes of a row as one read brought them, with the row's decoded header. A small row
 * lies wholly within them, so its blocks need no further read.
 */
record RowStart(byte[] bytes, RowHeader header) {
    /** The bytes of a block: from {@link #bytes} when they hold it, else read now. */
    byte[] block(ColumnIndexBlock block, IndexEntry entry, PositionalFile data) throws IOException {
        int from = header.blocksStart() + block.offset();
        if (from + block.length() <= bytes.length) return Arrays.copyOfRange(bytes, from, from + block.length());
        return data.read(entry.dataOffset() + from, block.length());
    }
}
