package sibyl.metrics;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpContentCompressor;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.flow.FlowControlHandler;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves a {@link MetricsRegistry} over HTTP/1.1: {@code GET /metrics} (or HEAD) answers the
 * scrape in the text format, gzipped when the client accepts it; any other path is 404, any
 * other method 405. Keep-alive as the client asks, as Prometheus does between scrapes.
 *
 * <p>It has its own single thread, apart from the Thrift server's, and takes nothing from it: a
 * slow or stuck scraper, or one that never finishes its request, delays only other scrapes.
 * Limits keep it small: {@value #MAX_CONNECTIONS} connections, requests of at most
 * {@value #MAX_REQUEST_BYTES} bytes, connections idle for {@value #IDLE_SECONDS} s closed.
 */
public final class MetricsServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MetricsServer.class);
    static final int MAX_CONNECTIONS = 64;
    static final int MAX_REQUEST_BYTES = 16 * 1024;
    static final int IDLE_SECONDS = 60;

    private final EventLoopGroup group;
    private final Channel channel;

    private MetricsServer(EventLoopGroup group, Channel channel) {
        this.group = group;
        this.channel = channel;
    }

    /**
     * Listens on {@code host:port} (port 0: any free one).
     *
     * @throws IOException when the address cannot be bound
     */
    public static MetricsServer start(String host, int port, MetricsRegistry registry) throws IOException {
        EventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory("sibyl-metrics", true));
        AtomicInteger open = new AtomicInteger();
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (open.incrementAndGet() > MAX_CONNECTIONS) {
                            open.decrementAndGet();
                            ch.close();
                            return;
                        }
                        ch.closeFuture().addListener(f -> open.decrementAndGet());
                        ChannelPipeline p = ch.pipeline();
                        p.addLast(new IdleStateHandler(0, 0, IDLE_SECONDS, TimeUnit.SECONDS));
                        p.addLast(new HttpServerCodec(4096, 8192, 8192));
                        // Holds back requests already read while the handler has stopped reading (see there).
                        p.addLast(new FlowControlHandler());
                        p.addLast(new HttpContentCompressor());
                        p.addLast(new HttpObjectAggregator(MAX_REQUEST_BYTES));
                        p.addLast(new MetricsRequestHandler(registry));
                    }
                });
        ChannelFuture bound = bootstrap.bind(new InetSocketAddress(host, port)).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
            Throwable cause = bound.cause();
            throw new IOException("cannot listen on " + host + ":" + port + ": " + cause.getMessage(), cause);
        }
        log.info("Metrics (Prometheus text format) on http://{}/metrics", hostAndPort(bound.channel()));
        return new MetricsServer(group, bound.channel());
    }

    public InetSocketAddress boundAddress() {
        return (InetSocketAddress) channel.localAddress();
    }

    /** Stops listening, closes every connection and releases the thread. */
    @Override
    public void close() {
        channel.close().awaitUninterruptibly();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly();
    }

    private static String hostAndPort(Channel channel) {
        InetSocketAddress a = (InetSocketAddress) channel.localAddress();
        return a.getHostString() + ":" + a.getPort();
    }
}
