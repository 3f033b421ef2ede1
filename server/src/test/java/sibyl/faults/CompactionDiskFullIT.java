package sibyl.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.faults.AckedRows.CF;
import static sibyl.faults.AckedRows.KS;
import static sibyl.faults.AckedRows.assertHoldsExactly;
import static sibyl.faults.AckedRows.countReadable;
import static sibyl.faults.AckedRows.writeAll;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.apache.cassandra.thrift.Cassandra;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.it.ForkedServer;
import sibyl.jmx.ColumnFamilyStoreMBean;
import sibyl.jmx.StorageServiceMBean;

/**
 * bin/server with only its data directory on a small tmpfs, which runs out of space while a
 * compaction writes its output: first the size-tiered compaction a flush sets off, then a major
 * compaction asked for over JMX (as bin/nodetool compact does). Each failure must be one line in
 * the node's log with no stack trace, leave no partial output behind, and leave the input
 * SSTables whole and in use; reads of every acknowledged row stay right throughout, writes (their
 * commit log on a disk with room) go on being acknowledged, the major compaction's caller is told
 * why it failed, and the background compaction backs off instead of trying again at once. Once
 * space is back a compaction succeeds without a restart, and after SIGKILL and restart nothing
 * acknowledged is lost and nothing on disk is damaged or left over. Needs root (for the mount).
 */
class CompactionDiskFullIT {
    private static final int DISK_MB = 16;
    /** Per writer and batch: 400 rows of about a KB, one SSTable of about 450 KB when flushed. */
    private static final int ROWS_PER_WRITER = 100;
    private static final String FAILED = "sstables of Keyspace1.Standard1 into ";
    private static final String NO_SPACE = "failed: No space left on device";

    @TempDir
    Path dir;

    @Test
    void aCompactionOnAFullDiskChangesNothingBacksOffAndSucceedsOnceThereIsSpace() throws Exception {
        long started = System.nanoTime();
        try (SmallDisk disk = SmallDisk.mount(dir.resolve("disk"), DISK_MB)) {
            Path ksDir = disk.path().resolve("data").resolve(KS);
            int jmxPort = NodeJmx.freePort();
            Path conf = ForkedServer.installConf(dir, ForkedServer.batchSync("1").andThen(xml -> xml
                    .replaceFirst("<DataFileDirectory>[^<]*<", "<DataFileDirectory>" + disk.path().resolve("data") + "<")
                    .replaceFirst("<ListenAddress>[^<]*<", "<ListenAddress>127.0.0.1<")
                    .replaceFirst("<JmxPort>\\d+</JmxPort>", "<JmxPort>" + jmxPort + "</JmxPort>"))::apply);
            Path log = dir.resolve("compaction-1.out");
            ForkedServer server = ForkedServer.start(conf, log);
            NodeJmx jmx = NodeJmx.connect(jmxPort);
            AtomicBoolean stopReading = new AtomicBoolean();
            ExecutorService readers = Executors.newSingleThreadExecutor();
            try {
                StorageServiceMBean node = jmx.storageService();
                ColumnFamilyStoreMBean store = jmx.store(KS, CF);
                WriteLedger ledger = new WriteLedger();
                for (int batch = 1; batch <= 3; batch++) {
                    writeAll(server, ledger, "batch" + batch + "-", ROWS_PER_WRITER);
                    node.forceTableFlush(KS, CF);
                }
                assertEquals(3, store.getLiveSSTableCount(), "one SSTable per flush, too few to compact");
                long sstableBytes = bytesIn(ksDir) / 3;

                // Room for a fourth flush and half an SSTable more; not for the four SSTables' compaction.
                disk.fillLeaving(sstableBytes * 3 / 2);
                ForkedServer node1 = server;
                Future<Integer> reads = readers.submit(() -> readAcknowledgedRows(node1, ledger, stopReading));
                writeAll(server, ledger, "batch4-", ROWS_PER_WRITER);
                node.forceTableFlush(KS, CF); // four SSTables: the flush sets off their compaction
                ServerLog.await(log, NO_SPACE, 1, "the size-tiered compaction fails on the full disk");
                long failedAt = System.nanoTime();
                Map<String, Long> inputs = sstableFiles(ksDir);
                assertUnchanged(ksDir, store, inputs, "after the failed compaction");
                assertHoldsExactly(server, ledger, "after the compaction failed");

                writeAll(server, ledger, "batch5-", ROWS_PER_WRITER); // into the memtable; the log has room
                IOException refused = assertThrows(IOException.class, () -> node.forceTableCompaction(KS),
                        "a major compaction on the full disk fails");
                assertTrue(refused.getMessage().startsWith("major compaction of keyspace Keyspace1 failed: could not"
                        + " compact 4 sstables of Keyspace1.Standard1 into ") && refused.getMessage().contains(
                        "No space left on device"), "the caller is told why: " + refused.getMessage());
                assertUnchanged(ksDir, store, inputs, "after the failed major compaction");
                stopReading.set(true);
                assertTrue(reads.get(30, TimeUnit.SECONDS) > 0, "reads ran while the compactions failed");
                assertHoldsExactly(server, ledger, "after both compactions failed");
                assertTrue(server.alive(), "the node survives failed compactions");
                assertReportedInALineEach(Files.readString(log), System.nanoTime() - failedAt);

                disk.freeFiller();
                node.forceTableCompaction(KS);
                assertEquals(1, store.getLiveSSTableCount(), "the compaction succeeds once there is space");
                awaitSSTablesOnDisk(ksDir, 1);
                assertTrue(Files.readString(log).contains("Compacted 4 sstables of Keyspace1.Standard1"),
                        Files.readString(log));
                assertHoldsExactly(server, ledger, "after the compaction succeeded");
                System.out.printf("compaction: %d writes acknowledged; SSTables of %d bytes; the disk was full for"
                        + " %d ms after the first failure%n", ledger.ackedCount(), sstableBytes,
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - failedAt));

                jmx.close();
                server.kill();
                Path restart = dir.resolve("compaction-2.out");
                server = ForkedServer.start(conf, restart);
                assertHoldsExactly(server, ledger, "after SIGKILL and restart");
                String restartLog = Files.readString(restart);
                assertFalse(restartLog.contains("is damaged") || restartLog.toLowerCase().contains("corrupt")
                        || restartLog.contains("Removed leftover"), "nothing on disk is damaged or left over:\n"
                        + restartLog);
            } finally {
                stopReading.set(true);
                readers.shutdownNow();
                closeQuietly(jmx);
                server.stop();
            }
        }
        System.out.printf("compaction: the test took %d ms%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }

    /**
     * The failed compaction left the SSTables as they were: the same complete files on disk,
     * none of the compaction's temporary ones, and all of them in use.
     */
    private static void assertUnchanged(Path ksDir, ColumnFamilyStoreMBean store, Map<String, Long> inputs, String when)
            throws IOException {
        Map<String, Long> files = sstableFiles(ksDir);
        assertEquals(inputs, files, "the SSTable files " + when);
        assertEquals(20, files.size(), "four SSTables of five components each " + when + ": " + files.keySet());
        try (Stream<Path> all = Files.list(ksDir)) {
            List<String> temporary = all.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("tmp-")).toList();
            assertEquals(List.of(), temporary, "the partial output is removed " + when);
        }
        assertEquals(4, store.getLiveSSTableCount(), "the inputs stay in use " + when);
    }

    /**
     * One ERROR line per failed compaction, without a stack trace; the background compaction
     * waits 10 s after its failure and 20 s after the major one, so within {@code sinceFirst}
     * of the first failure it may have tried again only so often.
     */
    private static void assertReportedInALineEach(String log, long sinceFirst) {
        List<String> lines = log.lines().filter(l -> l.contains(FAILED) && l.contains(NO_SPACE)).toList();
        lines.forEach(System.out::println);
        long failures = lines.size();
        long retriesPossible = TimeUnit.NANOSECONDS.toSeconds(sinceFirst) / 10;
        assertTrue(failures >= 2 && failures <= 2 + retriesPossible, failures + " compaction failures logged in "
                + TimeUnit.NANOSECONDS.toMillis(sinceFirst) + " ms:\n" + log);
        assertTrue(log.contains("compaction of Keyspace1.Standard1 is tried again in 10 s")
                && log.contains("compaction of Keyspace1.Standard1 is tried again in 20 s"), "it backs off:\n" + log);
        assertFalse(log.contains("\n\tat "), "no stack trace:\n" + log);
    }

    /** Reads back random acknowledged rows until told to stop; returns how many rounds of 100 it read. */
    private static int readAcknowledgedRows(ForkedServer server, WriteLedger ledger, AtomicBoolean stop)
            throws Exception {
        Cassandra.Client client = server.client();
        try {
            int rounds = 0;
            while (!stop.get()) {
                List<String> keys = new ArrayList<>(ledger.ackedKeys());
                Collections.shuffle(keys);
                List<String> some = keys.subList(0, Math.min(100, keys.size()));
                assertEquals(some.size(), countReadable(client, some), "acknowledged rows read back: " + some);
                rounds++;
            }
            return rounds;
        } finally {
            ForkedServer.close(client);
        }
    }

    /** The final-named SSTable files of the keyspace directory, to their sizes. */
    private static Map<String, Long> sstableFiles(Path ksDir) throws IOException {
        Map<String, Long> files = new TreeMap<>();
        try (Stream<Path> all = Files.list(ksDir)) {
            for (Path f : all.toList()) {
                String name = f.getFileName().toString();
                if (name.startsWith(CF + "-")) files.put(name, Files.size(f));
            }
        }
        return files;
    }

    private static long bytesIn(Path ksDir) throws IOException {
        return sstableFiles(ksDir).values().stream().mapToLong(Long::longValue).sum();
    }

    /** Compacted SSTables are deleted when their last reader lets go: soon, not necessarily at once. */
    private static void awaitSSTablesOnDisk(Path ksDir, int count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (sstableFiles(ksDir).keySet().stream().filter(n -> n.endsWith("-Data.db")).count() != count) {
            assertTrue(System.nanoTime() < deadline, count + " SSTables on disk within 30 s: " + sstableFiles(ksDir));
            Thread.sleep(50);
        }
    }

    private static void closeQuietly(NodeJmx jmx) {
        try {
            jmx.close();
        } catch (IOException e) {
            // the node is gone or going; nothing to release on our side
        }
    }
}
