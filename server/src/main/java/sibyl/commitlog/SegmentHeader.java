package sibyl.commitlog;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * The first {@link #SIZE} bytes of every segment file:
 * <pre>
 * magic:int    0x5342434C ("SBCL")
 * version:int  {@link #VERSION}
 * segmentId:long   the same id as in the file name
 * crc:int      CRC32 of the 16 bytes before it
 * </pre>
 */
final class SegmentHeader {
    static final int MAGIC = 0x5342434C;
    static final int VERSION = 1;
    static final int SIZE = 20;

    private SegmentHeader() {
    }

    static byte[] encode(long segmentId) {
        ByteBuffer b = ByteBuffer.allocate(SIZE);
        b.putInt(MAGIC).putInt(VERSION).putLong(segmentId);
        b.putInt(crc(b.array()));
        return b.array();
    }

    /**
     * Checks a header read from disk.
     *
     * @return null when it is a sound header of segment {@code expectedId}, else what is wrong
     * @throws UnsupportedVersionException when it is sound but written by a newer format
     */
    static String problem(byte[] header, long expectedId) {
        ByteBuffer b = ByteBuffer.wrap(header);
        if (b.getInt() != MAGIC) return "bad magic: not a Sibyl commit log segment";
        int version = b.getInt();
        long id = b.getLong();
        if (b.getInt() != crc(header)) return "header checksum mismatch";
        if (version != VERSION) throw new UnsupportedVersionException(version);
        if (id != expectedId) return "header names segment " + id;
        return null;
    }

    private static int crc(byte[] header) {
        CRC32 crc = new CRC32();
        crc.update(header, 0, SIZE - 4);
        return (int) crc.getValue();
    }

    /** A segment of a format this build cannot read: refuse to start rather than skip its data. */
    static final class UnsupportedVersionException extends RuntimeException {
        UnsupportedVersionException(int version) {
            super("commit log segment format version " + version + " is not supported (this build reads version "
                    + VERSION + ")");
        }
    }
}
