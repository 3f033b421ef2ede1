package sibyl.io;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * One entry of the index file: a key, where its row starts in the data file and how long it is.
 * <pre>
 * entry := key (modified UTF-8: length u16 | bytes) | dataOffset i64 | rowLength i32 | crc i32
 * </pre>
 * The CRC32 covers the entry's bytes before it.
 *
 * @param position where the entry starts in the index file
 */
record IndexEntry(String key, long dataOffset, int rowLength, long position) {
    /** Bytes of an entry besides the key's encoded bytes. */
    private static final int FIXED_SIZE = 2 + 8 + 4 + 4;
    private static final int SCAN_BUFFER = 64 * 1024;

    /** Writes an entry; returns the bytes written. */
    static int write(DataOutput out, String key, long dataOffset, int rowLength, GrowableBuffer scratch) throws IOException {
        scratch.reset();
        DataOutputStream s = new DataOutputStream(scratch);
        s.writeUTF(key);
        s.writeLong(dataOffset);
        s.writeInt(rowLength);
        s.writeInt(scratch.crc(0, scratch.size()));
        out.write(scratch.array(), 0, scratch.size());
        return scratch.size();
    }

    /**
     * Reads consecutive index entries from a stream positioned at {@code start}, up to {@code end}.
     * The caller owns the stream.
     */
    static final class Reader implements IndexEntries {
        private final DataInputStream in;
        private final Path file;
        private final long end;
        private long position;

        private Reader(InputStream in, Path file, long start, long end) {
            this.in = new DataInputStream(in);
            this.file = file;
            this.position = start;
            this.end = end;
        }

        /** A buffered sequential read of an index file from {@code start} to its end. */
        static Reader scan(PositionalFile index, long start) {
            return new Reader(new BufferedInputStream(new PositionalInputStream(index, start, index.length()), SCAN_BUFFER),
                    index.path(), start, index.length());
        }

        @Override
        public long position() {
            return position;
        }

        @Override
        public IndexEntry next() throws IOException {
            if (position >= end) return null;
            long start = position;
            try {
                int keyLength = in.readUnsignedShort();
                byte[] entry = new byte[FIXED_SIZE + keyLength];
                entry[0] = (byte) (keyLength >>> 8);
                entry[1] = (byte) keyLength;
                in.readFully(entry, 2, entry.length - 2);
                position += entry.length;
                if (position > end) throw new EOFException("entry runs past the end at " + end);
                return decode(entry, 0, start, file);
            } catch (EOFException e) {
                throw new CorruptSSTableException(file, start, "truncated index entry: " + e.getMessage(), e);
            }
        }
    }

    /** The key in the encoding entries hold it in, for {@link #find}. */
    static byte[] encodeKey(String key) {
        try {
            return ModifiedUtf8.encode(key);
        } catch (IOException e) {
            throw new IllegalArgumentException("key longer than 65535 bytes in modified UTF-8", e);
        }
    }

    /**
     * The entry of {@code encodedKey} in a stretch of consecutive entries read into the first
     * {@code length} bytes of {@code stretch}, or null. Entries of other keys are skipped by comparing raw bytes, without decoding or
     * checking them (opening the SSTable checked every entry once); the entry found is checked.
     *
     * @param stretchStart where the stretch lies in the index file
     */
    static IndexEntry find(byte[] stretch, int length, long stretchStart, byte[] encodedKey, Path file) {
        int at = 0;
        while (at < length) {
            int keyLength = at + 2 <= length ? ((stretch[at] & 0xff) << 8) | (stretch[at + 1] & 0xff) : -1;
            int size = FIXED_SIZE + keyLength;
            if (keyLength < 0 || at + size > length) {
                throw new CorruptSSTableException(file, stretchStart + at, "index entry runs past the end of its stretch");
            }
            if (Arrays.equals(stretch, at, at + 2 + keyLength, encodedKey, 0, encodedKey.length)) {
                return decode(stretch, at, stretchStart + at, file);
            }
            at += size;
        }
        return null;
    }

    /** Checks and decodes the entry at {@code bytes[offset]}, which holds all of it. */
    private static IndexEntry decode(byte[] bytes, int offset, long position, Path file) {
        int keyLength = ((bytes[offset] & 0xff) << 8) | (bytes[offset + 1] & 0xff);
        CRC32 crc = new CRC32();
        crc.update(bytes, offset, FIXED_SIZE - 4 + keyLength);
        ByteBuffer fixed = ByteBuffer.wrap(bytes, offset + 2 + keyLength, FIXED_SIZE - 2);
        long dataOffset = fixed.getLong();
        int rowLength = fixed.getInt();
        if ((int) crc.getValue() != fixed.getInt()) {
            throw new CorruptSSTableException(file, position, "index entry checksum mismatch");
        }
        if (dataOffset < 0 || rowLength < 8) {
            throw new CorruptSSTableException(file, position, "index entry with data offset " + dataOffset
                    + " and row length " + rowLength);
        }
        try {
            String key = ModifiedUtf8.decode(bytes, offset, offset + 2 + keyLength);
            return new IndexEntry(key, dataOffset, rowLength, position);
        } catch (IOException e) {
            throw new CorruptSSTableException(file, position, "malformed key in index entry: " + e.getMessage(), e);
        }
    }
}
