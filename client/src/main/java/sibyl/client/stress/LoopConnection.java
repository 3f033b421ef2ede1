package sibyl.client.stress;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import org.apache.thrift.TException;
import sibyl.client.ClientException;
import sibyl.client.HostAddress;

/**
 * One connection of a {@link StressEventLoop}: a non-blocking socket with at most one call outstanding. Its calls
 * go through a {@link ThriftExchange}: encoded, written, and their reply bytes gathered as they arrive until the
 * reply is whole.
 */
final class LoopConnection {
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;

    private final HostAddress host;
    /** This connection's operations. */
    final StressCalls calls;
    private final ThriftExchange exchange;
    private SocketChannel channel;
    private SelectionKey key;
    private ByteBuffer unsent;

    StressCall call;
    long callStartNanos;
    /** When a broken connection may be reopened (nanoTime); meaningful while it is closed. */
    long reopenAt;
    /** Under --rate: when the next call may start (nanoTime), and whether the connection waits for that. */
    long nextStart;
    boolean waitingToStart;

    LoopConnection(HostAddress host, StressCalls calls, boolean framed, int maxReplyBytes) {
        this.host = host;
        this.calls = calls;
        this.exchange = new ThriftExchange(framed, maxReplyBytes);
    }

    HostAddress host() {
        return host;
    }

    boolean isOpen() {
        return channel != null;
    }

    /**
     * Connects (blocking, with a timeout), makes the dialect's handshake if it has one and registers with the
     * selector for reads.
     *
     * @throws ClientException if the server refuses the handshake or its reply is not one
     */
    void open(Selector selector) throws IOException {
        SocketChannel c = SocketChannel.open();
        try {
            c.setOption(StandardSocketOptions.TCP_NODELAY, true);
            c.socket().connect(new InetSocketAddress(host.host(), host.port()), CONNECT_TIMEOUT_MILLIS);
            StressCall handshake = calls.handshake();
            if (handshake != null) {
                handshake(c, handshake);
            }
            c.configureBlocking(false);
            key = c.register(selector, SelectionKey.OP_READ, this);
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
        channel = c;
        unsent = null;
    }

    /**
     * Runs {@code handshake} on the still blocking socket, its reply awaited for at most the connect timeout. It
     * happens at start-up and when a broken connection is reopened, so the event loop waits for it only then.
     * Only the framed transport has a handshake (the 0.7 dialect requires it).
     */
    private void handshake(SocketChannel c, StressCall handshake) throws IOException {
        ByteBuffer bytes;
        try {
            bytes = exchange.encode(handshake);
        } catch (TException e) {
            throw ClientException.wrap(handshake.operation(), e, host);
        }
        while (bytes.hasRemaining()) {
            c.write(bytes);
        }
        c.socket().setSoTimeout(CONNECT_TIMEOUT_MILLIS); // the socket's streams honour it; the channel would not
        ReadableByteChannel in = Channels.newChannel(c.socket().getInputStream());
        try {
            do {
                if (exchange.readFrom(in) < 0) {
                    throw new IOException("the server closed the connection");
                }
            } while (!exchange.tryReceive(handshake));
        } catch (TException | RuntimeException e) {
            throw ClientException.wrap(handshake.operation(), e, host);
        }
    }

    void close() {
        if (channel != null) {
            try {
                channel.close(); // also cancels the key
            } catch (IOException ignored) {
                // closing: nothing to do about it
            }
        }
        channel = null;
        key = null;
        call = null;
        waitingToStart = false;
    }

    /** Encodes and writes {@code next}; what the socket does not take now is written when it becomes writable. */
    void send(StressCall next, long now) throws TException, IOException {
        call = next;
        callStartNanos = now;
        ByteBuffer bytes = exchange.encode(next);
        channel.write(bytes);
        if (bytes.hasRemaining()) {
            unsent = bytes;
            key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        }
    }

    /** The socket became writable: writes more of the request. */
    void writeMore() throws IOException {
        if (unsent == null) {
            return;
        }
        channel.write(unsent);
        if (!unsent.hasRemaining()) {
            unsent = null;
            key.interestOps(SelectionKey.OP_READ);
        }
    }

    /**
     * Reads what has arrived and, if it completes the reply, hands it to the call.
     *
     * @return true once the call's reply has been taken (successfully or as a server-side error, thrown)
     * @throws ClientException a failure the server reported, or of the connection
     */
    boolean readReply() throws IOException {
        if (exchange.readFrom(channel) < 0) {
            throw new IOException("the server closed the connection");
        }
        if (call == null) {
            throw new IOException(exchange.pending() + " bytes arrived with no call outstanding");
        }
        StressCall answered = call;
        try {
            if (!exchange.tryReceive(answered)) {
                return false; // part of a reply: wait for the rest
            }
        } catch (TException | RuntimeException e) {
            call = null;
            throw ClientException.wrap(answered.operation(), e, host);
        }
        call = null;
        return true;
    }
}
