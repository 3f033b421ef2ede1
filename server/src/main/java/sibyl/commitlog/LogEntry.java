package sibyl.commitlog;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import sibyl.db.ResolvedMutation;

/**
 * One framed log entry: {@code length:int crc:int payload:byte[length]}, where crc is CRC32 over
 * the four length bytes and then the payload, so a torn or flipped length fails the check as
 * surely as a damaged payload does.
 */
final class LogEntry {
    /** Bytes of framing before each payload. */
    static final int OVERHEAD = 8;

    private LogEntry() {
    }

    /** The entry of {@code mutation}, serialized straight into one array of the entry's length. */
    static byte[] frame(ResolvedMutation mutation) {
        int length = ResolvedMutationSerializer.serializedLength(mutation);
        ByteBuffer b = ByteBuffer.allocate(Math.addExact(OVERHEAD, length));
        b.position(OVERHEAD);
        ResolvedMutationSerializer.serialize(mutation, b);
        if (b.position() != b.capacity()) {
            // Trailing bytes would make replay call the entry damaged: refuse the write instead.
            throw new IllegalStateException("mutation of key " + mutation.key() + " took " + (b.position() - OVERHEAD)
                    + " bytes, not the " + length + " reckoned");
        }
        byte[] entry = b.array();
        b.putInt(0, length);
        CRC32 crc = new CRC32();
        crc.update(entry, 0, 4);
        crc.update(entry, OVERHEAD, length);
        b.putInt(4, (int) crc.getValue());
        return entry;
    }

    static int crc(int length, byte[] payload) {
        CRC32 crc = new CRC32();
        crc.update(length >>> 24);
        crc.update(length >>> 16);
        crc.update(length >>> 8);
        crc.update(length);
        crc.update(payload);
        return (int) crc.getValue();
    }
}
