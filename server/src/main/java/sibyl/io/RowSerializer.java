package sibyl.io;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UTFDataFormatException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import sibyl.db.Cell;
import sibyl.db.ColumnFamily;

/**
 * Encodes rows for the data file (see FORMAT.md):
 * <pre>
 * row    := headerLength i32 | header | headerCrc i32 | block*
 * header := key (modified UTF-8) | deletion (the row tombstone: {@link DeletionSerializer}) | cellCount i32
 *           | blockCount i32 | (firstName lastName offset i32 length i32)* when blockCount > 1
 * block  := cell+ | crc i32
 * </pre>
 * A block is closed once it holds at least the configured column index size, so a slice reads
 * only the blocks whose name range meets it. One instance reuses its buffers; not thread-safe.
 */
final class RowSerializer {
    private final int blockSize;
    private final GrowableBuffer header = new GrowableBuffer(256);
    private final GrowableBuffer blocks = new GrowableBuffer(64 * 1024);
    private final DataOutputStream headerOut = new DataOutputStream(header);
    private final DataOutputStream blocksOut = new DataOutputStream(blocks);

    /** @param blockSize bytes of cells after which a block is closed (ColumnIndexSizeInKB × 1024) */
    RowSerializer(int blockSize) {
        if (blockSize <= 0) throw new IllegalArgumentException("column index size must be positive: " + blockSize);
        this.blockSize = blockSize;
    }

    /** Encodes a row; its bytes stay valid until the next call. Returns the row's length. */
    int serialize(String key, ColumnFamily row) {
        try {
            List<ColumnIndexBlock> index = writeBlocks(row);
            header.reset();
            headerOut.writeInt(0); // patched below, once the header length is known
            headerOut.writeUTF(key);
            DeletionSerializer.write(headerOut, row.deletion());
            headerOut.writeInt(row.cellCount());
            headerOut.writeInt(index.size());
            if (index.size() > 1) {
                for (ColumnIndexBlock block : index) block.writeTo(headerOut);
            }
            header.putInt(0, header.size() - 4);
            headerOut.writeInt(header.crc(0, header.size()));
        } catch (UTFDataFormatException e) {
            throw new IllegalArgumentException("key longer than 65535 bytes in modified UTF-8: " + key.substring(0, 64) + "...", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot happen writing to memory", e);
        }
        long length = (long) header.size() + blocks.size();
        if (length > Integer.MAX_VALUE) throw new IllegalArgumentException("row " + key + " exceeds 2 GiB serialized");
        return (int) length;
    }

    /** Writes the row last serialized. */
    void writeTo(OutputStream out) throws IOException {
        out.write(header.array(), 0, header.size());
        out.write(blocks.array(), 0, blocks.size());
    }

    private List<ColumnIndexBlock> writeBlocks(ColumnFamily row) throws IOException {
        blocks.reset();
        List<ColumnIndexBlock> index = new ArrayList<>();
        int start = 0;
        byte[] first = null;
        byte[] last = null;
        for (Cell cell : row.cells()) {
            if (first == null) first = cell.name();
            last = cell.name();
            CellSerializer.write(blocksOut, cell);
            if (blocks.size() - start >= blockSize) {
                index.add(closeBlock(start, first, last));
                start = blocks.size();
                first = null;
            }
        }
        if (first != null) index.add(closeBlock(start, first, last));
        return index;
    }

    private ColumnIndexBlock closeBlock(int start, byte[] first, byte[] last) throws IOException {
        blocksOut.writeInt(blocks.crc(start, blocks.size()));
        return new ColumnIndexBlock(first, last, start, blocks.size() - start);
    }
}
