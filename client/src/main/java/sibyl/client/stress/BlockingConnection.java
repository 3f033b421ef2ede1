package sibyl.client.stress;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.thrift.TException;
import sibyl.client.ClientException;
import sibyl.client.HostAddress;
import sibyl.client.HostRotation;

/**
 * The connection of one thread of a thread-per-connection run: a blocking socket with no read timeout, so that a
 * reply that has not arrived yet costs the thread one read system call that sleeps until it does (a socket with a
 * read timeout polls first and reads again after). Calls go through a {@link ThriftExchange}, as the event loop's,
 * so the bytes on the wire are the generated client's. How long a call may take is enforced from outside by
 * {@link CallTimeouts}, which closes the socket of a call that has waited too long.
 *
 * <p>Connecting and failures follow the client library's SibylClient, which this mode used before: the hosts are
 * tried in order and the first that accepts is kept (the next connect starts with the one after it); a failure
 * that breaks the connection (network, timeout, undecodable reply) closes it and the next call reconnects; a
 * failure the server reports leaves it open. One thread uses it; CallTimeouts watches it.
 */
final class BlockingConnection {
    /** {@link #inFlight} while no call waits. */
    private static final long IDLE = Long.MIN_VALUE;
    /** {@link #inFlight} once {@link CallTimeouts} has given the call up and closed the socket. */
    private static final long TIMED_OUT = Long.MIN_VALUE + 1;

    private final HostRotation hosts;
    private final int connectTimeoutMillis;
    private final StressCall handshake;
    private final ThriftExchange exchange;
    /** Written by the owning thread, read by CallTimeouts when it gives a call up. */
    private volatile SocketChannel channel;
    private HostAddress connectedHost;
    /**
     * The start (nanoTime) of the call waiting for its reply, IDLE, or TIMED_OUT. The owning thread sets it before a
     * call and takes it back with a compare-and-set after; CallTimeouts takes it with one to give the call up, so
     * exactly one of them decides how the call ended.
     */
    private final AtomicLong inFlight = new AtomicLong(IDLE);
    private volatile boolean finished;

    /**
     * @param hosts the hosts in the order to try them
     * @param handshake the dialect's call to make first on each new connection, or null
     */
    BlockingConnection(List<HostAddress> hosts, boolean framed, int maxReplyBytes, int connectTimeoutMillis,
                       StressCall handshake) {
        this.hosts = new HostRotation(hosts);
        this.connectTimeoutMillis = connectTimeoutMillis;
        this.handshake = handshake;
        this.exchange = new ThriftExchange(framed, maxReplyBytes);
    }

    boolean isOpen() {
        return channel != null;
    }

    /**
     * Connects unless connected: the first host that accepts, then the handshake.
     *
     * @throws ClientException if no host accepts (CONNECTION), or the handshake fails
     */
    void ensureOpen() {
        if (channel != null) {
            return;
        }
        if (finished) {
            throw new IllegalStateException("this connection has been closed for good");
        }
        hosts.connect(this::openTo);
    }

    private void openTo(HostAddress host) {
        SocketChannel c;
        try {
            c = SocketChannel.open();
        } catch (IOException e) {
            throw ClientException.wrapIo("connect to " + host, e, host);
        }
        try {
            c.setOption(StandardSocketOptions.TCP_NODELAY, true);
            c.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
            c.socket().connect(new InetSocketAddress(host.host(), host.port()), connectTimeoutMillis);
        } catch (IOException e) {
            closeQuietly(c);
            throw ClientException.wrapIo("connect to " + host, e, host);
        }
        channel = c;
        connectedHost = host;
        if (handshake != null) {
            try {
                call(handshake, System.nanoTime());
            } catch (ClientException e) {
                close();
                throw e;
            }
        }
    }

    /**
     * Sends {@code call} and waits for its reply, which the call reads (and checks).
     *
     * @param startNanos when the call started (nanoTime): CallTimeouts measures its wait from there
     * @throws ClientException a failure the server reported (the connection stays open), or one that broke the
     *         connection (it is closed; the next {@link #ensureOpen} reconnects)
     */
    void call(StressCall call, long startNanos) {
        SocketChannel c = channel;
        HostAddress host = connectedHost;
        long token = inFlightToken(startNanos);
        ClientException failure = null;
        inFlight.lazySet(token); // CallTimeouts may see it a little late; it looks every 100 ms anyway
        try {
            ByteBuffer request = exchange.encode(call);
            while (request.hasRemaining()) {
                c.write(request);
            }
            do {
                if (exchange.readFrom(c) < 0) {
                    throw new IOException("the server closed the connection");
                }
            } while (!exchange.tryReceive(call));
        } catch (IOException e) {
            failure = ClientException.wrapIo(call.operation(), e, host);
        } catch (TException | RuntimeException e) {
            failure = ClientException.wrap(call.operation(), e, host);
        }
        if (!inFlight.compareAndSet(token, IDLE)) {
            // CallTimeouts gave the call up (and closed the socket), whatever happened to it since.
            inFlight.set(IDLE);
            failure = timeout(call, host);
        }
        if (failure != null) {
            if (failure.brokeConnection()) {
                close();
            }
            throw failure;
        }
    }

    /**
     * What {@link #inFlight} holds while a call that started at {@code startNanos} waits: the start itself, moved
     * two nanoseconds on in the one case in 2^63 where it equals a sentinel, so that a waiting call is never taken
     * for an idle or given-up connection.
     */
    private static long inFlightToken(long startNanos) {
        return startNanos == IDLE || startNanos == TIMED_OUT ? startNanos + 2 : startNanos;
    }

    /**
     * Gives the waiting call up if it started more than {@code timeoutNanos} before {@code now}: closes the socket,
     * which wakes the thread blocked on it. Called by CallTimeouts.
     */
    void expireIfOlder(long now, long timeoutNanos) {
        long started = inFlight.get();
        if (started != IDLE && started != TIMED_OUT && now - started > timeoutNanos
                && inFlight.compareAndSet(started, TIMED_OUT)) {
            SocketChannel c = channel;
            if (c != null) {
                closeQuietly(c);
            }
        }
    }

    /** Whether the thread using this connection is done with it. */
    boolean finished() {
        return finished;
    }

    /** Closes the socket; the next {@link #ensureOpen} reconnects. */
    void close() {
        SocketChannel c = channel;
        channel = null;
        connectedHost = null;
        if (c != null) {
            closeQuietly(c);
        }
    }

    /** Closes the socket for good: the thread using it is done. */
    void finish() {
        finished = true;
        close();
    }

    private static ClientException timeout(StressCall call, HostAddress host) {
        return new ClientException(ClientException.Kind.READ_TIMEOUT, call.operation(), "no reply from " + host,
                null);
    }

    private static void closeQuietly(SocketChannel c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // closing: nothing to do about it
        }
    }
}
