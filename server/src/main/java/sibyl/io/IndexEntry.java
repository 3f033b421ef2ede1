package sibyl.io;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UTFDataFormatException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
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
    static final class Reader {
        private final DataInputStream in;
        private final Path file;
        private final long end;
        private long position;

        Reader(InputStream in, Path file, long start, long end) {
            this.in = new DataInputStream(in);
            this.file = file;
            this.position = start;
            this.end = end;
        }

        /** Where the next entry starts. */
        long position() {
            return position;
        }

        /** The next entry, or null after the last one. */
        IndexEntry next() throws IOException {
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
                CRC32 crc = new CRC32();
                crc.update(entry, 0, entry.length - 4);
                ByteBuffer fixed = ByteBuffer.wrap(entry, 2 + keyLength, FIXED_SIZE - 2);
                long dataOffset = fixed.getLong();
                int rowLength = fixed.getInt();
                if ((int) crc.getValue() != fixed.getInt()) {
                    throw new CorruptSSTableException(file, start, "index entry checksum mismatch");
                }
                String key = DataInputStream.readUTF(new DataInputStream(new ByteArrayInputStream(entry, 0, 2 + keyLength)));
                if (dataOffset < 0 || rowLength < 8) {
                    throw new CorruptSSTableException(file, start, "index entry with data offset " + dataOffset
                            + " and row length " + rowLength);
                }
                return new IndexEntry(key, dataOffset, rowLength, start);
            } catch (EOFException | UTFDataFormatException e) {
                throw new CorruptSSTableException(file, start, "truncated or malformed index entry: " + e.getMessage(), e);
            }
        }
    }
}
