package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Stream;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.CounterColumn;
import sibyl.iface.v20.NotFoundException;

/**
 * Counters against kill -9: bin/server in batch mode with small memtables (so memtables flush and SSTables
 * compact while the increments run), a counter column family from storage-conf.xml, one counter per writer
 * incremented by 0.7+ clients until the server is killed at a random moment, then restarted. Each counter must
 * read as the sum of its acknowledged increments, or that plus the one increment in flight at the kill (applied
 * or not, it was never acknowledged): an acknowledged increment lost, or one the commit log's replay applied
 * twice, fails it. Print the seed; -Dsibyl.seed repeats a run.
 */
class CounterKillIT {
    private static final String KS = "Keyspace1";
    private static final String CF = "Counter1";
    private static final int WRITERS = 4;
    private static final int CYCLES = 3;
    private static final ByteBuffer NAME = ByteBuffer.wrap("c".getBytes(StandardCharsets.UTF_8));

    @TempDir
    Path dir;

    @Test
    void noAcknowledgedIncrementIsLostOrCountedTwiceAcrossKills() throws Exception {
        long seed = Long.getLong("sibyl.seed", System.nanoTime());
        System.out.println("CounterKillIT seed " + seed + " (-Dsibyl.seed=" + seed + " to repeat)");
        Random random = new Random(seed);
        Path conf = ForkedServer.installConf(dir, xml -> ForkedServer.batchSync("1").apply(xml)
                .replaceFirst("<MemtableOperationsInMillions>[^<]*</MemtableOperationsInMillions>",
                        "<MemtableOperationsInMillions>0.0005</MemtableOperationsInMillions>")
                .replaceFirst("<CommitLogRotationThresholdInMB>\\d+</CommitLogRotationThresholdInMB>",
                        "<CommitLogRotationThresholdInMB>1</CommitLogRotationThresholdInMB>")
                .replaceFirst("<Keyspace Name=\"Keyspace1\">", "<Keyspace Name=\"Keyspace1\">\n      <ColumnFamily Name=\""
                        + CF + "\" CompareWith=\"BytesType\" DefaultValidationClass=\"CounterColumnType\"/>"));
        long[] acked = new long[WRITERS];
        long[] inFlight = new long[WRITERS];
        for (int cycle = 0; cycle <= CYCLES; cycle++) {
            ForkedServer server = ForkedServer.start(conf, dir.resolve("server-" + cycle + ".out"));
            for (int w = 0; w < WRITERS; w++) {
                long value = read(server, w);
                assertTrue(value >= acked[w] && value <= acked[w] + inFlight[w], "counter " + w + " reads " + value
                        + " after kill " + cycle + ": " + acked[w] + " acknowledged, " + inFlight[w]
                        + " more in flight at the kill; seed " + seed);
                // What the restart settled on is what the next cycle counts from.
                acked[w] = value;
                inFlight[w] = 0;
            }
            if (cycle == CYCLES) {
                server.stop();
                break;
            }
            incrementUntilKilled(server, random, acked, inFlight);
            System.out.printf("CounterKillIT cycle %d: counters acknowledged at %s before SIGKILL%n", cycle,
                    java.util.Arrays.toString(acked));
        }
        try (Stream<Path> files = Files.walk(dir.resolve("var"))) {
            long sstables = files.filter(p -> p.getFileName().toString().startsWith(CF + "-")
                    && p.getFileName().toString().endsWith("-Statistics.db")).count();
            assertTrue(sstables > 0, "memtables of counters were flushed to sstables");
        }
    }

    /** Each writer adds random positive amounts to its counter until the server dies under it. */
    private static void incrementUntilKilled(ForkedServer server, Random random, long[] acked, long[] inFlight)
            throws Exception {
        AtomicLongArray sums = new AtomicLongArray(acked);
        AtomicLongArray pending = new AtomicLongArray(WRITERS);
        AtomicInteger count = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        List<Future<?>> writers = new ArrayList<>();
        for (int t = 0; t < WRITERS; t++) {
            int writer = t;
            long writerSeed = random.nextLong();
            writers.add(pool.submit(() -> {
                Random amounts = new Random(writerSeed);
                Cassandra.Client client = client(server);
                try {
                    while (true) {
                        long delta = 1 + amounts.nextInt(1000);
                        pending.set(writer, delta);
                        client.add(key(writer), new ColumnParent(CF), new CounterColumn(NAME, delta), ConsistencyLevel.ONE);
                        sums.addAndGet(writer, delta);
                        pending.set(writer, 0);
                        count.incrementAndGet();
                    }
                } catch (TException expected) {
                    return null; // the server was killed under this increment
                } finally {
                    client.getInputProtocol().getTransport().close();
                }
            }));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (count.get() < 2000) {
            assertTrue(System.nanoTime() < deadline, "increments get acknowledged");
            Thread.sleep(5);
        }
        Thread.sleep(random.nextInt(1500)); // the random moment
        server.kill();
        pool.shutdown();
        for (Future<?> w : writers) w.get(30, TimeUnit.SECONDS);
        for (int w = 0; w < WRITERS; w++) {
            acked[w] = sums.get(w);
            inFlight[w] = pending.get(w);
        }
    }

    private static long read(ForkedServer server, int writer) throws Exception {
        Cassandra.Client client = client(server);
        try {
            ColumnOrSuperColumn c = client.get(key(writer), new ColumnPath(CF).setColumn(NAME), ConsistencyLevel.ONE);
            return c.getCounter_column().getValue();
        } catch (NotFoundException never) {
            return 0;
        } finally {
            client.getInputProtocol().getTransport().close();
        }
    }

    private static Cassandra.Client client(ForkedServer server) throws TException {
        TSocket socket = new TSocket("127.0.0.1", server.port(), 10_000);
        socket.open();
        Cassandra.Client client = new Cassandra.Client(new TBinaryProtocol(socket));
        client.set_keyspace(KS);
        return client;
    }

    private static ByteBuffer key(int writer) {
        return ByteBuffer.wrap(("w" + writer).getBytes(StandardCharsets.UTF_8));
    }
}
