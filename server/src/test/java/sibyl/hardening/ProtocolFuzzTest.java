package sibyl.hardening;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import ch.qos.logback.classic.Level;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.thrift.TApplicationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.it.ConfEdits;
import sibyl.it.TestNode;

/**
 * Throws hostile bytes at a real node, framed and unframed, while well-behaved clients write and read back.
 *
 * <p>Each fuzz thread keeps its connection while the server answers it in step and opens a new one after anything
 * the server must refuse. For every case the harness decides on its own ({@link RequestShape}) whether the bytes
 * are exactly one well-formed call: then the server must answer it, with the same method name and sequence id, and
 * never with an internal error; otherwise the harness half-closes and the server must close the connection. At the
 * end the node must still answer, the bystanders must have read back every write, and the heap must have stayed
 * bounded and released what it held.
 *
 * <p>{@code -Dfuzz.cases=N} (default 100,000) sets the number of cases (a tenth of them again with SimpleAuthenticator)
 * and {@code -Dfuzz.seed=S} the seed, which is printed; a failure prints the offending bytes in hex, ready to be kept in {@link FuzzRegressionTest}.
 */
class ProtocolFuzzTest {
    private static final int THREADS = 4;
    /** Generous: the fuzz data the node stores is small; what must not happen is holding messages or connections. */
    private static final long MAX_PEAK_GROWTH = 512L * 1024 * 1024;
    private static final long MAX_RETAINED_GROWTH = 96L * 1024 * 1024;

    @TempDir
    Path dir;

    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong connections = new AtomicLong();
    /** Internal errors the server answered with, by method and message, with the first bytes that caused each. */
    private final Map<String, String> internalErrors = new ConcurrentHashMap<>();

    @Test
    void hostileBytesNeitherStopTheNodeNorDisturbOtherClients() throws Exception {
        fuzzNode("allow-all", UnaryOperator.identity(), Integer.getInteger("fuzz.cases", 100_000), false);
    }

    /** The same with logins required: the login and authorization paths get the hostile bytes too (a tenth as many). */
    @Test
    void hostileBytesUnderSimpleAuthenticator() throws Exception {
        fuzzNode("SimpleAuthenticator", ConfEdits.simpleAuthenticator(),
                Integer.getInteger("fuzz.cases", 100_000) / 10, true);
    }

    private void fuzzNode(String what, UnaryOperator<String> conf, int cases, boolean login) throws Exception {
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        System.out.println("ProtocolFuzzTest " + what + ": seed " + seed + ", " + cases + " cases (-Dfuzz.seed=" + seed
                + " -Dfuzz.cases=" + Integer.getInteger("fuzz.cases", 100_000) + " to repeat)");
        long started = System.nanoTime();
        try (QuietLog quiet = new QuietLog("sibyl.transport.ThriftMessageDecoder", Level.ERROR);
             QuietLog quieter = new QuietLog("org.apache.thrift.ProcessFunction", Level.OFF);
             TestNode node = TestNode.start(dir, conf); HeapWatch heap = new HeapWatch()) {
            try (Bystander framed = new Bystander(loggedIn(node.client(true), login), "framed");
                 Bystander unframed = new Bystander(loggedIn(node.client(false), login), "unframed")) {
                ExecutorService pool = Executors.newFixedThreadPool(THREADS);
                try {
                    List<Future<?>> runs = new ArrayList<>();
                    for (int t = 0; t < THREADS; t++) {
                        int from = (int) ((long) cases * t / THREADS);
                        int to = (int) ((long) cases * (t + 1) / THREADS);
                        long threadSeed = seed * 31 + t;
                        int thread = t;
                        runs.add(pool.submit(() -> {
                            fuzz(node.port(), new Random(threadSeed), to - from, seed, thread);
                            return null;
                        }));
                    }
                    for (Future<?> run : runs) {
                        run.get();
                    }
                } finally {
                    pool.shutdownNow();
                }
                assertTrue(framed.roundTrips() > 0 && unframed.roundTrips() > 0, "the bystanders made progress");
                System.out.println("ProtocolFuzzTest " + what + ": bystanders made " + framed.roundTrips() + " and "
                        + unframed.roundTrips() + " write-read round trips");
            }
            assertEquals("2.2.0", node.client(true).describe_version(), "the node still answers");
            long retained = HeapWatch.retainedAfterGc() - heap.baseline();
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
            System.out.println("ProtocolFuzzTest " + what + ": " + cases + " cases in " + seconds + " s over " + connections
                    + " connections; " + answered + " answered in step, " + refused + " refused; heap after GC grew at"
                    + " most " + HeapWatch.mb(heap.peakGrowth()) + ", retains " + HeapWatch.mb(retained) + " more");
            if (!internalErrors.isEmpty()) {
                fail("the server answered well-formed calls with internal errors (seed " + seed + "):\n"
                        + String.join("\n", internalErrors.values()));
            }
            assertTrue(heap.peakGrowth() < MAX_PEAK_GROWTH, "heap after GC grew by " + HeapWatch.mb(heap.peakGrowth()));
            assertTrue(retained < MAX_RETAINED_GROWTH, "heap retains " + HeapWatch.mb(retained) + " after the run");
        }
    }

    private static Cassandra.Client loggedIn(Cassandra.Client client, boolean login) throws Exception {
        if (login) {
            AccessControlTest.login(client, "Keyspace1", "jsmith", "havebadpass");
        }
        return client;
    }

    private void fuzz(int port, Random random, int cases, long seed, int thread) throws Exception {
        HostileInputs inputs = new HostileInputs(random);
        RawConnection connection = null;
        try {
            for (int i = 0; i < cases; i++) {
                if (connection == null) {
                    connection = new RawConnection(port, random.nextBoolean());
                    connections.incrementAndGet();
                }
                int seqId = random.nextInt();
                byte[] body = inputs.next(seqId);
                byte[] wire = body;
                boolean trueFrame = true;
                if (connection.framed) {
                    int length = inputs.frameLength(body);
                    trueFrame = length == body.length;
                    wire = ByteBuffer.allocate(4 + body.length).putInt(length).put(body).array();
                }
                RequestShape.Call call = trueFrame ? RequestShape.answerable(body, connection.framed, connection.fresh) : null;
                String where = "seed " + seed + ", thread " + thread + ", case " + i + ", "
                        + (connection.framed ? "framed" : "unframed") + (connection.fresh ? " first message" : "")
                        + ", bytes " + Wire.hex(wire);
                connection.send(wire);
                if (call == null) {
                    if (!connection.halfCloseAndAwaitClose()) {
                        fail("the server kept a half-closed connection open after bytes that are not a call: " + where);
                    }
                    refused.incrementAndGet();
                    connection.close();
                    connection = null;
                    continue;
                }
                Wire.Reply reply;
                try {
                    reply = connection.readReply();
                } catch (java.net.SocketTimeoutException e) {
                    throw new AssertionError("no answer to a well-formed call: " + where, e);
                }
                if (reply == null) {
                    fail("the server closed the connection instead of answering a well-formed call: " + where);
                }
                assertEquals(call.seqId(), reply.header().seqid, "sequence id of the reply: " + where);
                assertEquals(call.method(), reply.header().name, "method name of the reply: " + where);
                if (reply.isException()) {
                    TApplicationException e = reply.applicationException();
                    if (e.getType() == TApplicationException.INTERNAL_ERROR) {
                        internalErrors.putIfAbsent(call.method() + ": " + e.getMessage(),
                                call.method() + ": " + e.getMessage() + " — " + where);
                    }
                }
                answered.incrementAndGet();
            }
        } finally {
            if (connection != null) connection.close();
        }
    }
}
