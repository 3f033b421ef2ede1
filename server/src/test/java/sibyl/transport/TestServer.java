package sibyl.transport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;

/**
 * A started ThriftServer on a free local port over a {@link StubCassandra}, on network loops of its own; closes its
 * clients, itself and then its loops.
 */
final class TestServer implements AutoCloseable {
    static final int MAX_MESSAGE_BYTES = 64 * 1024;

    final StubCassandra stub = new StubCassandra();
    /** Every connection the processor factory was called for. */
    final List<ConnectionContext> connections = new CopyOnWriteArrayList<>();
    /** How many connections have run their close action. */
    final AtomicInteger closedConnections = new AtomicInteger();
    final NetworkLoops network = NetworkLoops.open(0);
    final ThriftServer server;
    private final List<AutoCloseable> clients = new CopyOnWriteArrayList<>();

    TestServer() throws InterruptedException {
        this(new TransportLimits(MAX_MESSAGE_BYTES, 100, 0), 4);
    }

    TestServer(TransportLimits limits, int workerThreads) throws InterruptedException {
        server = new ThriftServer("127.0.0.1", 0, limits, network, workerThreads, connection -> {
            connections.add(connection);
            connection.onClose(closedConnections::incrementAndGet);
            return new Cassandra.Processor<>(stub);
        });
        server.start();
    }

    InetSocketAddress address() {
        return server.boundAddress();
    }

    /** A generated client; strict writes versioned headers, else old-style ones. */
    Cassandra.Client client(boolean framed, boolean strict) throws TTransportException {
        InetSocketAddress address = address();
        TTransport transport = new TSocket(address.getHostString(), address.getPort(), RawClient.TIMEOUT_MILLIS);
        if (framed) {
            transport = new TFramedTransport(transport);
        }
        transport.open();
        clients.add(transport);
        return new Cassandra.Client(new TBinaryProtocol(transport, false, strict));
    }

    RawClient raw() throws IOException {
        RawClient raw = new RawClient(address());
        clients.add(raw);
        return raw;
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable client : clients) {
            client.close();
        }
        server.close();
        network.close();
    }
}
