package sibyl.client.fake;

import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.server.ServerContext;
import org.apache.thrift.server.TServerEventHandler;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;
import sibyl.client.HostAddress;

/** Serves a {@link FakeCassandra} on a free local port, unframed or framed, one thread per connection. */
public final class FakeServer implements AutoCloseable {

    private final FakeCassandra handler;
    private final TServerSocket socket;
    private final TThreadPoolServer server;
    private final Thread thread;

    private FakeServer(FakeCassandra handler, boolean framed) throws TTransportException {
        this.handler = handler;
        this.socket = new TServerSocket(new InetSocketAddress("127.0.0.1", 0));
        AtomicInteger n = new AtomicInteger();
        ExecutorService workers = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 10, TimeUnit.SECONDS,
                new SynchronousQueue<>(), r -> {
                    Thread t = new Thread(r, "fake-cassandra-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        TThreadPoolServer.Args args = new TThreadPoolServer.Args(socket)
                .processor(new Cassandra.Processor<>(handler))
                .protocolFactory(new TBinaryProtocol.Factory())
                .executorService(workers)
                .stopTimeoutVal(1)
                .stopTimeoutUnit(TimeUnit.SECONDS);
        if (framed) {
            args.transportFactory(new TFramedTransport.Factory());
        }
        this.server = new TThreadPoolServer(args);
        server.setServerEventHandler(new TServerEventHandler() {
            @Override
            public void preServe() {
            }

            @Override
            public ServerContext createContext(TProtocol input, TProtocol output) {
                handler.connectionStarted();
                return null;
            }

            @Override
            public void deleteContext(ServerContext context, TProtocol input, TProtocol output) {
            }

            @Override
            public void processContext(ServerContext context, TTransport in, TTransport out) {
            }
        });
        this.thread = new Thread(server::serve, "fake-cassandra-acceptor");
        thread.setDaemon(true);
        thread.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!server.isServing() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }

    public static FakeServer start(FakeCassandra handler, boolean framed) {
        try {
            return new FakeServer(handler, framed);
        } catch (TTransportException e) {
            throw new IllegalStateException("cannot start the fake server", e);
        }
    }

    public static FakeServer start() {
        return start(new FakeCassandra(), false);
    }

    public FakeCassandra handler() {
        return handler;
    }

    public int port() {
        return socket.getServerSocket().getLocalPort();
    }

    public HostAddress address() {
        return new HostAddress("127.0.0.1", port());
    }

    @Override
    public void close() throws InterruptedException {
        server.stop();
        thread.join(5_000);
    }
}
