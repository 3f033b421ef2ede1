package sibyl.transport;

import org.apache.thrift.protocol.TBinaryProtocol;

/**
 * Thrift's binary protocol writing its fixed-size values straight into the reply's Netty buffer. libthrift's
 * {@link TBinaryProtocol} writes every byte, short, int and long of a message (each field header, each length)
 * through the transport as an array of one to eight bytes, which a Netty buffer then bounds-checks and copies: in a
 * get_slice of ten columns that path took 5-7% of the server's CPU samples (bench/RESULTS.md, 2026-11-28 09:00 UTC).
 * Strings and binaries still go through the transport, one copy each. The bytes are those of TBinaryProtocol,
 * strict (big-endian, the same headers); public so the benchmarks encode exactly as replies are encoded.
 */
public final class ReplyProtocol extends TBinaryProtocol {
    private final ByteBufTransport out;

    public ReplyProtocol(ByteBufTransport out) {
        super(out);
        this.out = out;
    }

    @Override
    public void writeByte(byte b) {
        out.buffer().writeByte(b);
    }

    @Override
    public void writeI16(short i16) {
        out.buffer().writeShort(i16);
    }

    @Override
    public void writeI32(int i32) {
        out.buffer().writeInt(i32);
    }

    @Override
    public void writeI64(long i64) {
        out.buffer().writeLong(i64);
    }
}
