package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.it.Requests.all;
import static sibyl.it.Requests.b;
import static sibyl.it.Requests.parent;
import static sibyl.it.Requests.path;
import static sibyl.it.Requests.text;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.cassandra.thrift.AuthenticationRequest;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.TimedOutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * In cluster mode every read waits for the cluster, so no read may run on a network thread, where
 * it would hold up every other connection that thread serves (sibyl.transport.CallPlacement runs
 * only calls that cannot wait there). The shared Cassandra is reached through a proxy that the test
 * freezes, so the cluster stops answering while its connections stay open; reads of every kind are
 * then started on more connections than the server has network threads. Meanwhile a client on
 * another connection must be answered at once, and each read must answer TimedOutException within
 * the RPC timeout, not after the reads queued before it on its network thread.
 */
class ClusterNetworkThreadsTest {
    private static final int RPC_TIMEOUT_MILLIS = 2_000;
    /**
     * Below the RPC timeout a read run on a network thread holds that thread for, with room for the stalls of a
     * loaded 2-core machine: a held thread shows as a wait of a whole timeout or more (several reads queue on
     * each thread), and a read queued behind another answers after two timeouts, past RPC + PROMPT.
     */
    private static final long PROMPT_MILLIS = 1_500;
    private static final String KS = "Placement";
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;

    @TempDir
    Path dir;

    @Test
    void readsWaitingForTheClusterHoldUpNoOtherConnection() throws Exception {
        LocalCassandra cassandra = LocalCassandra.shared();
        ExecutorService readers = Executors.newCachedThreadPool();
        try (FreezableProxy proxy = FreezableProxy.start(LocalCassandra.address(1), cassandra.nativePort());
             TestNode node = TestNode.start(dir, smallSchema().andThen(ConfEdits.inCluster(proxy.address(),
                     "threads" + ProcessHandle.current().pid() + "_"))::apply)) {
            Cassandra.Client client = node.client();
            // Prepares the statements of the reads below while the cluster answers.
            client.insert(KS, "k", path("Standard1", "a"), b("1"), 1, ONE);
            List<Callable<Object>> reads = reads(node, 4 * Runtime.getRuntime().availableProcessors());
            Cassandra.Client bystander = node.client();
            assertEquals("a", text(bystander.get(KS, "k", path("Standard1", "a"), ONE).getColumn().bufferForName()));

            proxy.freeze();
            List<Future<Long>> pending = startWaiting(proxy, readers, reads);
            long slowest = slowestWhile(pending, () -> assertEquals("2.2.0", bystander.describe_version()));
            assertTrue(slowest < PROMPT_MILLIS, "while reads waited for the cluster, another connection waited "
                    + slowest + " ms for describe_version");
            assertAllTimedOutInTime(pending);

            proxy.thaw();
            assertEquals("1", text(bystander.get(KS, "k", path("Standard1", "a"), ONE).getColumn().bufferForValue()));
        } finally {
            readers.shutdownNow();
        }
    }

    /**
     * The calls of one or a few rows hold no thread while they wait for the cluster (sibyl.transport's
     * DeferringProcessor): with more of them waiting than the server has workers, a call that runs on a worker
     * (login) is still answered at once. Were they run on the workers, each would hold one until its timeout.
     */
    @Test
    void callsWaitingForTheClusterHoldNoWorker() throws Exception {
        LocalCassandra cassandra = LocalCassandra.shared();
        ExecutorService callers = Executors.newCachedThreadPool();
        UnaryOperator<String> fewWorkers = ConfEdits.all(ConfEdits.set("ConcurrentReads", 2),
                ConfEdits.set("ConcurrentWrites", 2));
        try (FreezableProxy proxy = FreezableProxy.start(LocalCassandra.address(1), cassandra.nativePort());
             TestNode node = TestNode.start(dir, smallSchema().andThen(fewWorkers).andThen(ConfEdits.inCluster(
                     proxy.address(), "workers" + ProcessHandle.current().pid() + "_"))::apply)) {
            Cassandra.Client client = node.client();
            client.insert(KS, "k", path("Standard1", "a"), b("1"), 1, ONE); // prepares while the cluster answers
            List<Callable<Object>> calls = new ArrayList<>();
            for (int i = 0; i < 12; i++) { // three times the 4 workers
                Cassandra.Client c = node.client();
                long ts = 2 + i;
                calls.add(switch (i % 6) {
                    case 0 -> () -> c.get(KS, "k", path("Standard1", "a"), ONE);
                    case 1 -> () -> c.get_slice(KS, "k", parent("Standard1"), all(), ONE);
                    case 2 -> () -> c.multiget_slice(KS, List.of("k", "l"), parent("Standard1"), all(), ONE);
                    case 3 -> () -> {
                        c.insert(KS, "k", path("Standard1", "b"), b("2"), ts, ONE);
                        return null;
                    };
                    case 4 -> () -> {
                        c.remove(KS, "k", path("Standard1", "c"), ts, ONE);
                        return null;
                    };
                    default -> () -> {
                        c.batch_mutate(KS, Map.of("k", Map.of("Standard1", List.of(Requests.insertion(
                                Requests.column("d", "4", ts))))), ONE);
                        return null;
                    };
                });
            }
            Cassandra.Client bystander = node.client();

            proxy.freeze();
            List<Future<Long>> pending = startWaiting(proxy, callers, calls);
            long slowest = slowestWhile(pending, () -> bystander.login(KS, new AuthenticationRequest(Map.of())));
            assertTrue(slowest < PROMPT_MILLIS, "while " + calls.size() + " calls waited for the cluster, a login"
                    + " (run by one of the 4 workers) waited " + slowest + " ms");
            assertAllTimedOutInTime(pending);

            proxy.thaw();
            assertEquals("1", text(bystander.get(KS, "k", path("Standard1", "a"), ONE).getColumn().bufferForValue()));
        } finally {
            callers.shutdownNow();
        }
    }

    /**
     * A write at consistency level ZERO is acknowledged before the cluster has it, so clients can send them faster
     * than a cluster that has stopped answering takes them. Past the number the node keeps outstanding, a client is
     * slowed by a reply that waits for its write, never by a network thread that waits for the cluster: that thread
     * serves other clients too, and may be the very one the driver's connection runs on. (Eight clients send more
     * than the 4096 writes the workers' queue of ZERO writes holds, past which a write would be applied by the
     * thread that received it.)
     */
    @Test
    void aFloodOfZeroWritesHoldsUpNoOtherConnection() throws Exception {
        LocalCassandra cassandra = LocalCassandra.shared();
        int flooders = 8;
        int writesEach = 4096 / flooders + 1;
        ExecutorService flooding = Executors.newFixedThreadPool(flooders);
        // A network thread waiting for a request to the cluster would hold the bystanders for this long, three
        // times what they are allowed here (a loaded machine's stalls stay well below).
        int requestTimeoutMillis = 3 * RPC_TIMEOUT_MILLIS;
        UnaryOperator<String> slowCluster = xml -> xml.replace("</Cluster>",
                "<RequestTimeoutInMillis>" + requestTimeoutMillis + "</RequestTimeoutInMillis></Cluster>");
        ch.qos.logback.classic.Logger lost = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(
                "sibyl.thrift.UnacknowledgedWrites");
        ch.qos.logback.classic.Level level = lost.getLevel();
        lost.setLevel(ch.qos.logback.classic.Level.ERROR); // each lost write is a warning: thousands here
        try (FreezableProxy proxy = FreezableProxy.start(LocalCassandra.address(1), cassandra.nativePort());
             TestNode node = TestNode.start(dir, smallSchema().andThen(ConfEdits.inCluster(proxy.address(),
                     "zero" + ProcessHandle.current().pid() + "_")).andThen(slowCluster)::apply)) {
            Cassandra.Client client = node.client();
            client.insert(KS, "k", path("Standard1", "a"), b("1"), 1, ONE); // prepares while the cluster answers
            List<Cassandra.Client> senders = new ArrayList<>();
            for (int i = 0; i < flooders; i++) senders.add(node.client());
            // Connections are dealt to the network threads in turn: some on each.
            List<Cassandra.Client> bystanders = new ArrayList<>();
            for (int i = 0; i < 2 * Runtime.getRuntime().availableProcessors(); i++) bystanders.add(node.client());

            proxy.freeze();
            List<Future<Object>> flood = new ArrayList<>();
            for (int f = 0; f < flooders; f++) {
                Cassandra.Client sender = senders.get(f);
                String prefix = "z" + f + "_";
                flood.add(flooding.submit(() -> {
                    for (int i = 0; i < writesEach; i++) {
                        sender.insert(KS, prefix + i, path("Standard1", "a"), b("z"), 2, ConsistencyLevel.ZERO);
                    }
                    return null;
                }));
            }
            long slowest = slowestWhile(flood, () -> {
                for (Cassandra.Client c : bystanders) assertEquals("2.2.0", c.describe_version());
            });
            for (Future<Object> f : flood) f.get();
            assertTrue(slowest < requestTimeoutMillis / 3, "while clients flooded the node with ZERO writes to a cluster that"
                    + " did not answer, another connection waited " + slowest + " ms for describe_version");

            proxy.thaw();
            // The driver replaces a connection that many requests timed out on, so the first reads may find none.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                try {
                    assertEquals("1", text(client.get(KS, "k", path("Standard1", "a"), ONE).getColumn()
                            .bufferForValue()));
                    break;
                } catch (org.apache.cassandra.thrift.UnavailableException | TimedOutException e) {
                    assertTrue(System.nanoTime() < deadline, "the cluster is not served again 30 s after the thaw: "
                            + e);
                    Thread.sleep(100); // polling for the reconnection, up to the deadline
                }
            }
        } finally {
            lost.setLevel(level);
            flooding.shutdownNow();
        }
    }

    /** Each kind of read the front end might deem quick, on connections of its own. */
    private static List<Callable<Object>> reads(TestNode node, int connections) throws Exception {
        List<Callable<Object>> reads = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            Cassandra.Client c = node.client();
            reads.add(switch (i % 5) {
                case 0 -> () -> c.get(KS, "k", path("Standard1", "a"), ONE);
                case 1 -> () -> c.get_slice(KS, "k", parent("Standard1"), all(), ONE);
                case 2 -> () -> c.get_count(KS, "k", parent("Standard1"), ONE);
                case 3 -> () -> c.multiget(KS, List.of("k"), path("Standard1", "a"), ONE);
                default -> () -> c.multiget_slice(KS, List.of("k"), parent("Standard1"), all(), ONE);
            });
        }
        return reads;
    }

    /** Starts each call on a thread of its own, each to time out; returns once one has reached the cluster. */
    private static List<Future<Long>> startWaiting(FreezableProxy proxy, ExecutorService threads,
                                                   List<Callable<Object>> calls) throws InterruptedException {
        List<Future<Long>> pending = new ArrayList<>();
        for (Callable<Object> call : calls) pending.add(threads.submit(() -> timedOut(call)));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (proxy.held() == 0) {
            assertTrue(System.nanoTime() < deadline, "no call reached the cluster within 30 s");
            Thread.sleep(10);
        }
        return pending;
    }

    @FunctionalInterface
    private interface Probe {
        void run() throws Exception;
    }

    /** Runs {@code probe} again and again while any call is pending; the slowest run, in milliseconds. */
    private static long slowestWhile(List<? extends Future<?>> pending, Probe probe) throws Exception {
        long slowest = 0;
        while (pending.stream().anyMatch(f -> !f.isDone())) {
            long start = System.nanoTime();
            probe.run();
            slowest = Math.max(slowest, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        }
        return slowest;
    }

    private static void assertAllTimedOutInTime(List<Future<Long>> pending) throws Exception {
        for (Future<Long> f : pending) {
            long millis = f.get();
            assertTrue(millis < RPC_TIMEOUT_MILLIS + PROMPT_MILLIS, "a call answered TimedOutException after "
                    + millis + " ms, past the RPC timeout of " + RPC_TIMEOUT_MILLIS + " ms");
        }
    }

    /** Runs a call that must time out; how long it took, in milliseconds. */
    private static long timedOut(Callable<Object> read) throws Exception {
        long start = System.nanoTime();
        try {
            read.call();
        } catch (TimedOutException expected) {
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        }
        throw new AssertionError("a call to a cluster that does not answer did not time out");
    }

    /** One small keyspace instead of the shipped ones (fewer tables to create), and a short RPC timeout. */
    private static UnaryOperator<String> smallSchema() {
        return xml -> xml.replaceFirst("(?s)<Keyspaces>.*</Keyspaces>", "<Keyspaces>"
                        + ConfEdits.keyspace(KS, 1, "<ColumnFamily Name=\"Standard1\" CompareWith=\"BytesType\"/>")
                        + "</Keyspaces>")
                .replaceFirst("<RpcTimeoutInMillis>\\d+</RpcTimeoutInMillis>",
                        "<RpcTimeoutInMillis>" + RPC_TIMEOUT_MILLIS + "</RpcTimeoutInMillis>");
    }
}
