package sibyl.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * Tells by content who wrote a component file: Sibyl (every component it writes begins with a checksummed
 * unit or a magic number) or Cassandra 0.6 (whose Data and Index files begin with the same key). Start-up
 * decides with these what it may delete and what it may read; each reads a few bytes, or a Filter file whole.
 */
final class Signatures {
    /** Larger headers or keys than this are no Sibyl's (a key is at most 64 KiB; a column index of a row at most a few MB). */
    private static final int MAX_UNIT = 64 << 20;

    private Signatures() {
    }

    /** Whether {@code file} holds what Sibyl writes as {@code component}: its first unit's checksum or its magic holds. */
    static boolean isSibyls(Component component, Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            return switch (component) {
                case STATISTICS -> size >= 4 && read(channel, 0, 4).getInt(0) == SSTableMetadata.MAGIC;
                case SUMMARY -> size >= 4 && read(channel, 0, 4).getInt(0) == IndexSummaryFile.MAGIC;
                case FILTER -> size >= 4 && size <= Integer.MAX_VALUE && crcTrailerHolds(read(channel, 0, (int) size));
                case DATA -> {
                    // headerLength i32 | header | headerCrc i32, the CRC over the length and the header
                    if (size < 8) yield false;
                    int headerLength = read(channel, 0, 4).getInt(0);
                    if (headerLength < 0 || headerLength > MAX_UNIT || 8L + headerLength > size) yield false;
                    yield crcTrailerHolds(read(channel, 0, 8 + headerLength));
                }
                case INDEX -> {
                    // key (u16 length | bytes) | dataOffset i64 | rowLength i32 | crc i32
                    if (size < 2) yield false;
                    int keyLength = read(channel, 0, 2).getShort(0) & 0xFFFF;
                    int entry = 2 + keyLength + 8 + 4 + 4;
                    yield entry <= size && crcTrailerHolds(read(channel, 0, entry));
                }
            };
        }
    }

    /** Whether the last four bytes are the CRC32 of the ones before. */
    private static boolean crcTrailerHolds(ByteBuffer bytes) {
        int body = bytes.capacity() - 4;
        CRC32 crc = new CRC32();
        crc.update(bytes.array(), 0, body);
        return (int) crc.getValue() == bytes.getInt(body);
    }

    /**
     * Why {@code data} and {@code index} are not the Data and Index files of one Cassandra 0.6 SSTable, or null
     * when their beginnings agree as 0.6 writes them: the first index entry puts its row at position 0, the
     * data file's first row begins with the same key, and that row ends where the second entry's row begins
     * (or at the end of the data file, for a table of one row). {@link Cassandra06Table} checks the rest at open.
     */
    static String cassandra06Problem(Path data, Path index) throws IOException {
        try (FileChannel i = FileChannel.open(index, StandardOpenOption.READ);
             FileChannel d = FileChannel.open(data, StandardOpenOption.READ)) {
            long indexSize = i.size();
            long dataSize = d.size();
            if (indexSize < 2 + 8) return "its index file is too short for an entry";
            int keyLength = read(i, 0, 2).getShort(0) & 0xFFFF;
            int entry = 2 + keyLength + 8;
            if (entry > indexSize) return "its index's first entry runs past the end of the index file";
            ByteBuffer first = read(i, 0, entry);
            String key = decodeKey(first.array(), 0);
            if (key == null) return "its index's first key is not modified UTF-8";
            long position = first.getLong(2 + keyLength);
            if (position != 0) return "its index's first entry puts its row at data position " + position + ", not 0";
            long rowEnd;
            if (2L + keyLength + 4 > dataSize) return "its data file is shorter than its first row's key";
            ByteBuffer row = read(d, 0, 2 + keyLength + 4);
            if (!Arrays.equals(row.array(), 0, 2 + keyLength, first.array(), 0, 2 + keyLength)) {
                return "its data file does not begin with its index's first key '" + key + "'";
            }
            rowEnd = 2L + keyLength + 4 + row.getInt(2 + keyLength);
            long expected = dataSize;
            if (indexSize > entry) {
                if (indexSize < entry + 2) return "its index's second entry is cut short";
                int secondKeyLength = read(i, entry, 2).getShort(0) & 0xFFFF;
                if (indexSize < entry + 2 + secondKeyLength + 8) return "its index's second entry is cut short";
                expected = read(i, entry + 2 + secondKeyLength, 8).getLong(0);
            }
            if (rowEnd != expected) {
                return "its first row ends at data position " + rowEnd + ", but the next begins at " + expected;
            }
            return null;
        }
    }

    private static String decodeKey(byte[] bytes, int offset) {
        int length = ((bytes[offset] & 0xFF) << 8) | (bytes[offset + 1] & 0xFF);
        try {
            return ModifiedUtf8.decode(bytes, offset, offset + 2 + length);
        } catch (IOException e) {
            return null;
        }
    }

    /** {@code length} bytes from {@code position}, which the caller checked lie within the file. */
    private static ByteBuffer read(FileChannel channel, long position, int length) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(length);
        while (bytes.hasRemaining()) {
            if (channel.read(bytes, position + bytes.position()) < 0) throw new IOException("file shrank while being read");
        }
        return bytes.flip();
    }
}
