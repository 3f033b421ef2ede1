package sibyl.transport;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * A way of doing socket I/O that Netty offers: the kind of event loop and the channel classes that go with it.
 * The native ones load only where Netty ships their library (Linux) and the kernel allows them.
 */
public enum NetworkTransport {
    /** Linux's io_uring: reads and writes are queued to the kernel and many are submitted in one system call. */
    IO_URING("io_uring", IoUring::isAvailable, IoUringIoHandler::newFactory, IoUringSocketChannel.class,
            IoUringServerSocketChannel.class),
    /** Linux's epoll, through Netty's native library: a system call per read and per write. */
    EPOLL("epoll", Epoll::isAvailable, EpollIoHandler::newFactory, EpollSocketChannel.class,
            EpollServerSocketChannel.class),
    /** The JDK's selector: everywhere. */
    NIO("nio", () -> true, NioIoHandler::newFactory, NioSocketChannel.class, NioServerSocketChannel.class);

    private final String settingName;
    private final BooleanSupplier available;
    private final Supplier<IoHandlerFactory> handlerFactory;
    private final Class<? extends SocketChannel> socketChannelClass;
    private final Class<? extends ServerChannel> serverChannelClass;

    NetworkTransport(String settingName, BooleanSupplier available, Supplier<IoHandlerFactory> handlerFactory,
                     Class<? extends SocketChannel> socketChannelClass,
                     Class<? extends ServerChannel> serverChannelClass) {
        this.settingName = settingName;
        this.available = available;
        this.handlerFactory = handlerFactory;
        this.socketChannelClass = socketChannelClass;
        this.serverChannelClass = serverChannelClass;
    }

    /** Whether this transport works in this process (its native library loaded and the kernel lets it run). */
    public boolean isAvailable() {
        return available.getAsBoolean();
    }

    /**
     * The transport named {@code name} (io_uring, epoll or nio, any case).
     *
     * @throws IllegalArgumentException if there is none of that name
     */
    public static NetworkTransport named(String name) {
        for (NetworkTransport t : values()) {
            if (t.settingName.equals(name.toLowerCase(Locale.ROOT))) {
                return t;
            }
        }
        throw new IllegalArgumentException("no network transport '" + name + "': io_uring, epoll or nio");
    }

    IoHandlerFactory handlerFactory() {
        return handlerFactory.get();
    }

    Class<? extends SocketChannel> socketChannelClass() {
        return socketChannelClass;
    }

    Class<? extends ServerChannel> serverChannelClass() {
        return serverChannelClass;
    }

    /** The name a setting gives it, and the log shows. */
    @Override
    public String toString() {
        return settingName;
    }
}
