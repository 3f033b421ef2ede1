package sibyl.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.faults.AckedRows.WRITERS;
import static sibyl.faults.AckedRows.assertHoldsExactly;
import static sibyl.faults.AckedRows.write;
import static sibyl.faults.AckedRows.writeAll;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.cassandra.thrift.Cassandra;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.it.ForkedServer;

/**
 * bin/server with its commit log and data directories on a tmpfs of a few MB, written to by
 * several clients until the disk is full. Writes past that point must fail at once with an error
 * that says so, reads must go on, and the node must not die; when space comes back it takes
 * writes again without a restart; after a SIGKILL and restart it holds exactly the acknowledged
 * writes: none lost, none of the refused ones, nothing torn. The node's log reports the full disk
 * in a line, not a line per refused write; a node started on a full disk exits saying why.
 *
 * <p>The first two tests fill the disk through the commit log (memtables at their default size are
 * not flushed in them); the third puts only the data directory on the small disk and fills it
 * during flushes ({@link CompactionDiskFullIT} fills it during a compaction). Needs root (for
 * the mount); skipped otherwise.
 */
class DiskFullIT {
    private static final int DISK_MB = 8;
    /** What the filler file leaves free: room for about a thousand writes. */
    private static final long HEADROOM_BYTES = 1 << 20;
    /** Refusals to collect before the load stops: every writer meets the full disk many times. */
    private static final int REFUSALS_WANTED = 200;
    private static final Pattern REPLAYED = Pattern.compile("Replayed (\\d+) commit log entries");

    @TempDir
    Path dir;

    @Test
    void batchModeRefusesWritesWhenTheDiskIsFullAndLosesNothing() throws Exception {
        diskFillsUnderWrites(ForkedServer.batchSync("1"), "batch");
    }

    @Test
    void periodicModeRefusesWritesWhenTheDiskIsFullAndLosesNothing() throws Exception {
        diskFillsUnderWrites(ForkedServer.periodicSync(200), "periodic");
    }

    /**
     * Only the data directory on the small disk, memtables of 500 operations: flushes hit the full
     * disk while writes, logged on a disk with room, go on being acknowledged. A failed flush keeps
     * its memtable readable and is retried; once there is space it completes without a restart,
     * and after SIGKILL and restart nothing is lost and no SSTable is damaged.
     */
    @Test
    void flushesOnAFullDiskKeepTheirMemtablesAndCompleteOnceThereIsSpace() throws Exception {
        try (SmallDisk disk = SmallDisk.mount(dir.resolve("disk"), DISK_MB)) {
            Path data = disk.path().resolve("data");
            Path conf = ForkedServer.installConf(dir, ForkedServer.batchSync("1").andThen(onDisk(disk.path()))
                    .andThen(xml -> xml
                            .replaceFirst("<CommitLogDirectory>[^<]*<", "<CommitLogDirectory>" + dir.resolve("commitlog") + "<")
                            .replaceFirst("<MemtableOperationsInMillions>[^<]*<", "<MemtableOperationsInMillions>0.0005<"))::apply);
            Path log = dir.resolve("flush-1.out");
            ForkedServer server = ForkedServer.start(conf, log);
            try {
                WriteLedger ledger = new WriteLedger();
                writeAll(server, ledger, "flush-before-", 200);
                ServerLog.await(log, "Flushed Keyspace1.Standard1", 1, "memtables are flushed");
                int sstables = sstables(data);
                assertTrue(sstables > 0, "SSTables in " + data);

                disk.fillLeaving(0);
                writeAll(server, ledger, "flush-full-", 200);
                ServerLog.await(log, "Flush of Keyspace1.Standard1", 1, "a flush fails on the full disk");
                assertTrue(server.alive(), "the node survives a failed flush");
                assertFalse(Files.readString(log).contains("\n\tat "), "a failed flush is a line, not a stack trace:\n"
                        + Files.readString(log));
                assertHoldsExactly(server, ledger, "while flushes fail");
                int flushedBefore = ServerLog.count(Files.readString(log), "Flushed Keyspace1.Standard1");

                disk.freeFiller();
                ServerLog.await(log, "Flushed Keyspace1.Standard1", flushedBefore + 1, "the flush completes once there is space");
                try {
                    writeAll(server, ledger, "flush-freed-", 50);
                } catch (AssertionError e) {
                    throw new AssertionError(e.getMessage() + "\nserver alive: " + server.alive() + "; its log:\n"
                            + Files.readString(log), e);
                }
                assertHoldsExactly(server, ledger, "once space was freed");
                System.out.printf("flush: %d writes acknowledged; SSTables %d before the disk filled, %d now%n",
                        ledger.ackedCount(), sstables, sstables(data));

                server.kill();
                Path restart = dir.resolve("flush-2.out");
                server = ForkedServer.start(conf, restart);
                assertHoldsExactly(server, ledger, "after SIGKILL and restart");
                String restartLog = Files.readString(restart);
                assertFalse(restartLog.contains("is damaged") || restartLog.toLowerCase().contains("corrupt"),
                        "nothing on disk is damaged:\n" + restartLog);
            } finally {
                server.stop();
            }
        }
    }

    /** Finished SSTables of Standard1 (their Data.db files) under {@code data}. */
    private static int sstables(Path data) throws java.io.IOException {
        try (java.util.stream.Stream<Path> files = Files.walk(data)) {
            return (int) files.filter(f -> f.getFileName().toString().matches("Standard1-\\d+-Data\\.db")).count();
        }
    }

    private void diskFillsUnderWrites(UnaryOperator<String> syncMode, String name) throws Exception {
        try (SmallDisk disk = SmallDisk.mount(dir.resolve("disk"), DISK_MB)) {
            Path conf = ForkedServer.installConf(dir, syncMode.andThen(onDisk(disk.path()))::apply);
            ForkedServer server = ForkedServer.start(conf, dir.resolve(name + "-1.out"));
            try {
                WriteLedger ledger = new WriteLedger();
                disk.fillLeaving(HEADROOM_BYTES);
                writeUntilRefused(server, ledger, name + "-full-");
                System.out.printf("%s: disk full after %d acknowledged writes; %d refused; %d bytes free of %d%n",
                        name, ledger.ackedCount(), ledger.refusedCount(), disk.usableBytes(), disk.totalBytes());

                assertEquals(Map.of(), ledger.unknown(), "every write on the full disk got an answer");
                assertTrue(ledger.ackedCount() > 0, "writes were acknowledged before the disk filled");
                for (Map.Entry<String, String> r : ledger.refused().entrySet()) {
                    assertTrue(r.getValue().startsWith("write failed") && r.getValue().contains("No space left on device"),
                            "the client is told the write failed and why; key " + r.getKey() + ": " + r.getValue());
                }
                assertTrue(server.alive(), "the node survives a full disk");
                assertHoldsExactly(server, ledger, "with the disk full");
                Path log = dir.resolve(name + "-1.out");
                assertReportedOnce(Files.readString(log), ledger.refusedCount());

                disk.freeFiller();
                writeAll(server, ledger, name + "-freed-", 50);
                assertHoldsExactly(server, ledger, "once space was freed");
                assertTrue(Files.readString(log).contains("The commit log is written again, after refusing"),
                        "the node says when writes go through again:\n" + Files.readString(log));
                System.out.printf("%s: after freeing space %d writes acknowledged in all%n", name, ledger.ackedCount());

                disk.fillLeaving(0);
                server.kill();
                assertRefusesToStart(conf, dir.resolve(name + "-full-start.out"), disk.path().resolve("commitlog"));
                disk.freeFiller();
                server = ForkedServer.start(conf, dir.resolve(name + "-2.out"));
                assertHoldsExactly(server, ledger, "after SIGKILL and restart");
                String replay = Files.readString(dir.resolve(name + "-2.out"));
                assertFalse(replay.contains("is damaged"), "no commit log segment is damaged:\n" + replay);
                Matcher replayed = REPLAYED.matcher(replay);
                assertTrue(replayed.find(), "the restart replayed the log:\n" + replay);
                assertEquals(ledger.ackedCount(), Long.parseLong(replayed.group(1)),
                        "the log holds one entry per acknowledged write and nothing else");
            } finally {
                server.stop();
            }
        }
    }

    /**
     * A full disk is reported in the node's log in a line or two, not a line (and stack trace) per
     * refused write.
     */
    private static void assertReportedOnce(String log, int refused) {
        assertFalse(log.contains("Internal application error processing"),
                "refused writes are not logged one by one as internal errors:\n" + log);
        long reports = log.lines().filter(l -> l.contains("ERROR") && l.contains("commit log")).count();
        assertTrue(reports >= 1 && reports <= 3, reports + " ERROR lines about the commit log for " + refused
                + " refused writes:\n" + log);
        assertTrue(log.contains("The commit log cannot be written, so writes are refused until it can: write failed")
                && log.contains("No space left on device"), "the node's log says what is wrong:\n" + log);
    }

    /** bin/server on a full disk exits at once, saying where it could not write and why. */
    private static void assertRefusesToStart(Path conf, Path out, Path commitLog) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(ForkedServer.home().resolve("bin/server").toString(), "-f", "--conf",
                conf.toString()).redirectErrorStream(true).redirectOutput(out.toFile());
        pb.environment().put("JVM_OPTS", "-Xms64m -Xmx512m -XX:TieredStopAtLevel=1");
        Process p = pb.start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("bin/server on a full disk neither served nor exited within 90 s:\n"
                    + Files.readString(out));
        }
        String output = Files.readString(out);
        assertTrue(p.exitValue() != 0, "bin/server on a full disk exits non-zero:\n" + output);
        assertTrue(output.contains("Sibyl could not start: could not create a commit log segment in " + commitLog
                + ": No space left on device"), "it says why:\n" + output);
    }

    /** Puts the commit log, data and saved caches directories on {@code disk}. */
    private static UnaryOperator<String> onDisk(Path disk) {
        return xml -> xml
                .replaceFirst("<CommitLogDirectory>[^<]*<", "<CommitLogDirectory>" + disk.resolve("commitlog") + "<")
                .replaceFirst("<DataFileDirectory>[^<]*<", "<DataFileDirectory>" + disk.resolve("data") + "<")
                .replaceFirst("<SavedCachesDirectory>[^<]*<", "<SavedCachesDirectory>" + disk.resolve("caches") + "<")
                .replaceFirst("<JmxPort>\\d+</JmxPort>", "<JmxPort>0</JmxPort>");
    }

    /**
     * Writes from {@link #WRITERS} clients until the server has refused {@link #REFUSALS_WANTED}
     * writes; a writer whose call breaks off without an answer stops there.
     */
    private static void writeUntilRefused(ForkedServer server, WriteLedger ledger, String prefix) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        List<Future<?>> writers = new ArrayList<>();
        for (int t = 0; t < WRITERS; t++) {
            String thread = prefix + "t" + t + "-";
            writers.add(pool.submit(() -> {
                Cassandra.Client client = server.client();
                try {
                    for (int i = 0; !stop.get(); i++) {
                        if (!write(client, ledger, thread + i)) return null;
                    }
                    return null;
                } finally {
                    ForkedServer.close(client);
                }
            }));
        }
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (ledger.refusedCount() < REFUSALS_WANTED && ledger.unknown().isEmpty()) {
                assertTrue(System.nanoTime() < deadline, "the disk fills within 60 s; " + ledger.ackedCount()
                        + " writes acknowledged, " + ledger.refusedCount() + " refused");
                Thread.sleep(10);
            }
        } finally {
            stop.set(true);
            pool.shutdown();
        }
        for (Future<?> w : writers) w.get(30, TimeUnit.SECONDS);
    }

}
