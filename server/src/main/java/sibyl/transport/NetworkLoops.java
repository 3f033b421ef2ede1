package sibyl.transport;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The node's network threads: the event loops that read and write its sockets. The Thrift server serves its
 * clients' connections on them ({@link ThriftServer}); in cluster mode the driver runs its connections to the
 * cluster on the same loops, so that a call whose Thrift connection and driver connection share a loop is read,
 * sent to the cluster, answered and replied to on one thread, with no hand-off between threads.
 *
 * <p>Whoever opens the loops closes them, after everything running connections on them has closed: the users of
 * the loops never shut them down.
 *
 * <p>The transport is the first of {@link #PREFERENCE} that works here. Linux's io_uring first: a loop hands the
 * kernel the reads and writes of all its ready connections in one system call, where epoll makes one per read and
 * per write; with a thread and a blocking connection per client, as our users' clients mostly are, that took a
 * fifth less server CPU per call and a quarter of the context switches (bench/RESULTS.md, 2026-12-08 02:20). Then
 * Netty's native epoll where io_uring is refused (an older kernel, a container's seccomp filter), with fewer system
 * calls and less garbage per read and write than the JDK's selector; NIO elsewhere. The system property
 * {@value #TRANSPORT_PROPERTY} (io_uring, epoll or nio) asks for one instead, for comparisons; a start with one that
 * does not work here fails. A
 * channel must be of the kind its loop serves, so the loops say which channel classes go with them.
 */
public final class NetworkLoops implements AutoCloseable {
    /** What the network threads are called, followed by a number. */
    public static final String THREAD_NAME = "sibyl-thrift-io";
    /** How long {@link #close()} waits for the loops' threads to end. */
    private static final long SHUTDOWN_TIMEOUT_SECONDS = 10;

    /** The system property that names the transport to use instead of the first of {@link #PREFERENCE}. */
    public static final String TRANSPORT_PROPERTY = "sibyl.network.transport";
    /** The transports in the order they are tried when none is asked for. */
    static final List<NetworkTransport> PREFERENCE = List.of(NetworkTransport.IO_URING, NetworkTransport.EPOLL,
            NetworkTransport.NIO);

    private final NetworkTransport transport;
    private final int threads;
    private final EventLoopGroup group;

    private NetworkLoops(NetworkTransport transport, int threads, EventLoopGroup group) {
        this.transport = transport;
        this.threads = threads;
        this.group = group;
    }

    /**
     * Loops on threads named {@value #THREAD_NAME}-...; the threads start as connections are given to the loops.
     *
     * @param threads how many; 0 for one per available processor
     */
    public static NetworkLoops open(int threads) {
        return open(threads, new DefaultThreadFactory(THREAD_NAME));
    }

    /**
     * As {@link #open(int)}, with the threads made by {@code threadFactory} (the cluster backend marks them as its
     * driver's own).
     */
    public static NetworkLoops open(int threads, ThreadFactory threadFactory) {
        return open(threads, threadFactory,
                chosen(System.getProperty(TRANSPORT_PROPERTY, ""), PREFERENCE, NetworkTransport::isAvailable));
    }

    /** As {@link #open(int, ThreadFactory)}, on {@code transport}, which the caller has found available. */
    static NetworkLoops open(int threads, ThreadFactory threadFactory, NetworkTransport transport) {
        if (threads < 0) {
            throw new IllegalArgumentException("network threads must be 0 (one per processor) or more, not " + threads);
        }
        int n = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
        return new NetworkLoops(transport, n, group(transport, n, threadFactory));
    }

    /**
     * The transport named by {@code asked}, or if that is empty the first of {@code preference} that {@code works}.
     *
     * @throws IllegalArgumentException if {@code asked} names no transport
     * @throws IllegalStateException    if the one asked for, or every one of {@code preference}, does not work
     */
    static NetworkTransport chosen(String asked, List<NetworkTransport> preference, Predicate<NetworkTransport> works) {
        if (!asked.isEmpty()) {
            NetworkTransport named = NetworkTransport.named(asked);
            if (!works.test(named)) {
                throw new IllegalStateException("-D" + TRANSPORT_PROPERTY + "=" + asked + ": the " + named
                        + " network transport does not work here");
            }
            return named;
        }
        for (NetworkTransport t : preference) {
            if (works.test(t)) {
                return t;
            }
        }
        throw new IllegalStateException("none of the network transports " + preference + " works here");
    }

    /** A group of loops of the same transport as these, for threads of another job (accepting connections). */
    EventLoopGroup sameKind(int threads, ThreadFactory threadFactory) {
        return group(transport, threads, threadFactory);
    }

    private static EventLoopGroup group(NetworkTransport transport, int threads, ThreadFactory threadFactory) {
        return new MultiThreadIoEventLoopGroup(threads, threadFactory, transport.handlerFactory());
    }

    public EventLoopGroup group() {
        return group;
    }

    /** How many loops, each on a thread of its own. */
    public int threads() {
        return threads;
    }

    /** The class of client socket channels these loops serve. */
    public Class<? extends SocketChannel> socketChannelClass() {
        return transport.socketChannelClass();
    }

    /** The class of listening channels these loops (and {@link #sameKind} ones) serve. */
    Class<? extends ServerChannel> serverChannelClass() {
        return transport.serverChannelClass();
    }

    /** The transport the loops use. */
    public NetworkTransport transport() {
        return transport;
    }

    /**
     * Ends the threads, letting tasks already queued run; waits for them. Call after the Thrift server and the
     * driver have closed their connections. Idempotent; must not be called from a network thread.
     */
    @Override
    public void close() {
        group.shutdownGracefully(0, SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
