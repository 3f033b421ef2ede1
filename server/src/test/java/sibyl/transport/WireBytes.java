package sibyl.transport;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.thrift.TBase;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryBuffer;

/**
 * Builds TBinaryProtocol bytes by hand, including ones no library would write; and, for tests of other
 * packages too, whole call messages as libthrift writes them, framed or not.
 */
public final class WireBytes {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    WireBytes i8(int value) {
        out.write(value);
        return this;
    }

    WireBytes i16(int value) {
        return i8(value >> 8).i8(value);
    }

    WireBytes i32(int value) {
        return i16(value >> 16).i16(value);
    }

    WireBytes i64(long value) {
        return i32((int) (value >> 32)).i32((int) value);
    }

    WireBytes raw(byte[] bytes) {
        out.writeBytes(bytes);
        return this;
    }

    WireBytes string(String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        return i32(bytes.length).raw(bytes);
    }

    /** The versioned header libthrift writes by default. */
    WireBytes strictHeader(String method, byte type, int seqId) {
        return i32(0x80010000 | type).string(method).i32(seqId);
    }

    /** The old header, without version, that TBinaryProtocol(transport, false, false) writes. */
    WireBytes oldHeader(String method, byte type, int seqId) {
        return string(method).i8(type).i32(seqId);
    }

    WireBytes field(byte type, int id) {
        return i8(type).i16(id);
    }

    WireBytes stop() {
        return i8(TType.STOP);
    }

    int length() {
        return out.size();
    }

    byte[] toArray() {
        return out.toByteArray();
    }

    /** The bytes so far preceded by their length, as TFramedTransport sends them. */
    byte[] framed() {
        return new WireBytes().i32(out.size()).raw(toArray()).toArray();
    }

    /** A whole call message as libthrift's TBinaryProtocol writes it, strict or old-style. */
    public static byte[] call(String method, int seqId, TBase<?, ?> args, boolean strict) {
        try {
            TMemoryBuffer buffer = new TMemoryBuffer(64);
            TBinaryProtocol protocol = new TBinaryProtocol(buffer, false, strict);
            protocol.writeMessageBegin(new TMessage(method, TMessageType.CALL, seqId));
            args.write(protocol);
            protocol.writeMessageEnd();
            return Arrays.copyOf(buffer.getArray(), buffer.length());
        } catch (TException e) {
            throw new AssertionError(e);
        }
    }

    /** {@code message} preceded by its length, as TFramedTransport sends it. */
    public static byte[] framed(byte[] message) {
        return new WireBytes().raw(message).framed();
    }

    static byte[] concat(byte[]... parts) {
        WireBytes all = new WireBytes();
        for (byte[] part : parts) {
            all.raw(part);
        }
        return all.toArray();
    }
}
