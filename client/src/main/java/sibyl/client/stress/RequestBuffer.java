package sibyl.client.stress;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/** A write-only Thrift transport into a reusable, growing array: where one request is encoded before it is sent. */
final class RequestBuffer extends TTransport {
    private byte[] bytes = new byte[1024];
    private int length;

    /** Empties the buffer, keeping {@code reserved} bytes at the start (for a frame length). */
    void clear(int reserved) {
        length = reserved;
    }

    /** Writes the frame length (everything after the first 4 bytes) into the first 4 bytes. */
    void writeFrameLength() {
        int n = length - 4;
        bytes[0] = (byte) (n >>> 24);
        bytes[1] = (byte) (n >>> 16);
        bytes[2] = (byte) (n >>> 8);
        bytes[3] = (byte) n;
    }

    /** The encoded bytes, valid until the next clear. */
    ByteBuffer contents() {
        return ByteBuffer.wrap(bytes, 0, length);
    }

    @Override
    public void write(byte[] buf, int off, int len) {
        if (length + len > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + len));
        }
        System.arraycopy(buf, off, bytes, length, len);
        length += len;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws TTransportException {
        throw new TTransportException(TTransportException.NOT_OPEN, "a request buffer is write-only");
    }

    @Override
    public boolean isOpen() {
        return true;
    }

    @Override
    public void open() {
    }

    @Override
    public void close() {
    }

    @Override
    public TConfiguration getConfiguration() {
        return TConfiguration.DEFAULT;
    }

    @Override
    public void updateKnownMessageSize(long size) {
    }

    @Override
    public void checkReadBytesAvailable(long numBytes) {
    }
}
