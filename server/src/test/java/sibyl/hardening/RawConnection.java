package sibyl.hardening;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import org.apache.thrift.TException;

/**
 * A plain socket to a node, for bytes no generated client would send. Closing it resets the connection
 * (SO_LINGER 0), so that thousands of short fuzz connections leave no TIME_WAIT sockets behind.
 */
final class RawConnection implements AutoCloseable {
    static final int TIMEOUT_MILLIS = 10_000;

    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;
    final boolean framed;
    /** Whether nothing has been sent yet: the server decides the connection's mode from its first bytes. */
    boolean fresh = true;

    RawConnection(int port, boolean framed) throws IOException {
        this.framed = framed;
        socket = new Socket();
        socket.setSoLinger(true, 0);
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress("127.0.0.1", port), TIMEOUT_MILLIS);
        socket.setSoTimeout(TIMEOUT_MILLIS);
        out = socket.getOutputStream();
        in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
    }

    RawConnection send(byte[] bytes) throws IOException {
        fresh = false;
        out.write(bytes);
        out.flush();
        return this;
    }

    /** The next reply, or null if the server closed the connection instead. */
    Wire.Reply readReply() throws IOException, TException {
        try {
            return Wire.readReply(in, framed);
        } catch (SocketException reset) {
            return null;
        }
    }

    /**
     * Half-closes and reads until the server closes the connection.
     *
     * @return whether it closed within the timeout
     */
    boolean halfCloseAndAwaitClose() throws IOException {
        try {
            socket.shutdownOutput();
        } catch (SocketException alreadyClosed) {
            return true;
        }
        return awaitClose();
    }

    /** Reads (and discards) until the server closes the connection; false if it stays open past the timeout. */
    boolean awaitClose() throws IOException {
        InputStream input = in;
        byte[] sink = new byte[4096];
        try {
            while (input.read(sink) >= 0) {
                // replies sent before the close
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException reset) {
            return true;
        }
    }

    Socket socket() {
        return socket;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
