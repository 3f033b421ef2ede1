package sibyl.transport;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves TBinaryProtocol on one port, framed and unframed alike (decided per connection from its first bytes),
 * handing each whole request message to the connection's Thrift processor.
 *
 * <p>Memory: at most {@link TransportLimits#maxConnections} connections, and at most
 * {@link TransportLimits#maxHeldBytes} bytes of requests held over all of them (see {@link RequestBudget}); calls
 * beyond that are answered with an overload error, not queued.
 *
 * <p>Network threads cut messages and never block; calls run on a pool of {@code workerThreads} threads, one call
 * of a connection at a time, so replies go out in request order. Input that is not Thrift, or breaks the
 * {@link TransportLimits}, closes that one connection.
 *
 * <p>Threads: one accepting and {@code workerThreads} workers, released by {@link #close()}; connections are served
 * by the {@link NetworkLoops} given, which their owner closes after this server.
 */
public final class ThriftServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ThriftServer.class);
    /** How long {@link #close()} lets calls under way finish before interrupting them, and again after that. */
    private static final long SHUTDOWN_GRACE_SECONDS = 10;

    private final String host;
    private final int port;
    private final TransportLimits limits;
    private final int workerThreads;
    private final NetworkLoops network;
    private final ProcessorFactory processorFactory;

    private final Set<Channel> connections = ConcurrentHashMap.newKeySet();
    private final UnfinishedConnections unfinished = new UnfinishedConnections();
    private final ConnectionLimiter connectionLimiter;
    private final BurstLog overload = new BurstLog(LOG, "Thrift calls refused for want of workers");
    private final BurstLog budgetSpent = new BurstLog(LOG, "Thrift calls refused for want of request budget");
    private final RequestBudget budget;
    private final CallRunner runner;
    private final CallPlacement placement;

    private EventLoopGroup acceptGroup;
    private ThreadPoolExecutor workers;
    private volatile Channel serverChannel;
    private volatile boolean closing;

    /**
     * @param host           address to listen on; null or empty for all interfaces
     * @param port           port to listen on; 0 for any free port (see {@link #boundAddress()})
     * @param network        the loops reading and writing the connections; not closed by this server
     */
    public ThriftServer(String host, int port, TransportLimits limits, NetworkLoops network, int workerThreads,
            ProcessorFactory processorFactory) {
        if (port < 0 || port > 0xffff) {
            throw new IllegalArgumentException("port must be from 0 to 65535, not " + port);
        }
        if (workerThreads < 1) {
            throw new IllegalArgumentException("workerThreads must be at least 1, not " + workerThreads);
        }
        this.host = host == null ? "" : host;
        this.port = port;
        this.limits = Objects.requireNonNull(limits, "limits");
        this.workerThreads = workerThreads;
        this.network = Objects.requireNonNull(network, "network");
        this.processorFactory = Objects.requireNonNull(processorFactory, "processorFactory");
        this.connectionLimiter = new ConnectionLimiter(limits.maxConnections());
        this.runner = new CallRunner(limits.maxMessageBytes());
        this.placement = CallPlacement.of(processorFactory);
        this.budget = new RequestBudget(limits.maxHeldBytes());
    }

    /**
     * Binds the port and starts serving.
     *
     * @throws IllegalStateException if the address cannot be bound (port taken, unknown host), or if started before
     */
    public synchronized void start() throws InterruptedException {
        if (acceptGroup != null || closing) {
            throw new IllegalStateException("a ThriftServer can be started once");
        }
        acceptGroup = network.sameKind(1, new DefaultThreadFactory("sibyl-thrift-accept"));
        // Each connection has at most one call queued or running, so a queue as long as the connection limit
        // overflows only when connections closed with their call still waiting have been replaced by new ones.
        workers = new ThreadPoolExecutor(workerThreads, workerThreads, 0, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(limits.maxConnections()), new DefaultThreadFactory("sibyl-thrift-worker"));
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(acceptGroup, network.group())
                .channel(network.serverChannelClass())
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        initConnection(channel);
                    }
                });
        InetSocketAddress address = host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
        ChannelFuture bound;
        try {
            bound = bootstrap.bind(address).await();
        } catch (InterruptedException e) {
            closing = true;
            releaseThreads();
            throw e;
        }
        if (!bound.isSuccess()) {
            closing = true;
            releaseThreads();
            Throwable cause = bound.cause();
            throw new IllegalStateException("Cannot listen for Thrift clients on " + (host.isEmpty() ? "*" : host)
                    + ":" + port + ": " + cause.getMessage(), cause);
        }
        serverChannel = bound.channel();
        LOG.info("Listening for Thrift clients on {} (framed and unframed, {})", serverChannel.localAddress(),
                network.transport());
    }

    /** The pool calls run on, for tpstats; null before {@link #start()}. */
    public synchronized ThreadPoolExecutor workerPool() {
        return workers;
    }

    /** The address actually bound, with the port chosen when 0 was asked for. */
    public InetSocketAddress boundAddress() {
        Channel serverChannel = this.serverChannel;
        if (serverChannel == null) {
            throw new IllegalStateException("the server has not been started");
        }
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /** Client connections open now. */
    public int openConnections() {
        return connectionLimiter.open();
    }

    /** Connections closed as they arrived since start, because {@link TransportLimits#maxConnections} were open. */
    public long refusedConnections() {
        return connectionLimiter.refused();
    }

    /**
     * Calls answered "Server overloaded" since start because the server held its limit of request bytes (see
     * {@link RequestBudget}).
     */
    public long callsRefusedForRequestBytes() {
        return budgetSpent.total();
    }

    /** Calls answered "Server overloaded" since start because the queue of calls waiting for a worker was full. */
    public long callsRefusedForWorkers() {
        return overload.total();
    }

    /** Bytes of requests held now over all connections (see {@link RequestBudget}); for tests and monitoring. */
    long heldRequestBytes() {
        return budget.held();
    }

    /**
     * Stops accepting, closes every connection, lets calls under way finish (interrupting them after a grace
     * period) and releases the accepting thread and the workers; the network loops go on until their owner closes
     * them. Idempotent. Must not be called from a network thread.
     */
    @Override
    public synchronized void close() {
        if (closing) {
            return;
        }
        closing = true;
        if (acceptGroup == null) {
            return;
        }
        serverChannel.close().awaitUninterruptibly();
        List<Channel> open = new ArrayList<>(connections);
        open.forEach(Channel::close);
        open.forEach(channel -> channel.closeFuture().awaitUninterruptibly());
        releaseThreads();
        awaitCloseActions();
        LOG.info("Stopped listening for Thrift clients on {}", serverChannel.localAddress());
    }

    private void initConnection(SocketChannel channel) {
        if (closing || !connectionLimiter.tryAcquire(channel.remoteAddress())) {
            channel.close();
            return;
        }
        connections.add(channel);
        channel.closeFuture().addListener(closed -> {
            connections.remove(channel);
            connectionLimiter.release();
        });
        ChannelPipeline pipeline = channel.pipeline();
        if (limits.idleTimeoutSeconds() > 0) {
            pipeline.addLast("idle", new IdleStateHandler(0, 0, limits.idleTimeoutSeconds()));
        }
        pipeline.addLast("messages", new WireModeDetector(limits.maxMessageBytes(), budget, budgetSpent));
        pipeline.addLast("calls", new CallDispatcher(processorFactory, runner, budget, workers, placement, overload,
                limits.maxMessageBytes(), unfinished));
    }

    /**
     * A call that finished on a worker hands its end to its connection's network thread, which runs the close
     * actions of a connection closed under it only then, after the workers have ended.
     */
    private void awaitCloseActions() {
        try {
            if (!unfinished.awaitNone(SHUTDOWN_GRACE_SECONDS, TimeUnit.SECONDS)) {
                LOG.warn("Thrift connections still running their close actions {} s after their calls ended",
                        SHUTDOWN_GRACE_SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Drains the workers while the network loops still run, so that finished calls can still post their replies to
     * them.
     */
    private void releaseThreads() {
        boolean interrupted = false;
        workers.shutdown();
        try {
            if (!workers.awaitTermination(SHUTDOWN_GRACE_SECONDS, TimeUnit.SECONDS)) {
                LOG.warn("Thrift calls still running {} s after shutdown began; interrupting them", SHUTDOWN_GRACE_SECONDS);
                workers.shutdownNow();
                if (!workers.awaitTermination(SHUTDOWN_GRACE_SECONDS, TimeUnit.SECONDS)) {
                    LOG.error("Thrift calls ignored the interrupt; their worker threads are left running");
                }
            }
        } catch (InterruptedException e) {
            workers.shutdownNow();
            interrupted = true;
        }
        acceptGroup.shutdownGracefully(0, SHUTDOWN_GRACE_SECONDS, TimeUnit.SECONDS).awaitUninterruptibly();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
