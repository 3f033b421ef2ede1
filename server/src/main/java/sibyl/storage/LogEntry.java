package sibyl.storage;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;

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

    static byte[] frame(byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(OVERHEAD + payload.length);
        b.putInt(payload.length).putInt(crc(payload.length, payload)).put(payload);
        return b.array();
    }

    static int crc(int length, byte[] payload) {
        CRC32 crc = new CRC32();
        crc.update(ByteBuffer.allocate(4).putInt(length).array());
        crc.update(payload);
        return (int) crc.getValue();
    }
}
