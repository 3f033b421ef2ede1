package sibyl.transport;

import io.netty.buffer.ByteBuf;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * A write-only Thrift transport that appends to a Netty buffer, which grows as needed. Does not own the buffer.
 * Public so the benchmarks encode exactly as replies are encoded.
 */
public final class ByteBufTransport extends TTransport {
    private ByteBuf out;

    public ByteBufTransport(ByteBuf out) {
        this.out = out;
    }

    /** Appends to {@code buffer} from now on (a {@link CallCodec} reuses its transport); null for none. */
    void target(ByteBuf buffer) {
        this.out = buffer;
    }

    /** The buffer appended to now. */
    ByteBuf buffer() {
        return out;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        out.writeBytes(bytes, offset, length);
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws TTransportException {
        throw new TTransportException(TTransportException.NOT_OPEN, "reply transport is write-only");
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
