package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.it.Requests.all;
import static sibyl.it.Requests.b;
import static sibyl.it.Requests.parent;
import static sibyl.it.Requests.path;
import static sibyl.it.Requests.text;

import ch.qos.logback.classic.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.NotFoundException;
import org.apache.cassandra.thrift.TimedOutException;
import org.apache.cassandra.thrift.UnavailableException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import sibyl.testing.LogCapture;

/**
 * Two Sibyl nodes in cluster mode in front of a two-node Cassandra 5 ring of the test's own
 * (127.0.0.1 and 127.0.0.2), storing a keyspace of ReplicationFactor 2, through real sockets and
 * the generated client. The ring is started once; the tests run in order, each leaving it whole:
 * the two Sibyl nodes serve the same data and keep none; a Cassandra node killed with SIGKILL under
 * load leaves ONE working and makes QUORUM answer 0.6's UnavailableException until it is back,
 * with every acknowledged write kept; the whole ring killed makes every call answer
 * UnavailableException or TimedOutException within the RPC timeout, logged once per burst, until
 * it is back. Sibyl is never restarted. Prints how long each phase took.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TwoNodeRingTest {
    private static final String KS = "Ring";
    private static final int RPC_TIMEOUT_MILLIS = 4_000;
    /** Beyond the RPC timeout: a loaded two-core machine's scheduling, not a hang. */
    private static final long SLACK_MILLIS = 2_000;
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;
    private static final ConsistencyLevel QUORUM = ConsistencyLevel.QUORUM;
    private static final AtomicLong CLOCK = new AtomicLong(System.currentTimeMillis() * 1000);

    @TempDir
    static Path dir;
    static LocalCassandra ring;
    static TestNode a;
    static TestNode b;
    static Cassandra.Client viaA;
    static Cassandra.Client viaB;
    /** Every write the cluster acknowledged at any level: key to value. */
    static final Map<String, String> acknowledged = new ConcurrentHashMap<>();

    @BeforeAll
    static void startRing() throws Exception {
        long start = System.nanoTime();
        ring = LocalCassandra.createForRestarts("ring");
        ring.start(2);
        report("two-node ring started", start);
        start = System.nanoTime();
        a = TestNode.start(dir.resolve("a"), inRing());
        b = TestNode.start(dir.resolve("b"), inRing());
        viaA = a.client();
        viaB = b.client();
        report("two Sibyl nodes started", start);
    }

    @AfterAll
    static void stopRing() {
        try {
            if (a != null) a.close();
            if (b != null) b.close();
        } finally {
            if (ring != null) ring.close();
        }
    }

    /** One keyspace of RF 2 (so QUORUM needs both nodes), both nodes as contact points, a short RPC timeout. */
    private static UnaryOperator<String> inRing() {
        return xml -> xml.replaceFirst("(?s)<Keyspaces>.*</Keyspaces>", "<Keyspaces>"
                        + ConfEdits.keyspace(KS, 2, "<ColumnFamily Name=\"Standard1\" CompareWith=\"BytesType\"/>",
                        "<ColumnFamily Name=\"Super1\" ColumnType=\"Super\" CompareWith=\"UTF8Type\""
                                + " CompareSubcolumnsWith=\"BytesType\"/>")
                        + "</Keyspaces>")
                .replaceFirst("<RpcTimeoutInMillis>\\d+</RpcTimeoutInMillis>",
                        "<RpcTimeoutInMillis>" + RPC_TIMEOUT_MILLIS + "</RpcTimeoutInMillis>")
                .replace("</Storage>", "<Cluster><ContactPoints><ContactPoint>" + ring.contactPoint(1)
                        + "</ContactPoint><ContactPoint>" + ring.contactPoint(2) + "</ContactPoint></ContactPoints>"
                        + "<LocalDatacenter>datacenter1</LocalDatacenter><KeyspacePrefix>ring_</KeyspacePrefix>"
                        + "</Cluster>\n</Storage>");
    }

    @Test
    @Order(1)
    void bothSibylNodesServeTheSameDataAndKeepNoneOfTheirOwn() throws Exception {
        // Written at QUORUM (both replicas), read at ONE through the other node; and the other way round.
        write(viaA, "shared-1", "from a", QUORUM);
        assertEquals("from a", read(viaB, "shared-1", ONE));
        write(viaB, "shared-2", "from b", ONE);
        assertEquals("from b", read(viaA, "shared-2", QUORUM));
        long ts = CLOCK.incrementAndGet();
        ColumnPath sub = new ColumnPath("Super1").setSuper_column(b("posts")).setColumn(b("first"));
        viaA.insert(KS, "shared-3", sub, b("hello"), ts, QUORUM);
        List<ColumnOrSuperColumn> supers = viaB.get_slice(KS, "shared-3", parent("Super1"), all(), ONE);
        assertEquals(1, supers.size());
        assertEquals("posts", text(supers.get(0).getSuper_column().bufferForName()));
        assertEquals("hello", text(supers.get(0).getSuper_column().getColumns().get(0).bufferForValue()));
        // A deletion through one node hides the column from the other at once.
        viaB.remove(KS, "shared-1", path("Standard1", "c"), CLOCK.incrementAndGet(), QUORUM);
        assertThrows(NotFoundException.class, () -> viaA.get(KS, "shared-1", path("Standard1", "c"), ONE));
        acknowledged.remove("shared-1");

        // Neither node stored anything itself: no commit log, no SSTables, nothing but the configuration.
        for (Path install : List.of(dir.resolve("a"), dir.resolve("b"))) {
            try (Stream<Path> files = Files.walk(install)) {
                assertEquals(List.of(), files.filter(Files::isRegularFile)
                        .filter(f -> !f.startsWith(install.resolve("conf"))).toList(), install.toString());
            }
        }
    }

    @Test
    @Order(2)
    void aNodeKilledUnderLoadLeavesOneWorkingAndQuorumUnavailableUntilItIsBack() throws Exception {
        try (LogCapture clusterLog = new LogCapture("sibyl.cluster");
             LogCapture thriftLog = new LogCapture("org.apache.thrift");
             Load load = Load.start(acknowledged, a, b)) {
            load.awaitAcknowledged(100);

            long killed = System.nanoTime();
            ring.kill9(2);
            load.markPhase("node 2 killed");
            // Until node 1 has convicted node 2 a QUORUM write times out; then it is refused as unavailable.
            awaitOutcome(viaA, QUORUM, Outcome.UNAVAILABLE, 120);
            report("QUORUM answered UnavailableException", killed);
            assertEquals(Outcome.UNAVAILABLE, attempt(() -> viaB.get(KS, "shared-2", path("Standard1", "c"), QUORUM)));
            long onesBefore = load.succeeded();
            load.awaitSucceeded(onesBefore + 100);

            long restart = System.nanoTime();
            ring.start(2);
            report("node 2 restarted", restart);
            awaitOutcome(viaA, QUORUM, Outcome.OK, 120);
            awaitOutcome(viaB, QUORUM, Outcome.OK, 120);
            report("QUORUM worked again through both Sibyl nodes", restart);
            long onesAfter = load.succeeded();
            load.awaitSucceeded(onesAfter + 100);
            load.stop();

            assertEquals(List.of(), load.unexpected(), "calls at ONE failed while a node was down");
            assertEquals(List.of(), thriftLog.messages(Level.ERROR), "internal errors");
            List<String> firsts = clusterLog.messages(Level.WARN).stream()
                    .filter(m -> m.startsWith("The cluster fails requests")).toList();
            // A burst ends once no request has failed for 10 s (FailureLog). Each Sibyl node fails QUORUM calls
            // after the kill, and again after the restart until node 1 sees node 2 up; the restart itself takes
            // longer than 10 s, in which only calls at ONE are made, so each node may open a second burst then.
            assertTrue(firsts.size() <= 4, "at most two bursts per Sibyl node, not one line per request: " + firsts);
            System.out.println("TwoNodeRingTest: " + load);
        }
        assertAllAcknowledgedReadBack();
    }

    @Test
    @Order(3)
    void theWholeRingKilledAnswersUnavailableOrTimedOutAndRecoversWithoutRestart() throws Exception {
        try (LogCapture clusterLog = new LogCapture("sibyl.cluster");
             LogCapture thriftLog = new LogCapture("org.apache.thrift");
             LogCapture everything = new LogCapture(org.slf4j.Logger.ROOT_LOGGER_NAME)) {
            long killed = System.nanoTime();
            ring.kill9(1);
            ring.kill9(2);
            int calls = 0;
            long slowest = 0;
            // Every kind of call, through both nodes, at both levels: refused, promptly, and never an internal error.
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() < until || calls < 40) {
                for (Cassandra.Client c : List.of(viaA, viaB)) {
                    for (ConsistencyLevel cl : List.of(ONE, QUORUM)) {
                        for (Call call : calls(c, cl)) {
                            long start = System.nanoTime();
                            Outcome outcome = attempt(call);
                            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                            assertTrue(outcome == Outcome.UNAVAILABLE || outcome == Outcome.TIMED_OUT,
                                    "a call to a dead cluster answered " + outcome);
                            assertTrue(millis <= RPC_TIMEOUT_MILLIS + SLACK_MILLIS, "answered after " + millis + " ms");
                            slowest = Math.max(slowest, millis);
                            calls++;
                        }
                    }
                    assertEquals("2.2.0", c.describe_version());
                }
            }
            report(calls + " calls refused (slowest " + slowest + " ms)", killed);
            // The burst is logged (it may have begun before the ring died), then a line every ten seconds at most.
            List<String> burst = clusterLog.messages(Level.WARN);
            assertTrue(!burst.isEmpty() && burst.size() <= 2 * (1 + secondsSince(killed) / 10),
                    "a line per Sibyl node and ten seconds for " + calls + " refused calls: " + burst);
            // Nor does anything else log per request: the driver logs its reconnection attempts, which back off.
            List<String> warnings = new ArrayList<>(everything.messages(Level.WARN));
            warnings.addAll(everything.messages(Level.ERROR));
            assertTrue(warnings.size() <= 100, warnings.size() + " lines for " + calls + " refused calls: " + warnings);
            report(warnings.size() + " WARN and ERROR lines logged for them", killed);

            long restart = System.nanoTime();
            ring.start(2);
            report("ring restarted", restart);
            awaitOutcome(viaA, QUORUM, Outcome.OK, 120);
            awaitOutcome(viaB, QUORUM, Outcome.OK, 120);
            report("both Sibyl nodes served QUORUM again", restart);
            // Once no request has failed for ten seconds, the recovery is logged. (A ring just restarted on a
            // loaded machine may still time a write out now and then, which puts the line off.)
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (clusterLog.messages(Level.INFO).stream().noneMatch(m -> m.startsWith("The cluster serves requests"
                    + " again"))) {
                assertTrue(System.nanoTime() < deadline, "the recovery was not logged: " + clusterLog.messages(
                        Level.INFO));
                String key = "after-" + CLOCK.get();
                Outcome outcome = attempt(() -> write(viaA, key, "x", ONE));
                assertTrue(outcome != Outcome.UNAVAILABLE, "a write at ONE to the ring restarted was unavailable");
                Thread.sleep(100); // a write every 100 ms until the line comes: a poll with the deadline above
            }
            assertEquals(List.of(), thriftLog.messages(Level.ERROR), "internal errors");
        }
        assertAllAcknowledgedReadBack();
    }

    // ---- the data

    private static void write(Cassandra.Client c, String key, String value, ConsistencyLevel cl) throws Exception {
        c.insert(KS, key, path("Standard1", "c"), b(value), CLOCK.incrementAndGet(), cl);
        acknowledged.put(key, value);
    }

    private static String read(Cassandra.Client c, String key, ConsistencyLevel cl) throws Exception {
        return text(c.get(KS, key, path("Standard1", "c"), cl).getColumn().bufferForValue());
    }

    /**
     * Reads every acknowledged write back at QUORUM, ten keys a call on two connections at once, one through each
     * Sibyl node. How long a call takes is not the question here (the failure tests time calls): the connections
     * wait a minute for an answer, which a ring just restarted on a loaded machine may need.
     */
    private static void assertAllAcknowledgedReadBack() throws Exception {
        long start = System.nanoTime();
        List<String> keys = new ArrayList<>(acknowledged.keySet());
        Collections.sort(keys);
        List<List<String>> batches = new ArrayList<>();
        for (int i = 0; i < keys.size(); i += 10) batches.add(keys.subList(i, Math.min(keys.size(), i + 10)));
        List<String> missing = Collections.synchronizedList(new ArrayList<>());
        AtomicLong retried = new AtomicLong();
        ExecutorService readers = Executors.newFixedThreadPool(2);
        List<TTransport> connections = new ArrayList<>();
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                TTransport socket = new TSocket("127.0.0.1", (r == 0 ? a : b).port(), 60_000);
                socket.open();
                connections.add(socket);
                Cassandra.Client c = new Cassandra.Client(new TBinaryProtocol(socket));
                int reader = r;
                done.add(readers.submit(() -> {
                    for (int i = reader; i < batches.size(); i += 2) {
                        List<String> batch = batches.get(i);
                        Map<String, List<ColumnOrSuperColumn>> rows = readRetryingTimeouts(c, batch, retried);
                        for (String key : batch) {
                            List<ColumnOrSuperColumn> row = rows.get(key);
                            if (row == null || row.isEmpty() || !acknowledged.get(key).equals(text(row.get(0)
                                    .getColumn().bufferForValue()))) {
                                missing.add(key);
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) f.get();
        } finally {
            readers.shutdownNow();
            connections.forEach(TTransport::close);
        }
        assertEquals(List.of(), missing, "acknowledged writes not read back, of " + keys.size());
        report(keys.size() + " acknowledged writes read back at QUORUM (" + retried + " calls timed out and were"
                + " retried)", start);
    }

    /**
     * A multiget_slice at QUORUM, repeated while it answers TimedOutException, as a client does: a ring just
     * restarted on a loaded machine can be slow, which is not a lost write. Two minutes at most.
     */
    private static Map<String, List<ColumnOrSuperColumn>> readRetryingTimeouts(Cassandra.Client c, List<String> keys,
                                                                              AtomicLong retried) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            try {
                return c.multiget_slice(KS, keys, parent("Standard1"), all(), QUORUM);
            } catch (TimedOutException e) {
                if (System.nanoTime() > deadline) throw e;
                retried.incrementAndGet();
            }
        }
    }

    // ---- outcomes

    enum Outcome { OK, UNAVAILABLE, TIMED_OUT }

    @FunctionalInterface
    interface Call {
        void run() throws Exception;
    }

    /** What a call answered: anything but success, UnavailableException and TimedOutException is thrown on. */
    static Outcome attempt(Call call) throws Exception {
        try {
            call.run();
            return Outcome.OK;
        } catch (UnavailableException e) {
            return Outcome.UNAVAILABLE;
        } catch (TimedOutException e) {
            return Outcome.TIMED_OUT;
        } catch (NotFoundException e) {
            return Outcome.OK; // answered
        }
    }

    /** A write and the reads of each kind. */
    private static List<Call> calls(Cassandra.Client c, ConsistencyLevel cl) {
        return List.of(
                () -> c.insert(KS, "probe", path("Standard1", "c"), b("p"), CLOCK.incrementAndGet(), cl),
                () -> c.get(KS, "shared-2", path("Standard1", "c"), cl),
                () -> c.get_slice(KS, "shared-2", parent("Standard1"), all(), cl),
                () -> c.get_count(KS, "shared-2", parent("Standard1"), cl),
                () -> c.multiget_slice(KS, List.of("shared-2", "shared-3"), parent("Standard1"), all(), cl),
                () -> c.get_range_slices(KS, parent("Standard1"), all(), Requests.keys("", "", 10), cl));
    }

    /** Writes through {@code c} at {@code cl} until the call answers {@code wanted}; other refusals may come first. */
    private static void awaitOutcome(Cassandra.Client c, ConsistencyLevel cl, Outcome wanted, int seconds)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Outcome> seen = new ArrayList<>();
        while (true) {
            String key = "probe-" + CLOCK.get();
            String value = Long.toString(CLOCK.get());
            Outcome outcome = attempt(() -> write(c, key, value, cl));
            if (outcome == wanted) return;
            if (seen.isEmpty() || seen.get(seen.size() - 1) != outcome) seen.add(outcome);
            assertTrue(System.nanoTime() < deadline, "a write at " + cl + " did not answer " + wanted + " within "
                    + seconds + " s; it answered " + seen);
            Thread.sleep(100); // a probe every 100 ms: a poll, the deadline above bounds it
        }
    }

    private static long secondsSince(long start) {
        return TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
    }

    private static void report(String what, long since) {
        System.out.printf("TwoNodeRingTest: %s after %.1f s%n", what, (System.nanoTime() - since) / 1e9);
    }
}
