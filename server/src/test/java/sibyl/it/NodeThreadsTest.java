package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static sibyl.it.Requests.b;
import static sibyl.it.Requests.path;
import static sibyl.it.Requests.text;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The threads of a node, as a thread dump shows them. In cluster mode the driver's connections to the cluster run
 * on the node's network threads (the ThriftNetworkThreads of storage-conf.xml), not on I/O threads of the driver's
 * own, so that a call can go from its client to the cluster and back on one thread; and a node stopped, however
 * often it was started, leaves none of its threads behind.
 */
class NodeThreadsTest {
    private static final String NETWORK_THREADS = "sibyl-thrift-io-";
    /** The driver names its own I/O threads after the session ("sibyl") and "-io-". */
    private static final String DRIVER_IO_THREADS = "sibyl-io-";
    /** The beginnings of the names of the threads a node (either backend) and its driver start. */
    private static final List<String> NODE_THREADS = List.of("sibyl-", "zero-writes", "memtable-", "compaction",
            "cache-saver", "commitlog-");
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;

    @TempDir
    Path dir;

    @Test
    void inClusterModeTheDriverConnectsThroughTheNodesNetworkThreads() throws Exception {
        LocalCassandra.shared(); // its watchers are not the node's threads
        Set<Thread> before = liveThreads();
        try (TestNode node = TestNode.start(TestNode.Backend.CLUSTER, dir, ConfEdits.set("ThriftNetworkThreads", 2),
                null)) {
            // No client has connected yet: what runs on the network threads now are the driver's connections (the
            // control connection and the pool), handed to the two loops in turn.
            List<String> atStart = namesSince(before);
            assertEquals(2, count(atStart, NETWORK_THREADS), () -> "the node's threads before any client: " + atStart);
            assertEquals(0, count(atStart, DRIVER_IO_THREADS), () -> "the driver has I/O threads of its own: "
                    + atStart);

            Cassandra.Client client = node.client();
            client.insert("Keyspace1", "k", path("Standard1", "a"), b("1"), 1, ONE);
            assertEquals("1", text(client.get("Keyspace1", "k", path("Standard1", "a"), ONE).getColumn()
                    .bufferForValue()));
            List<String> serving = namesSince(before);
            assertEquals(2, count(serving, NETWORK_THREADS), () -> "the node's threads serving: " + serving);
            assertEquals(0, count(serving, DRIVER_IO_THREADS), () -> "the node's threads serving: " + serving);
        }
    }

    @ParameterizedTest
    @MethodSource("sibyl.it.TestNode#backends")
    void aNodeStartedAndStoppedAgainAndAgainLeavesNoThreadBehind(TestNode.Backend backend) throws Exception {
        if (backend == TestNode.Backend.CLUSTER) LocalCassandra.shared();
        Set<Thread> before = liveThreads();
        for (int i = 0; i < 3; i++) {
            try (TestNode node = TestNode.start(backend, dir.resolve("run" + i), UnaryOperator.identity(), null)) {
                Cassandra.Client client = node.client();
                client.insert("Keyspace1", "k" + i, path("Standard1", "a"), b("v" + i), 1, ONE);
                assertEquals("v" + i, text(client.get("Keyspace1", "k" + i, path("Standard1", "a"), ONE).getColumn()
                        .bufferForValue()));
            }
        }
        // Threads end a moment after the close that stopped them returns.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        List<String> left = namesSince(before);
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50); // polling for the condition, up to the deadline
            left = namesSince(before);
        }
        assertEquals(List.of(), left, "threads of stopped nodes still alive");
    }

    private static Set<Thread> liveThreads() {
        return new HashSet<>(Thread.getAllStackTraces().keySet());
    }

    /** The names of the node's kinds of threads alive now that were not in {@code before}. */
    private static List<String> namesSince(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> !before.contains(t) && t.isAlive())
                .map(Thread::getName)
                .filter(name -> NODE_THREADS.stream().anyMatch(name::startsWith))
                .sorted()
                .toList();
    }

    private static long count(List<String> names, String prefix) {
        return names.stream().filter(name -> name.startsWith(prefix)).count();
    }
}
