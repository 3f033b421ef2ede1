package sibyl.io;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;
import sibyl.db.CFMetaData;
import sibyl.db.Deletion;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.BytesType;

/**
 * Decides whether a row of one of Sibyl's SSTables, read whole, may go into a compaction's output as its bytes:
 * whether decoding it, purging it ({@link TombstonePurger}) and encoding it again ({@link RowSerializer}) would write
 * exactly those bytes. A row's header holds only its own key, tombstone, cell count and column index, and its
 * checksums cover only its own bytes (FORMAT.md, "Data"), so such a row is as valid in the output as in its input.
 *
 * <p>One pass over the stored cells that builds none of them: it checks each block's checksum, steps over names and
 * values, and reads each cell's flags, timestamp and expiry, all that the purger decides by. A row it is unsure of is
 * left to the decode path: anything damaged (which that path then reports as it always did), a row tombstone, a super
 * column family, a cell the purger would drop or turn into a tombstone, cells out of comparator order or sharing a
 * name, blocks not split where the output's column index size splits them, a header with bytes the encoder would not
 * write, a key whose modified UTF-8 is not plain ASCII.
 *
 * <p>Reuses its checksum and keeps the last row's timestamps; not thread-safe: one per compaction.
 */
final class RowCopy {
    private static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    /** Bytes of a column after its name: flags u8, timestamp i64, value length i32 (expiry aside). */
    private static final int COLUMN_FIXED = 1 + 8 + 4;

    private final CFMetaData metadata;
    private final int blockSize;
    private final TombstonePurger purger;
    private final AbstractType comparator;
    /** Whether the comparator is unsigned byte order, so names compare where they lie. */
    private final boolean byteOrder;
    private final CRC32 crc = new CRC32();
    /** The previous cell's name, copied, when the comparator needs arrays. */
    private byte[] previousName;
    private long minTimestamp;
    private long maxTimestamp;

    /**
     * @param blockSize bytes of cells after which the output's blocks close (ColumnIndexSizeInKB × 1024)
     * @param purger    what the compaction keeps of a row
     */
    RowCopy(CFMetaData metadata, int blockSize, TombstonePurger purger) {
        this.metadata = metadata;
        this.blockSize = blockSize;
        this.purger = purger;
        this.comparator = metadata.comparator();
        // BytesType and its subclasses (AsciiType, UTF8Type) compare as unsigned bytes.
        this.byteOrder = comparator instanceof BytesType;
    }

    /** The smallest cell timestamp of the row last found copyable. */
    long minTimestamp() {
        return minTimestamp;
    }

    /** The largest cell timestamp of the row last found copyable. */
    long maxTimestamp() {
        return maxTimestamp;
    }

    /**
     * Whether {@code row} is written as its bytes; then {@link #minTimestamp} and {@link #maxTimestamp} span its cells.
     *
     * @param bytes the row, {@code entry.rowLength()} bytes from index 0
     */
    boolean copyable(RowFile rows, IndexEntry entry, byte[] bytes) {
        if (rows.format() != SibylRowFormat.INSTANCE || metadata.isSuper()) return false;
        RowHeader header;
        try {
            header = RowHeader.read(bytes, entry.rowLength(), rows.path(), entry.dataOffset());
        } catch (CorruptSSTableException e) {
            return false;
        }
        if (!header.key().equals(entry.key()) || !Deletion.LIVE.equals(header.deletion()) || header.cellCount() <= 0
                || !plainKey(bytes) || !headerAsEncoded(bytes, header)) {
            return false;
        }
        minTimestamp = Long.MAX_VALUE;
        maxTimestamp = Long.MIN_VALUE;
        previousName = null;
        try {
            return cellsAsEncoded(bytes, header);
        } catch (RuntimeException e) {
            // A comparator refusing a name: the decode path meets it too, and reports it.
            return false;
        }
    }

    /** Whether the key's bytes (after the header length) are ASCII without NUL, which modified UTF-8 writes as is. */
    private static boolean plainKey(byte[] bytes) {
        int from = 4 + 2;
        int to = 4 + ModifiedUtf8.encodedLength(bytes, 4);
        for (int i = from; i < to; i++) {
            if (bytes[i] <= 0) return false;
        }
        return true;
    }

    /** Whether the header holds exactly what the encoder writes for its parts, no byte more. */
    private static boolean headerAsEncoded(byte[] bytes, RowHeader header) {
        long length = ModifiedUtf8.encodedLength(bytes, 4) + DeletionSerializer.LENGTH + 4 + 4;
        List<ColumnIndexBlock> blocks = header.blocks();
        if (blocks.size() > 1) {
            for (ColumnIndexBlock b : blocks) length += 2 + b.firstName().length + 2 + b.lastName().length + 4 + 4;
        }
        return (int) I32.get(bytes, 0) == length;
    }

    private boolean cellsAsEncoded(byte[] bytes, RowHeader header) {
        List<ColumnIndexBlock> blocks = header.blocks();
        int cells = 0;
        int previous = -1;
        for (int b = 0; b < blocks.size(); b++) {
            ColumnIndexBlock block = blocks.get(b);
            int start = header.blocksStart() + block.offset();
            int end = start + block.length() - ColumnIndexBlock.CRC_LENGTH;
            crc.reset();
            crc.update(bytes, start, end - start);
            if ((int) crc.getValue() != (int) I32.get(bytes, end)) return false;
            boolean lastBlock = b == blocks.size() - 1;
            int at = start;
            while (at < end) {
                int next = column(bytes, at, end);
                if (next < 0 || (previous >= 0 && !ascending(bytes, previous, at))) return false;
                // The encoder closes a block after the cell that brings it to blockSize, and only there.
                boolean full = next - start >= blockSize;
                if (full ? next != end : next == end && !lastBlock) return false;
                if (blocks.size() > 1) {
                    if (at == start && !sameName(block.firstName(), bytes, at)) return false;
                    if (next == end && !sameName(block.lastName(), bytes, at)) return false;
                }
                previous = at;
                at = next;
                cells++;
            }
        }
        return cells == header.cellCount();
    }

    /**
     * Where the column at {@code at} ends, after checking it as the decode path reads it ({@link CellSerializer}) and
     * as the purger keeps it; -1 when it is malformed or not kept exactly as stored.
     */
    private int column(byte[] bytes, int at, int end) {
        if (end - at < 2) return -1;
        int p = at + 2 + u16(bytes, at);
        if (p > end || end - p < COLUMN_FIXED) return -1;
        int flags = bytes[p];
        long timestamp = (long) I64.get(bytes, p + 1);
        p += 1 + 8;
        int localTime = 0;
        if (flags == CellSerializer.EXPIRING) {
            if (end - p < 8 + 4) return -1;
            int ttl = (int) I32.get(bytes, p);
            localTime = (int) I32.get(bytes, p + 4);
            if (ttl <= 0) return -1;
            p += 8;
        }
        int length = (int) I32.get(bytes, p);
        p += 4;
        if (length < 0 || length > end - p) return -1;
        if (flags == CellSerializer.TOMBSTONE) {
            if (length != 4) return -1;
            localTime = (int) I32.get(bytes, p);
        } else if (flags == CellSerializer.COUNTER) {
            if (length != 8) return -1;
        } else if (flags != 0 && flags != CellSerializer.EXPIRING) {
            return -1;
        }
        if (!purger.keepsAsStored(timestamp, flags == CellSerializer.TOMBSTONE, flags == CellSerializer.EXPIRING,
                localTime)) {
            return -1;
        }
        minTimestamp = Math.min(minTimestamp, timestamp);
        maxTimestamp = Math.max(maxTimestamp, timestamp);
        return p + length;
    }

    /** Whether the name at {@code previous} sorts strictly before the one at {@code at}, as the row's builder needs. */
    private boolean ascending(byte[] bytes, int previous, int at) {
        int previousEnd = previous + 2 + u16(bytes, previous);
        int end = at + 2 + u16(bytes, at);
        if (byteOrder) return Arrays.compareUnsigned(bytes, previous + 2, previousEnd, bytes, at + 2, end) < 0;
        if (previousName == null) previousName = Arrays.copyOfRange(bytes, previous + 2, previousEnd);
        byte[] name = Arrays.copyOfRange(bytes, at + 2, end);
        boolean ascending = comparator.compare(previousName, name) < 0;
        previousName = name;
        return ascending;
    }

    private static boolean sameName(byte[] name, byte[] bytes, int at) {
        int length = u16(bytes, at);
        return name.length == length && Arrays.equals(name, 0, length, bytes, at + 2, at + 2 + length);
    }

    private static int u16(byte[] bytes, int at) {
        return ((bytes[at] & 0xFF) << 8) | (bytes[at + 1] & 0xFF);
    }
}
