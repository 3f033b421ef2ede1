package sibyl.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TBase;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TIOStreamTransport;
import org.apache.thrift.transport.TMemoryInputTransport;

/** A plain socket to the server, for sending bytes no well-behaved client would, and reading replies by hand. */
final class RawClient implements AutoCloseable {
    static final int TIMEOUT_MILLIS = 10_000;

    /** A reply: its header and, for an EXCEPTION message, the TApplicationException it carries. */
    record Reply(TMessage header, TApplicationException exception) {
    }

    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;

    RawClient(InetSocketAddress server) throws IOException {
        socket = new Socket();
        socket.connect(server, TIMEOUT_MILLIS);
        socket.setSoTimeout(TIMEOUT_MILLIS);
        socket.setTcpNoDelay(true);
        out = socket.getOutputStream();
        in = new DataInputStream(socket.getInputStream());
    }

    Socket socket() {
        return socket;
    }

    RawClient send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    /** Reads one reply; a REPLY's result struct is read into {@code result}. */
    Reply readReply(boolean framed, TBase<?, ?> result) throws IOException, TException {
        TProtocol protocol;
        if (framed) {
            byte[] frame = new byte[in.readInt()];
            in.readFully(frame);
            protocol = new TBinaryProtocol(new TMemoryInputTransport(frame), true, true);
        } else {
            protocol = new TBinaryProtocol(new TIOStreamTransport(in), true, true);
        }
        TMessage header = protocol.readMessageBegin();
        TApplicationException exception = null;
        if (header.type == TMessageType.EXCEPTION) {
            exception = TApplicationException.readFrom(protocol);
        } else {
            assertEquals(TMessageType.REPLY, header.type, "message type");
            result.read(protocol);
        }
        protocol.readMessageEnd();
        return new Reply(header, exception);
    }

    /** Waits for the server to close the connection; fails if it is still open after the timeout. */
    void assertClosedByServer() throws IOException {
        assertClosedByServer(socket);
    }

    static void assertClosedByServer(Socket socket) throws IOException {
        InputStream input = socket.getInputStream();
        byte[] sink = new byte[4096];
        try {
            while (input.read(sink) >= 0) {
                // replies sent before the close
            }
        } catch (SocketTimeoutException e) {
            fail("the server did not close the connection within " + socket.getSoTimeout() + " ms");
        } catch (SocketException e) {
            // reset: the server closed with our bytes unread
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
