package sibyl.hardening;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import org.apache.thrift.TBase;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TMemoryInputTransport;

/** Request bytes built by hand or from the generated argument structs, and replies read back from raw sockets. */
final class Wire {
    /** Replies larger than this are not believed: no test call asks for more. */
    static final int MAX_REPLY_BYTES = 16 * 1024 * 1024;

    private Wire() {
    }

    /** A call message of {@code args}, with the strict (versioned) header or the old one. */
    static byte[] call(String method, int seqId, TBase<?, ?> args, boolean strictHeader) {
        try {
            TMemoryBuffer buffer = new TMemoryBuffer(256);
            TProtocol out = new TBinaryProtocol(buffer, false, strictHeader);
            out.writeMessageBegin(new TMessage(method, TMessageType.CALL, seqId));
            args.write(out);
            out.writeMessageEnd();
            byte[] bytes = new byte[buffer.length()];
            System.arraycopy(buffer.getArray(), 0, bytes, 0, bytes.length);
            return bytes;
        } catch (TException e) {
            throw new IllegalStateException("writing to memory cannot fail", e);
        }
    }

    /** {@code message} preceded by its length, as TFramedTransport sends it. */
    static byte[] framed(byte[] message) {
        return ByteBuffer.allocate(4 + message.length).putInt(message.length).put(message).array();
    }

    static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    static byte[] unhex(String hex) {
        return HexFormat.of().parseHex(hex.replaceAll("\\s", ""));
    }

    /** One reply message as the server sent it. */
    record Reply(TMessage header, byte[] message) {
        boolean isException() {
            return header.type == TMessageType.EXCEPTION;
        }

        /** The application exception an EXCEPTION reply carries. */
        org.apache.thrift.TApplicationException applicationException() throws TException {
            TProtocol in = protocol(message);
            in.readMessageBegin();
            return org.apache.thrift.TApplicationException.readFrom(in);
        }

        /** Reads a REPLY's result struct into {@code result}. */
        <T extends TBase<?, ?>> T result(T result) throws TException {
            TProtocol in = protocol(message);
            in.readMessageBegin();
            result.read(in);
            return result;
        }
    }

    /**
     * Reads one reply, framed or not, or returns null if the server closed the connection before its first byte.
     * An unframed reply is cut by walking it, as a client's protocol would.
     */
    static Reply readReply(DataInputStream in, boolean framed) throws IOException, TException {
        int first = in.read();
        if (first < 0) {
            return null;
        }
        byte[] message;
        if (framed) {
            int length = (first << 24) | (in.readUnsignedByte() << 16) | (in.readUnsignedShort());
            if (length <= 0 || length > MAX_REPLY_BYTES) {
                throw new IOException("reply frame length " + length + " is not believable");
            }
            message = new byte[length];
            in.readFully(message);
        } else {
            message = readUnframed(first, in);
        }
        return new Reply(protocol(message).readMessageBegin(), message);
    }

    /** Reads exactly one unframed reply message by walking its structure with libthrift. */
    private static byte[] readUnframed(int first, DataInputStream in) throws IOException, TException {
        ByteArrayOutputStream copy = new ByteArrayOutputStream();
        copy.write(first);
        TProtocol walker = new TBinaryProtocol(new org.apache.thrift.transport.TIOStreamTransport(
                new java.io.InputStream() {
                    boolean firstServed;

                    @Override
                    public int read() throws IOException {
                        if (!firstServed) {
                            firstServed = true;
                            return first;
                        }
                        int b = in.read();
                        if (b < 0) {
                            throw new EOFException("connection closed in the middle of a reply");
                        }
                        copy.write(b);
                        return b;
                    }
                }), true, true);
        walker.readMessageBegin();
        org.apache.thrift.protocol.TProtocolUtil.skip(walker, org.apache.thrift.protocol.TType.STRUCT);
        walker.readMessageEnd();
        return copy.toByteArray();
    }

    private static TProtocol protocol(byte[] message) {
        try {
            return new TBinaryProtocol(new TMemoryInputTransport(new TConfiguration(), message), true, true);
        } catch (org.apache.thrift.transport.TTransportException e) {
            throw new IllegalStateException(e);
        }
    }
}
