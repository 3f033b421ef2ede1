package sibyl.client.stress;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.apache.thrift.transport.TTransportException;
import sibyl.client.ClientException;
import sibyl.client.HostAddress;

/**
 * One connection of a {@link StressEventLoop}: a non-blocking socket with at most one call outstanding. The call is
 * encoded by the generated client into a {@link RequestBuffer} and written; reply bytes are gathered until the
 * generated client can read the whole reply from them. Unframed replies carry no length, so an attempt to read one
 * that runs out of bytes just waits for more.
 */
final class LoopConnection {
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;

    private final HostAddress host;
    /** This connection's operations. */
    final StressCalls calls;
    private final boolean framed;
    private final int maxReplyBytes;
    private final RequestBuffer request = new RequestBuffer();
    private final TMemoryInputTransport replyReader;
    private final Cassandra.Client client;
    private byte[] reply = new byte[4096];
    private int replyLength;
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
        this.framed = framed;
        this.maxReplyBytes = maxReplyBytes;
        TConfiguration configuration = TConfiguration.custom().setMaxMessageSize(maxReplyBytes).build();
        try {
            this.replyReader = new TMemoryInputTransport(configuration);
        } catch (TTransportException e) {
            throw new IllegalStateException("an empty memory transport cannot fail", e);
        }
        this.client = new Cassandra.Client(new TBinaryProtocol(replyReader), new TBinaryProtocol(request));
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
        replyLength = 0;
        unsent = null;
    }

    /**
     * Runs {@code handshake} on the still blocking socket, its reply awaited for at most the connect timeout. It
     * happens at start-up and when a broken connection is reopened, so the event loop waits for it only then.
     * Only the framed transport has a handshake (the 0.7 dialect requires it).
     */
    private void handshake(SocketChannel c, StressCall handshake) throws IOException {
        request.clear(4);
        try {
            handshake.send(client);
        } catch (TException e) {
            throw ClientException.wrap(handshake.operation(), e, host);
        }
        request.writeFrameLength();
        ByteBuffer bytes = request.contents();
        while (bytes.hasRemaining()) {
            c.write(bytes);
        }
        c.socket().setSoTimeout(CONNECT_TIMEOUT_MILLIS); // the socket's streams honour it; the channel would not
        DataInputStream in = new DataInputStream(c.socket().getInputStream());
        int frame = in.readInt();
        if (frame < 0 || frame > maxReplyBytes) {
            throw new IOException("a reply frame of " + frame + " bytes to " + handshake.operation());
        }
        if (reply.length < frame) {
            reply = new byte[frame];
        }
        in.readFully(reply, 0, frame);
        replyReader.reset(reply, 0, frame);
        try {
            handshake.receive(client);
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
        request.clear(framed ? 4 : 0);
        next.send(client);
        if (framed) {
            request.writeFrameLength();
        }
        ByteBuffer bytes = request.contents();
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
        if (replyLength == reply.length) {
            if (reply.length >= maxReplyBytes + 4) {
                throw new IOException("a reply longer than " + maxReplyBytes + " bytes");
            }
            reply = Arrays.copyOf(reply, Math.min(reply.length * 2, maxReplyBytes + 4));
        }
        int n = channel.read(ByteBuffer.wrap(reply, replyLength, reply.length - replyLength));
        if (n < 0) {
            throw new IOException("the server closed the connection");
        }
        replyLength += n;
        if (call == null) {
            throw new IOException(replyLength + " bytes arrived with no call outstanding");
        }
        if (framed) {
            if (replyLength < 4) {
                return false;
            }
            int frame = (reply[0] & 0xff) << 24 | (reply[1] & 0xff) << 16 | (reply[2] & 0xff) << 8 | reply[3] & 0xff;
            if (frame < 0 || frame > maxReplyBytes) {
                throw new IOException("a reply frame of " + frame + " bytes");
            }
            if (replyLength < 4 + frame) {
                if (reply.length < 4 + frame) {
                    reply = Arrays.copyOf(reply, 4 + frame);
                }
                return false;
            }
            replyReader.reset(reply, 4, frame);
        } else {
            replyReader.reset(reply, 0, replyLength);
        }
        StressCall answered = call;
        try {
            answered.receive(client);
        } catch (TTransportException e) {
            // An unframed reply carries no length: a read that used up every byte received ran into the end of the
            // part that has arrived (libthrift says so with END_OF_FILE or, from readAll, with no type at all).
            if (!framed && replyReader.getBytesRemainingInBuffer() == 0) {
                return false; // part of an unframed reply: wait for the rest
            }
            throw ClientException.wrap(answered.operation(), e, host);
        } catch (TException | RuntimeException e) {
            replyLength = 0;
            call = null;
            throw ClientException.wrap(answered.operation(), e, host);
        }
        replyLength = 0;
        call = null;
        return true;
    }
}
