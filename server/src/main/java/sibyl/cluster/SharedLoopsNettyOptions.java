package sibyl.cluster;

import com.datastax.oss.driver.internal.core.context.NettyOptions;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.util.Timer;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.Future;

/**
 * The driver's Netty settings with its connections on event loops it is lent (the node's network threads) instead
 * of on its own: a request started on the loop that serves its connection is written without waking another
 * thread, and its answer is read on that same thread.
 *
 * <p>Everything else is the driver's default ({@code defaults}, the driver's DefaultNettyOptions): its admin
 * executor for cluster events, metadata refreshes and reconnections, its timer for request timeouts, its
 * allocator, and the socket options it sets from its configuration (TCP_NODELAY, the connect timeout, ...). On
 * close the defaults shut down what they made (the admin executor, the timer, and the I/O group they built but no
 * connection uses); the lent loops are left running, for their owner to shut down once the session has closed.
 */
final class SharedLoopsNettyOptions implements NettyOptions {
    private final NettyOptions defaults;
    private final EventLoopGroup loops;
    private final Class<? extends Channel> channelClass;

    /** @param channelClass the channel class {@code loops} serve (EpollSocketChannel for epoll loops, ...) */
    SharedLoopsNettyOptions(NettyOptions defaults, EventLoopGroup loops, Class<? extends Channel> channelClass) {
        this.defaults = defaults;
        this.loops = loops;
        this.channelClass = channelClass;
    }

    @Override
    public EventLoopGroup ioEventLoopGroup() {
        return loops;
    }

    @Override
    public Class<? extends Channel> channelClass() {
        return channelClass;
    }

    @Override
    public EventExecutorGroup adminEventExecutorGroup() {
        return defaults.adminEventExecutorGroup();
    }

    @Override
    public ByteBufAllocator allocator() {
        return defaults.allocator();
    }

    @Override
    public void afterBootstrapInitialized(Bootstrap bootstrap) {
        defaults.afterBootstrapInitialized(bootstrap);
    }

    @Override
    public void afterChannelInitialized(Channel channel) {
        defaults.afterChannelInitialized(channel);
    }

    @Override
    public Future<Void> onClose() {
        return defaults.onClose();
    }

    @Override
    public Timer getTimer() {
        return defaults.getTimer();
    }
}
