package sibyl.io;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import sibyl.dht.DecoratedKey;

/**
 * Cassandra 0.6's index file: one entry per row, in the rows' order,
 * <pre>
 * entry := diskKey (modified UTF-8: length u16 | bytes) | dataPosition i64
 * </pre>
 * with no row length and no checksum: a row ends where the next entry's row begins, the last one at the end
 * of the data file. Opening the table ({@link Cassandra06Table}) walks every entry once and checks that the
 * positions start at 0 and grow by at least a row's smallest length, so lookups may trust them.
 */
final class Cassandra06Index implements IndexFormat {
    private static final int SCAN_BUFFER = 64 * 1024;

    private final Cassandra06Keys keys;
    private final long dataLength;

    Cassandra06Index(Cassandra06Keys keys, long dataLength) {
        this.keys = keys;
        this.dataLength = dataLength;
    }

    /**
     * One entry as stored.
     *
     * @param position where the entry starts in the index file
     * @param length   the entry's bytes
     */
    record Raw(String diskKey, long dataPosition, long position, int length) {
        /** The bytes of the key's encoding in the entry (and in its row): the entry less its length prefix and position. */
        int keyBytes() {
            return length - 2 - 8;
        }
    }

    /** Reads raw entries from {@code start} to the index's end; the caller works out row lengths. */
    static final class RawReader {
        private final DataInputStream in;
        private final Path file;
        private final long end;
        private long position;

        RawReader(PositionalFile index, long start) {
            this.in = new DataInputStream(new BufferedInputStream(new PositionalInputStream(index, start, index.length()),
                    SCAN_BUFFER));
            this.file = index.path();
            this.end = index.length();
            this.position = start;
        }

        long position() {
            return position;
        }

        /** The next entry, or null at the end of the file. */
        Raw next() throws IOException {
            if (position >= end) return null;
            long start = position;
            try {
                int keyLength = in.readUnsignedShort();
                byte[] entry = new byte[2 + keyLength];
                entry[0] = (byte) (keyLength >>> 8);
                entry[1] = (byte) keyLength;
                in.readFully(entry, 2, keyLength);
                long dataPosition = in.readLong();
                String diskKey = decodeKey(entry, 0, file, start);
                position += entry.length + 8;
                if (position > end) throw new EOFException("entry runs past the end at " + end);
                return new Raw(diskKey, dataPosition, start, entry.length + 8);
            } catch (EOFException e) {
                throw new CorruptSSTableException(file, start, "truncated index entry: " + e.getMessage(), e);
            }
        }
    }

    private static String decodeKey(byte[] bytes, int offset, Path file, long position) {
        int keyLength = ((bytes[offset] & 0xFF) << 8) | (bytes[offset + 1] & 0xFF);
        try {
            return ModifiedUtf8.decode(bytes, offset, offset + 2 + keyLength);
        } catch (IOException e) {
            throw new CorruptSSTableException(file, position, "malformed key in index entry: " + e.getMessage(), e);
        }
    }

    @Override
    public IndexEntries scan(PositionalFile index, long start) {
        return new Entries(new RawReader(index, start), index.path());
    }

    /** Entries with their rows' lengths, each worked out from the entry after it. */
    private final class Entries implements IndexEntries {
        private final RawReader raw;
        private final Path file;
        private Raw pending;
        private boolean started;

        Entries(RawReader raw, Path file) {
            this.raw = raw;
            this.file = file;
        }

        @Override
        public long position() {
            return pending != null ? pending.position() : raw.position();
        }

        @Override
        public IndexEntry next() throws IOException {
            if (!started) {
                pending = raw.next();
                started = true;
            }
            if (pending == null) return null;
            Raw current = pending;
            Raw following = raw.next();
            long rowEnd = following == null ? dataLength : following.dataPosition();
            pending = following;
            return entry(keys.keyOf(current.diskKey(), file, current.position()), current, rowEnd, file);
        }
    }

    /** The entry of {@code raw}, of {@code key}, whose row ends at {@code rowEnd} in the data file. */
    private static IndexEntry entry(String key, Raw raw, long rowEnd, Path file) {
        long rowLength = rowEnd - raw.dataPosition();
        if (raw.dataPosition() < 0 || rowLength < Cassandra06RowFormat.minimumRowLength(raw.keyBytes())
                || rowLength > Integer.MAX_VALUE) {
            throw new CorruptSSTableException(file, raw.position(), "index entry for a row at data position "
                    + raw.dataPosition() + " whose row ends at " + rowEnd);
        }
        return new IndexEntry(key, raw.dataPosition(), (int) rowLength, raw.position());
    }

    @Override
    public IndexEntry find(byte[] stretch, int length, long stretchStart, long stretchDataEnd, DecoratedKey key, Path file) {
        String diskKey = keys.diskKeyOf(key);
        byte[] encoded = IndexEntry.encodeKey(diskKey);
        // The stretch's entries were all checked at open; the one found is checked against its neighbour.
        int at = 0;
        while (at < length) {
            int size = entrySize(stretch, at, length, stretchStart, file);
            if (Arrays.equals(stretch, at, at + size - 8, encoded, 0, encoded.length)) {
                long dataPosition = ByteBuffer.wrap(stretch, at + size - 8, 8).getLong();
                long rowEnd = stretchDataEnd;
                int next = at + size;
                if (next < length) {
                    int nextSize = entrySize(stretch, next, length, stretchStart, file);
                    rowEnd = ByteBuffer.wrap(stretch, next + nextSize - 8, 8).getLong();
                }
                return entry(key.key(), new Raw(diskKey, dataPosition, stretchStart + at, size), rowEnd, file);
            }
            at += size;
        }
        return null;
    }

    /** The length of the entry at {@code stretch[at]}, checked to lie within the stretch. */
    private static int entrySize(byte[] stretch, int at, int length, long stretchStart, Path file) {
        int keyLength = at + 2 <= length ? ((stretch[at] & 0xFF) << 8) | (stretch[at + 1] & 0xFF) : -1;
        int size = 2 + keyLength + 8;
        if (keyLength < 0 || at + size > length) {
            throw new CorruptSSTableException(file, stretchStart + at, "index entry runs past the end of its stretch");
        }
        return size;
    }
}
