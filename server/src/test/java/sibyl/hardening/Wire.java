package sibyl.hardening;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.HexFormat;
import org.apache.thrift.TBase;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TMemoryInputTransport;

/**
 * Request bytes written as hex, and replies read back from raw sockets. Call messages built from the generated
 * argument structs come from {@link sibyl.transport.WireBytes}.
 */
final class Wire {
    /** Replies larger than this are not believed: no test call asks for more. */
    static final int MAX_REPLY_BYTES = 16 * 1024 * 1024;

    private Wire() {
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
