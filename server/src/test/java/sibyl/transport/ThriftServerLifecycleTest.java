package sibyl.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.cassandra.thrift.Cassandra;
import org.junit.jupiter.api.Test;

/** Starting, stopping, and what a connection's end does. */
class ThriftServerLifecycleTest {
    private static final String THREAD_PREFIX = "sibyl-thrift-";

    @Test
    void aTakenPortIsAClearErrorAndLeavesNoThreads() throws Exception {
        try (TestServer first = new TestServer(); NetworkLoops loops = NetworkLoops.open(0)) {
            int port = first.address().getPort();
            ThriftServer second = new ThriftServer("127.0.0.1", port, new TransportLimits(1024, 10, 0), loops, 2,
                    connection -> new Cassandra.Processor<>(new StubCassandra()));
            IllegalStateException refused = assertThrows(IllegalStateException.class, second::start);
            assertTrue(refused.getMessage().startsWith("Cannot listen for Thrift clients on 127.0.0.1:" + port + ": "),
                    refused.getMessage());
            second.close();
            assertThrows(IllegalStateException.class, second::start, "a server starts once");
            assertEquals(StubCassandra.VERSION, first.client(false, true).describe_version());
        }
        awaitNoServerThreads();
    }

    @Test
    void closingManyServersLeaksNoThreads() throws Exception {
        for (int i = 0; i < 20; i++) {
            try (TestServer server = new TestServer()) {
                assertEquals(StubCassandra.VERSION, server.client(i % 2 == 0, true).describe_version());
                server.raw(); // left open by the client: the server closes it
            }
        }
        awaitNoServerThreads();
    }

    @Test
    void closeClosesConnectionsAndRunsTheirCloseActions() throws Exception {
        TestServer server = new TestServer();
        try {
            RawClient first = server.raw();
            RawClient second = server.raw();
            ThriftServerTest.assertDescribeVersionWorks(first, false);
            ThriftServerTest.assertDescribeVersionWorks(second, true);
            server.server.close();
            first.assertClosedByServer();
            second.assertClosedByServer();
            assertEquals(2, server.closedConnections.get(), "close() returns after the close actions ran");
        } finally {
            server.close();
        }
    }

    @Test
    void closeLetsTheCallUnderWayFinish() throws Exception {
        try (TestServer server = new TestServer()) {
            Cassandra.Client client = server.client(false, true);
            CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> {
                try {
                    return client.describe_partitioner();
                } catch (Exception e) {
                    return e.toString();
                }
            });
            assertTrue(server.stub.gatedCallStarted.await(10, TimeUnit.SECONDS));
            InetSocketAddress address = server.address();
            CompletableFuture<Void> closing = CompletableFuture.runAsync(server.server::close);
            Await.until("the server stopped accepting", () -> {
                try (Socket probe = new Socket(address.getAddress(), address.getPort())) {
                    return false;
                } catch (IOException refused) {
                    return true;
                }
            });
            assertFalse(closing.isDone(), "close() waits for the call under way");
            server.stub.gate.countDown();
            closing.get(20, TimeUnit.SECONDS);
            assertEquals(0, server.stub.gatedCallsRunning.get());
            call.get(10, TimeUnit.SECONDS); // the client sees the reply or the close; either way it is not left hanging
            // Probes that got in before the close count too.
            assertEquals(server.connections.size(), server.closedConnections.get());
        }
    }

    /** Per-connection state (the login) must not be dropped under a call that may still use it. */
    @Test
    void closeActionsWaitForTheCallUnderWay() throws Exception {
        try (TestServer server = new TestServer()) {
            AtomicBoolean ranDuringCall = new AtomicBoolean();
            RawClient raw = server.raw();
            raw.send(WireBytes.call("describe_partitioner", 1, new Cassandra.describe_partitioner_args(), true));
            assertTrue(server.stub.gatedCallStarted.await(10, TimeUnit.SECONDS));
            server.connections.get(0).onClose(() -> ranDuringCall.set(server.stub.gatedCallsRunning.get() > 0));
            raw.close();
            // Gives the server time to see the close while the call still runs; if it is slower, the check is
            // merely not exercised, it cannot fail wrongly.
            Thread.sleep(300);
            assertEquals(0, server.closedConnections.get());
            server.stub.gate.countDown();
            Await.until("the close actions ran", () -> server.closedConnections.get() == 1);
            assertFalse(ranDuringCall.get());
        }
    }

    @Test
    void boundAddressNeedsAStartedServer() {
        try (NetworkLoops loops = NetworkLoops.open(1)) {
            ThriftServer server = new ThriftServer(null, 0, new TransportLimits(1024, 10, 0), loops, 1,
                    connection -> new Cassandra.Processor<>(new StubCassandra()));
            assertThrows(IllegalStateException.class, server::boundAddress);
            server.close();
        }
    }

    @Test
    void aFailingProcessorFactoryClosesOnlyThatConnection() throws Exception {
        AtomicBoolean fail = new AtomicBoolean(true);
        try (NetworkLoops loops = NetworkLoops.open(1)) {
            ThriftServer server = new ThriftServer("127.0.0.1", 0, new TransportLimits(1024, 10, 0), loops, 1,
                    connection -> {
                        if (fail.getAndSet(false)) {
                            throw new IllegalStateException("no processor today");
                        }
                        return new Cassandra.Processor<>(new StubCassandra());
                    });
            server.start();
            try (RawClient refused = new RawClient(server.boundAddress())) {
                refused.assertClosedByServer();
            }
            try (RawClient served = new RawClient(server.boundAddress())) {
                ThriftServerTest.assertDescribeVersionWorks(served, false);
            } finally {
                server.close();
            }
        }
    }

    /**
     * The network loops belong to whoever opened them (the node, which shares them with the cluster driver): a
     * server's close leaves them serving, and another server can be run on them.
     */
    @Test
    void closeLeavesTheNetworkLoopsToTheirOwner() throws Exception {
        try (NetworkLoops loops = NetworkLoops.open(2)) {
            for (int i = 0; i < 2; i++) {
                ThriftServer server = new ThriftServer("127.0.0.1", 0, new TransportLimits(1024, 10, 0), loops, 1,
                        connection -> new Cassandra.Processor<>(new StubCassandra()));
                server.start();
                try (RawClient client = new RawClient(server.boundAddress())) {
                    ThriftServerTest.assertDescribeVersionWorks(client, false);
                } finally {
                    server.close();
                }
                assertFalse(loops.group().isShuttingDown(), "the server shut down the loops it was lent");
            }
        }
        awaitNoServerThreads();
    }

    @Test
    void connectionsShareTheConfiguredNumberOfNetworkThreads() throws Exception {
        for (int threads : List.of(1, 3)) {
            NetworkLoops loops = NetworkLoops.open(threads);
            ThriftServer server = new ThriftServer("127.0.0.1", 0, new TransportLimits(1024, 10, 0), loops, 1,
                    connection -> new Cassandra.Processor<>(new StubCassandra()));
            server.start();
            try (RawClient a = new RawClient(server.boundAddress());
                 RawClient b = new RawClient(server.boundAddress());
                 RawClient c = new RawClient(server.boundAddress())) {
                for (RawClient client : List.of(a, b, c)) ThriftServerTest.assertDescribeVersionWorks(client, false);
                // Netty starts a network thread when the first connection is handed to it, in turn.
                assertEquals(threads, serverThreads().stream().filter(name -> name.startsWith(THREAD_PREFIX + "io-"))
                        .count(), () -> "network threads among " + serverThreads());
            } finally {
                server.close();
                loops.close();
            }
            awaitNoServerThreads();
        }
        assertThrows(IllegalArgumentException.class, () -> NetworkLoops.open(-1));
    }

    private static void awaitNoServerThreads() {
        Await.until("the servers' threads have ended", Duration.ofSeconds(20), () -> serverThreads().isEmpty());
    }

    private static List<String> serverThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .map(Thread::getName)
                .filter(name -> name.startsWith(THREAD_PREFIX))
                .toList();
    }
}
