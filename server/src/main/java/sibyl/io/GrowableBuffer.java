package sibyl.io;

import java.io.ByteArrayOutputStream;
import java.util.zip.CRC32;

/** A reusable output buffer whose bytes can be checksummed and patched in place. */
final class GrowableBuffer extends ByteArrayOutputStream {
    GrowableBuffer(int initialSize) {
        super(initialSize);
    }

    /** The backing array; valid up to {@link #size()}. */
    byte[] array() {
        return buf;
    }

    int crc(int from, int to) {
        CRC32 crc = new CRC32();
        crc.update(buf, from, to - from);
        return (int) crc.getValue();
    }

    void putInt(int at, int value) {
        buf[at] = (byte) (value >>> 24);
        buf[at + 1] = (byte) (value >>> 16);
        buf[at + 2] = (byte) (value >>> 8);
        buf[at + 3] = (byte) value;
    }
}
