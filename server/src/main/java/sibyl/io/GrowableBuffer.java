package sibyl.io;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Objects;
import java.util.zip.CRC32;

/**
 * A reusable output buffer whose bytes can be checksummed and patched in place. Not thread-safe:
 * its writes are not synchronized as ByteArrayOutputStream's are, because a row's serialization
 * makes several of them per column (a DataOutputStream's writeInt is four) and each lock was a
 * measurable part of flushing and compacting.
 */
final class GrowableBuffer extends ByteArrayOutputStream {
    GrowableBuffer(int initialSize) {
        super(initialSize);
    }

    @Override
    public void write(int b) {
        if (count == buf.length) grow(count + 1);
        buf[count++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len > buf.length - count) grow(count + len);
        System.arraycopy(b, off, buf, count, len);
        count += len;
    }

    private void grow(int minCapacity) {
        if (minCapacity < 0) throw new OutOfMemoryError("buffer larger than 2 GiB");
        int doubled = buf.length * 2;
        buf = Arrays.copyOf(buf, doubled < 0 ? Integer.MAX_VALUE - 8 : Math.max(doubled, minCapacity));
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
