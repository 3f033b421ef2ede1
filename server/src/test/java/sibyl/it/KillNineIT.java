package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.thrift.TException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The durability promise against the real thing: bin/server in its own JVM, written to by
 * several Thrift clients, killed with SIGKILL at a random moment, restarted. Every write the
 * server acknowledged must be readable afterwards. Print the seed; -Dsibyl.seed repeats a run.
 */
class KillNineIT {
    private static final String KS = "Keyspace1";
    private static final String CF = "Standard1";
    private static final byte[] COLUMN = "c".getBytes(StandardCharsets.UTF_8);
    private static final int WRITERS = 4;
    private static final int CYCLES = 3;
    private static final byte[] PAD = "pad".getBytes(StandardCharsets.UTF_8);

    /** Bytes of a second column written with each key; none unless a test sets it. */
    private byte[] padding = new byte[0];

    @TempDir
    Path dir;

    /** An acknowledged write: its key, and when (nanoTime) the acknowledgement arrived. */
    private record Ack(String key, long at) {
    }

    @Test
    void batchModeKeepsEveryAcknowledgedWriteAcrossKills() throws Exception {
        killCycles("batch", ForkedServer.batchSync("1"), 0);
    }

    /**
     * As above with memtables of 500 operations and 1 MB commit log segments, and bigger writes
     * for longer: memtables are flushed, SSTables compacted and segments deleted while the
     * writers run, so the kills land in the middle of all of them.
     */
    @Test
    void batchModeWithSmallMemtablesKeepsEveryAcknowledgedWriteAcrossKills() throws Exception {
        padding = new byte[512];
        UnaryOperator<String> smallMemtables = xml -> xml
                .replaceFirst("<MemtableOperationsInMillions>[^<]*</MemtableOperationsInMillions>",
                        "<MemtableOperationsInMillions>0.0005</MemtableOperationsInMillions>")
                .replaceFirst("<CommitLogRotationThresholdInMB>\\d+</CommitLogRotationThresholdInMB>",
                        "<CommitLogRotationThresholdInMB>1</CommitLogRotationThresholdInMB>");
        Path data = killCycles("small-memtables", ForkedServer.batchSync("1").andThen(smallMemtables)::apply, 2000);
        try (Stream<Path> files = Files.walk(data)) {
            long sstables = files.filter(p -> p.getFileName().toString().startsWith(CF + "-")
                    && p.getFileName().toString().endsWith("-Statistics.db")).count();
            assertTrue(sstables > 0, "memtables were flushed to sstables under " + data);
        }
    }

    /** Kills the server {@link #CYCLES} times under writers; returns the data directory. */
    private Path killCycles(String label, UnaryOperator<String> confEdit, int minRunMs) throws Exception {
        long seed = Long.getLong("sibyl.seed", System.nanoTime());
        System.out.println("KillNineIT " + label + " seed " + seed + " (-Dsibyl.seed=" + seed + " to repeat)");
        Random random = new Random(seed);
        Path conf = ForkedServer.installConf(dir, confEdit);
        List<Ack> acked = new ArrayList<>();
        for (int cycle = 0; cycle < CYCLES; cycle++) {
            ForkedServer server = ForkedServer.start(conf, dir.resolve("server-" + cycle + ".out"));
            assertAllReadable(server, acked, "after kill " + cycle + ", seed " + seed);
            List<Ack> written = writeUntilKilled(server, "c" + cycle, random, minRunMs, new long[1]);
            System.out.printf("%s cycle %d: %d writes acknowledged before SIGKILL of pid %d%n", label, cycle,
                    written.size(), server.pid());
            acked.addAll(written);
        }
        ForkedServer server = ForkedServer.start(conf, dir.resolve("server-final.out"));
        try {
            assertAllReadable(server, acked, "after the last kill, seed " + seed);
        } finally {
            server.stop();
        }
        return dir.resolve("var");
    }

    @Test
    void periodicModeKeepsWritesAcknowledgedAPeriodBeforeTheKill() throws Exception {
        long seed = Long.getLong("sibyl.seed", System.nanoTime());
        System.out.println("KillNineIT periodic seed " + seed + " (-Dsibyl.seed=" + seed + " to repeat)");
        int periodMs = 200;
        Path conf = ForkedServer.installConf(dir, ForkedServer.periodicSync(periodMs));
        ForkedServer server = ForkedServer.start(conf, dir.resolve("periodic.out"));
        long[] killedAt = new long[1];
        List<Ack> written = writeUntilKilled(server, "p", new Random(seed), periodMs * 2, killedAt);
        long cutoff = killedAt[0] - TimeUnit.MILLISECONDS.toNanos(periodMs);
        List<Ack> old = written.stream().filter(a -> a.at() < cutoff).toList();
        System.out.printf("periodic: %d writes acknowledged, %d of them more than %d ms before the kill%n",
                written.size(), old.size(), periodMs);
        assertTrue(!old.isEmpty(), "some writes were acknowledged a period before the kill");
        server = ForkedServer.start(conf, dir.resolve("periodic-restart.out"));
        try {
            assertAllReadable(server, old, "periodic, seed " + seed);
            int survived = countReadable(server, written);
            System.out.printf("periodic: %d of all %d acknowledged writes survived the kill%n", survived, written.size());
            // Each entry was copied into the page cache before its write was acknowledged, and the kernel outlives
            // the process: only a machine crash may lose the period's writes.
            assertAllReadable(server, written, "periodic, all acknowledged writes, seed " + seed);
        } finally {
            server.stop();
        }
    }

    private List<Ack> writeUntilKilled(ForkedServer server, String prefix, Random random) throws Exception {
        return writeUntilKilled(server, prefix, random, 0, new long[1]);
    }

    /**
     * Writes from {@link #WRITERS} clients until the server dies, killing it at a random moment
     * once a hundred writes are through and at least {@code minRunMs} more have passed; the acknowledged ones.
     */
    private List<Ack> writeUntilKilled(ForkedServer server, String prefix, Random random, int minRunMs, long[] killedAt)
            throws Exception {
        ConcurrentHashMap.KeySetView<Ack, Boolean> acks = ConcurrentHashMap.newKeySet();
        AtomicInteger count = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        List<Future<?>> writers = new ArrayList<>();
        for (int t = 0; t < WRITERS; t++) {
            String thread = prefix + "-t" + t + "-";
            writers.add(pool.submit(() -> {
                Cassandra.Client client = server.client();
                try {
                    for (int i = 0; ; i++) {
                        String key = thread + i;
                        insert(client, key);
                        acks.add(new Ack(key, System.nanoTime()));
                        count.incrementAndGet();
                    }
                } catch (TException expected) {
                    return null; // the server was killed under this write
                } finally {
                    ForkedServer.close(client);
                }
            }));
        }
        long started = System.nanoTime();
        long deadline = started + TimeUnit.SECONDS.toNanos(30);
        while (count.get() < 100) {
            assertTrue(System.nanoTime() < deadline, "writes get acknowledged");
            Thread.sleep(5);
        }
        // minRunMs counts from the hundredth acknowledgement, not from the start: on a busy machine the
        // first writes can take most of a second (a cold JIT), and the periodic test needs its hundred
        // acknowledgements to be a full period old when the kill comes.
        Thread.sleep(minRunMs + random.nextInt(1000)); // the random moment
        killedAt[0] = System.nanoTime();
        server.kill();
        pool.shutdown();
        for (Future<?> w : writers) w.get(30, TimeUnit.SECONDS);
        return new ArrayList<>(acks);
    }

    private void insert(Cassandra.Client client, String key) throws TException {
        long now = System.currentTimeMillis();
        Column column = new Column(ByteBuffer.wrap(COLUMN), ByteBuffer.wrap(key.getBytes(StandardCharsets.UTF_8)), now);
        List<ColumnOrSuperColumn> columns = new ArrayList<>();
        columns.add(new ColumnOrSuperColumn().setColumn(column));
        if (padding.length > 0) {
            columns.add(new ColumnOrSuperColumn().setColumn(new Column(ByteBuffer.wrap(PAD), ByteBuffer.wrap(padding), now)));
        }
        client.batch_insert(KS, key, Map.of(CF, columns), ConsistencyLevel.ONE);
    }

    private static void assertAllReadable(ForkedServer server, List<Ack> acked, String when) throws Exception {
        int readable = countReadable(server, acked);
        assertEquals(acked.size(), readable, "acknowledged writes readable " + when);
    }

    /** How many of the writes read back with their value. */
    private static int countReadable(ForkedServer server, List<Ack> acked) throws Exception {
        Cassandra.Client client = server.client();
        try {
            SlicePredicate predicate = new SlicePredicate().setColumn_names(List.of(ByteBuffer.wrap(COLUMN)));
            int readable = 0;
            for (int from = 0; from < acked.size(); from += 500) {
                List<String> keys = new ArrayList<>();
                for (Ack a : acked.subList(from, Math.min(acked.size(), from + 500))) keys.add(a.key());
                Map<String, List<ColumnOrSuperColumn>> rows = client.multiget_slice(KS, keys, new ColumnParent(CF),
                        predicate, ConsistencyLevel.ONE);
                for (String key : keys) {
                    List<ColumnOrSuperColumn> row = rows.get(key);
                    if (row != null && row.size() == 1
                            && new String(row.get(0).getColumn().getValue(), StandardCharsets.UTF_8).equals(key)) {
                        readable++;
                    }
                }
            }
            return readable;
        } finally {
            ForkedServer.close(client);
        }
    }
}
