package sibyl.hardening;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.it.ConfEdits.all;
import static sibyl.it.ConfEdits.set;

import ch.qos.logback.classic.Level;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.Mutation;
import org.apache.thrift.TApplicationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.it.TestNode;
import sibyl.testing.LogCapture;
import sibyl.transport.TransportLimits;
import sibyl.transport.WireBytes;

/**
 * A real node under more connections, slower clients and bigger requests than it will serve: it refuses the excess
 * cleanly, keeps serving everyone else, and stays within its memory limits.
 */
class OverloadTest {
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;

    @TempDir
    Path dir;

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void writeAndReadBack(Cassandra.Client client, String key, String value) throws Exception {
        ColumnPath path = new ColumnPath("Standard1").setColumn(utf8("c"));
        client.insert("Keyspace1", key, path, ByteBuffer.wrap(utf8(value)), System.nanoTime(), ONE);
        assertArrayEquals(utf8(value), client.get("Keyspace1", key, path, ONE).getColumn().getValue(), key);
    }

    @Test
    void connectionsPastTheLimitAreRefusedAndLoggedOncePerBurst() throws Exception {
        try (LogCapture log = new LogCapture("sibyl.transport.ConnectionLimiter");
             TestNode node = TestNode.start(dir, set("ThriftMaxConnections", 20))) {
            List<Cassandra.Client> served = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                Cassandra.Client client = node.client(i % 2 == 0);
                writeAndReadBack(client, "served-" + i, "v" + i);
                served.add(client);
            }
            for (int i = 0; i < 50; i++) {
                try (RawConnection excess = new RawConnection(node.port(), false)) {
                    excess.send(WireBytes.call("describe_version", i, new Cassandra.describe_version_args(), true));
                    assertTrue(excess.awaitClose(), "connection " + (21 + i) + " is refused");
                }
            }
            List<String> warnings = log.messages(Level.WARN);
            assertEquals(1, warnings.size(), "one warning for the burst: " + warnings);
            assertTrue(warnings.get(0).contains("the limit of 20 open connections is reached"), warnings.get(0));

            served.remove(0).getInputProtocol().getTransport().close();
            Poll.until("a connection is served again", Duration.ofSeconds(10), () -> {
                try (RawConnection again = new RawConnection(node.port(), true)) {
                    again.send(WireBytes.framed(WireBytes.call("describe_version", 7, new Cassandra.describe_version_args(), true)));
                    return again.readReply() != null;
                }
            });
            List<String> summary = log.messages(Level.INFO);
            assertEquals(1, summary.size(), summary.toString());
            assertTrue(summary.get(0).matches(".*during the last burst: \\d+") && Integer.parseInt(
                    summary.get(0).replaceAll(".*: ", "")) >= 50, summary.get(0));
            for (int i = 0; i < served.size(); i++) {
                writeAndReadBack(served.get(i), "served-again-" + i, "w" + i);
            }
        }
    }

    @Test
    void idleConnectionsAreClosedAndBusyOnesAreNot() throws Exception {
        try (TestNode node = TestNode.start(dir, set("ThriftIdleTimeoutInSeconds", 1))) {
            RawConnection idle = new RawConnection(node.port(), false);
            idle.send(WireBytes.call("describe_version", 1, new Cassandra.describe_version_args(), true));
            assertEquals(1, idle.readReply().header().seqid);
            long quietSince = System.nanoTime();
            Cassandra.Client busy = node.client(true);
            // The busy client calls every 200 ms, well inside the timeout, for longer than the timeout.
            for (int i = 0; i < 10; i++) {
                writeAndReadBack(busy, "busy", "b" + i);
                Thread.sleep(200);
            }
            assertTrue(idle.awaitClose(), "the idle connection was closed");
            long idleMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - quietSince);
            assertTrue(idleMillis >= 900, "closed after " + idleMillis + " ms, before the 1 s timeout");
            writeAndReadBack(busy, "busy", "still");
            idle.close();
        }
    }

    @Test
    void slowClientsHoldNoWorker() throws Exception {
        // 4 workers (ConcurrentReads + ConcurrentWrites), 8 clients dribbling a call a byte a second.
        UnaryOperator<String> fewWorkers = all(set("ConcurrentReads", 2), set("ConcurrentWrites", 2));
        try (TestNode node = TestNode.start(dir, fewWorkers)) {
            int slowClients = 8;
            List<RawConnection> slow = new ArrayList<>();
            List<byte[]> calls = new ArrayList<>();
            for (int i = 0; i < slowClients; i++) {
                boolean framed = i % 2 == 0;
                byte[] call = WireBytes.call("insert", 100 + i, new Cassandra.insert_args("Keyspace1", "slow-" + i,
                        new ColumnPath("Standard1").setColumn(utf8("c")), ByteBuffer.wrap(utf8("slow value " + i)), 1,
                        ONE), true);
                calls.add(framed ? WireBytes.framed(call) : call);
                slow.add(new RawConnection(node.port(), framed));
            }
            AtomicInteger bytesSent = new AtomicInteger();
            var dribble = Executors.newSingleThreadScheduledExecutor();
            try {
                dribble.scheduleAtFixedRate(() -> {
                    int at = bytesSent.get();
                    try {
                        for (int i = 0; i < slowClients; i++) slow.get(i).send(new byte[] {calls.get(i)[at]});
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    bytesSent.incrementAndGet();
                }, 0, 1, TimeUnit.SECONDS);
                Poll.until("the slow clients have begun", Duration.ofSeconds(10), () -> bytesSent.get() >= 2);
                Cassandra.Client fast = node.client(false);
                for (int i = 0; i < 200; i++) {
                    writeAndReadBack(fast, "fast-" + (i % 10), "f" + i);
                }
                int sent = bytesSent.get();
                assertTrue(sent < calls.get(0).length - 1, "the slow calls were still arriving (" + sent + " bytes)");
            } finally {
                dribble.shutdownNow();
                assertTrue(dribble.awaitTermination(10, TimeUnit.SECONDS));
            }
            // The slow clients finish at once, and are answered.
            Cassandra.Client reader = node.client(true);
            for (int i = 0; i < slowClients; i++) {
                byte[] call = calls.get(i);
                slow.get(i).send(java.util.Arrays.copyOfRange(call, bytesSent.get(), call.length));
                Wire.Reply reply = slow.get(i).readReply();
                assertEquals(100 + i, reply.header().seqid);
                assertFalse(reply.isException());
                assertArrayEquals(utf8("slow value " + i), reader.get("Keyspace1", "slow-" + i,
                        new ColumnPath("Standard1").setColumn(utf8("c")), ONE).getColumn().getValue());
                slow.get(i).close();
            }
        }
    }

    @Test
    void aThousandConnectionsEachMakeACall() throws Exception {
        int connections = 1000;
        int threads = 20;
        try (TestNode node = TestNode.start(dir)) {
            List<Cassandra.Client> clients = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                clients.add(node.client(i % 2 == 0));
            }
            // All are open at once; each thread sends on its share of them before reading any reply.
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    List<Cassandra.Client> share = clients.subList(t * connections / threads, (t + 1) * connections / threads);
                    int first = t * connections / threads;
                    done.add(pool.submit(() -> {
                        ColumnPath path = new ColumnPath("Standard1").setColumn(utf8("c"));
                        for (int i = 0; i < share.size(); i++) {
                            share.get(i).send_insert("Keyspace1", "conn-" + (first + i), path,
                                    ByteBuffer.wrap(utf8("value " + (first + i))), 1, ONE);
                        }
                        for (Cassandra.Client client : share) client.recv_insert();
                        for (int i = 0; i < share.size(); i++) share.get(i).send_get("Keyspace1", "conn-" + (first + i), path, ONE);
                        for (int i = 0; i < share.size(); i++) {
                            assertArrayEquals(utf8("value " + (first + i)), share.get(i).recv_get().getColumn().getValue());
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) f.get(120, TimeUnit.SECONDS);
            } finally {
                pool.shutdownNow();
            }
            System.out.println("OverloadTest: " + connections + " connections open at once, each wrote and read back");
        }
    }

    @Test
    void aFloodOfLargeBatchMutatesIsRefusedCleanlyWithinTheBudget() throws Exception {
        // 1 MB messages: the default budget holds 64 of them; 4 workers keep the flood waiting.
        UnaryOperator<String> conf = all(set("ThriftMaxMessageLengthInMB", 1), set("ConcurrentReads", 2),
                set("ConcurrentWrites", 2));
        int senders = 300;
        try (TestNode node = TestNode.start(dir, conf)) {
            List<RawConnection> connections = new ArrayList<>();
            for (int i = 0; i < senders; i++) connections.add(new RawConnection(node.port(), i % 2 == 0));
            byte[] call = WireBytes.call("batch_mutate", 1, new Cassandra.batch_mutate_args("Keyspace1", largeBatch(COLUMNS), ONE),
                    true);
            byte[] framedCall = WireBytes.framed(call);
            int applied = 0;
            int refused = 0;
            long peakHeapGrowth;
            try (HeapWatch memory = HeapWatch.collectingEvery(Duration.ofMillis(100))) {
                for (RawConnection c : connections) c.send(c.framed ? framedCall : call);
                for (RawConnection c : connections) {
                    Wire.Reply reply = c.readReply();
                    assertEquals(1, reply.header().seqid);
                    if (reply.isException()) {
                        TApplicationException e = reply.applicationException();
                        assertTrue(e.getMessage().startsWith("Server overloaded"), e.getMessage());
                        refused++;
                    } else {
                        Cassandra.batch_mutate_result result = reply.result(new Cassandra.batch_mutate_result());
                        assertEquals(new Cassandra.batch_mutate_result(), result, "no declared exception");
                        applied++;
                    }
                }
                System.out.println("OverloadTest: " + senders + " batch_mutates of " + call.length / 1024 + " KB at once: "
                        + applied + " applied, " + refused + " refused; heap after GC grew by at most "
                        + HeapWatch.mb(memory.peakGrowth()) + ", Netty's direct memory by "
                        + HeapWatch.mb(memory.peakDirectGrowth()));
                peakHeapGrowth = memory.peakGrowth();
            }
            assertTrue(applied > 0, "some were applied");
            // The flood is four times the budget and arrives faster than four workers apply it.
            assertTrue(refused > 0, "the flood exceeded the budget, so some were refused");
            // The live heap, sampled after a forced collection every 100 ms of the flood, stays within the request
            // budget plus room for the rest of the node (the calls being run, the memtable, 300 connections); the
            // flood itself is 300 MB. Netty's direct memory is only reported: its pools keep whole chunks.
            long budget = TransportLimits.defaultMaxHeldBytes(1 << 20);
            assertTrue(peakHeapGrowth < budget + HEAP_SLACK_BYTES, "the live heap grew by "
                    + HeapWatch.mb(peakHeapGrowth) + " in the flood; the request budget is " + HeapWatch.mb(budget));
            assertEquals(COLUMNS, node.client(false).get_count("Keyspace1", "flood", new ColumnParent("Standard1"), ONE));
            byte[] small = WireBytes.call("batch_mutate", 2, new Cassandra.batch_mutate_args("Keyspace1", largeBatch(1), ONE),
                    true);
            for (RawConnection c : connections) { // every connection is still in step
                c.send(c.framed ? WireBytes.framed(small) : small);
                Wire.Reply reply = c.readReply();
                assertEquals(2, reply.header().seqid);
                assertFalse(reply.isException());
                c.close();
            }
        }
    }

    /** What the node may hold in the flood besides its request budget. */
    private static final long HEAP_SLACK_BYTES = 48L << 20;

    /** Columns of the flood's batch_mutates, of {@link #COLUMN_BYTES} each: ~900 KB. */
    private static final int COLUMNS = 90;
    private static final int COLUMN_BYTES = 10_000;

    /** One row of {@code columns} columns, the same for every sender. */
    private static Map<String, Map<String, List<Mutation>>> largeBatch(int columns) {
        List<Mutation> mutations = new ArrayList<>();
        byte[] value = new byte[COLUMN_BYTES];
        for (int i = 0; i < columns; i++) {
            Column column = new Column(ByteBuffer.wrap(utf8(String.format("col%05d", i))), ByteBuffer.wrap(value), 1);
            mutations.add(new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(column)));
        }
        return Map.of("flood", Map.of("Standard1", mutations));
    }
}
