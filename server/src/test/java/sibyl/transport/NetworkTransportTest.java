package sibyl.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.List;
import org.apache.cassandra.thrift.Cassandra;
import org.junit.jupiter.api.Test;

/** Which network transport the loops use, and that each one serves clients. */
class NetworkTransportTest {
    private static final List<NetworkTransport> ALL = List.of(NetworkTransport.values());

    /**
     * Every transport that works here serves: NIO everywhere, epoll on Linux, io_uring where the kernel also lets
     * the process use it (containers often forbid it).
     */
    @Test
    void everyTransportThatWorksHereServesCallsFramedAndUnframed() throws Exception {
        assertTrue(NetworkTransport.NIO.isAvailable());
        if (System.getProperty("os.name", "").equals("Linux")) {
            assertTrue(NetworkTransport.EPOLL.isAvailable(), "epoll does not work on this Linux");
        }
        for (NetworkTransport transport : ALL) {
            if (!transport.isAvailable()) {
                continue;
            }
            try (NetworkLoops loops = NetworkLoops.open(2, new DefaultThreadFactory(NetworkLoops.THREAD_NAME),
                    transport)) {
                assertServes(loops);
            }
        }
    }

    /** Unless the test run asks for a transport with the system property, as it may to run every test on one. */
    @Test
    void theLoopsOpenedWithoutAChoiceUseTheFirstPreferredTransportThatWorks() throws Exception {
        String asked = System.getProperty(NetworkLoops.TRANSPORT_PROPERTY, "");
        NetworkTransport expected = asked.isEmpty()
                ? NetworkLoops.PREFERENCE.stream().filter(NetworkTransport::isAvailable).findFirst().orElseThrow()
                : NetworkTransport.named(asked);
        try (NetworkLoops loops = NetworkLoops.open(1)) {
            assertEquals(expected, loops.transport());
            assertServes(loops);
        }
    }

    /** Where the first choice is refused (no native library, a kernel that forbids it), the next one serves. */
    @Test
    void aRefusedTransportFallsBackToTheNextPreferred() throws Exception {
        NetworkTransport first = NetworkLoops.PREFERENCE.get(0);
        NetworkTransport fallback = NetworkLoops.chosen("", NetworkLoops.PREFERENCE, t -> t != first);
        assertEquals(NetworkLoops.PREFERENCE.get(1), fallback);
        try (NetworkLoops loops = NetworkLoops.open(1, new DefaultThreadFactory(NetworkLoops.THREAD_NAME), fallback)) {
            assertServes(loops);
        }
        assertEquals(NetworkTransport.NIO, NetworkLoops.chosen("", ALL, t -> t == NetworkTransport.NIO));
        IllegalStateException none = assertThrows(IllegalStateException.class,
                () -> NetworkLoops.chosen("", ALL, t -> false));
        assertEquals("none of the network transports [io_uring, epoll, nio] works here", none.getMessage());
    }

    @Test
    void aTransportAskedForIsTakenOrRefusedNeverReplaced() {
        assertEquals(NetworkTransport.EPOLL, NetworkLoops.chosen("epoll", ALL, t -> true));
        assertEquals(NetworkTransport.IO_URING, NetworkLoops.chosen("IO_URING", ALL, t -> true));
        assertEquals(NetworkTransport.NIO, NetworkLoops.chosen("nio", List.of(NetworkTransport.EPOLL), t -> true));
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> NetworkLoops.chosen("io_uring", ALL, t -> t != NetworkTransport.IO_URING));
        assertEquals("-Dsibyl.network.transport=io_uring: the io_uring network transport does not work here",
                refused.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> NetworkLoops.chosen("kqueue", ALL, t -> true));
        assertEquals("no network transport 'kqueue': io_uring, epoll or nio", unknown.getMessage());
    }

    private static void assertServes(NetworkLoops loops) throws Exception {
        ThriftServer server = new ThriftServer("127.0.0.1", 0, new TransportLimits(1024, 10, 0), loops, 1,
                connection -> new Cassandra.Processor<>(new StubCassandra()));
        server.start();
        try (RawClient unframed = new RawClient(server.boundAddress());
             RawClient framed = new RawClient(server.boundAddress())) {
            ThriftServerTest.assertDescribeVersionWorks(unframed, false);
            ThriftServerTest.assertDescribeVersionWorks(framed, true);
            ThriftServerTest.assertDescribeVersionWorks(unframed, false);
        } finally {
            server.close();
        }
    }
}
