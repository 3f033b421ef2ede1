package sibyl.transport;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The node's network threads: the event loops that read and write its sockets. The Thrift server serves its
 * clients' connections on them ({@link ThriftServer}); in cluster mode the driver runs its connections to the
 * cluster on the same loops, so that a call whose Thrift connection and driver connection share a loop is read,
 * sent to the cluster, answered and replied to on one thread, with no hand-off between threads.
 *
 * <p>Whoever opens the loops closes them, after everything running connections on them has closed: the users of
 * the loops never shut them down.
 *
 * <p>Netty's native epoll transport where it loads (Linux on the architectures netty-all ships it for): fewer
 * system calls and less garbage per read and write than the JDK's selector; NIO elsewhere. A channel must be of
 * the kind its loop serves, so the loops say which channel classes go with them.
 */
public final class NetworkLoops implements AutoCloseable {
    /** What the network threads are called, followed by a number. */
    public static final String THREAD_NAME = "sibyl-thrift-io";
    /** How long {@link #close()} waits for the loops' threads to end. */
    private static final long SHUTDOWN_TIMEOUT_SECONDS = 10;

    private final boolean epoll;
    private final int threads;
    private final EventLoopGroup group;

    private NetworkLoops(boolean epoll, int threads, EventLoopGroup group) {
        this.epoll = epoll;
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
        if (threads < 0) {
            throw new IllegalArgumentException("network threads must be 0 (one per processor) or more, not " + threads);
        }
        int n = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
        boolean epoll = Epoll.isAvailable();
        return new NetworkLoops(epoll, n, group(epoll, n, threadFactory));
    }

    /** A group of loops of the same transport as these, for threads of another job (accepting connections). */
    EventLoopGroup sameKind(int threads, ThreadFactory threadFactory) {
        return group(epoll, threads, threadFactory);
    }

    private static EventLoopGroup group(boolean epoll, int threads, ThreadFactory threadFactory) {
        return epoll ? new EpollEventLoopGroup(threads, threadFactory) : new NioEventLoopGroup(threads, threadFactory);
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
        return epoll ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /** The class of listening channels these loops (and {@link #sameKind} ones) serve. */
    Class<? extends ServerChannel> serverChannelClass() {
        return epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    /** "epoll" or "NIO", for the log. */
    String transportName() {
        return epoll ? "epoll" : "NIO";
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
