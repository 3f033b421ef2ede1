package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.engine.EngineFixture.KS;
import static sibyl.engine.EngineFixture.STD;

import ch.qos.logback.classic.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.RowMutation;
import sibyl.dht.RandomPartitioner;
import sibyl.testing.LogCapture;

/**
 * A background compaction that fails changes nothing, says so in one log line, and is not tried
 * again before its back-off ends, however many flushes come in between; a major compaction on
 * request still runs at once. The fault: a leftover temporary index file where the compaction's
 * output goes, so exactly one attempt fails (the disk-full case runs in DiskFullIT). (A leftover
 * temporary data file would not do: it claims its generation, which the next SSTable then skips.)
 */
class CompactionFailureTest {
    private static final String COMPACTOR_LOG = "sibyl.engine.Compactor";

    @TempDir
    Path dir;

    @Test
    void aFailedCompactionChangesNothingAndWaitsOutItsBackOffThroughLaterFlushes() throws Exception {
        EngineFixture.Settings options = EngineFixture.options(dir, 64L << 20, 864000, 1024);
        EngineSettings settings = options.engine()
                .toBuilder().compactionRetryDelay(Duration.ofMinutes(10)).build();
        String before;
        try (LogCapture log = new LogCapture(COMPACTOR_LOG);
             LocalStorageService db = LocalStorageService.open(new RandomPartitioner(), List.of(EngineFixture.SCHEMA),
                     options.log(), settings)) {
            StorageEngine engine = db.engine().orElseThrow();
            failTheFourthFlushsCompaction(db);
            assertEquals(4, store(db).liveSSTables().size(), "the inputs stay in use");
            before = EngineFixture.snapshot(db);

            List<String> errors = log.messages(Level.ERROR);
            assertEquals(1, errors.size(), errors.toString());
            assertTrue(errors.get(0).startsWith("Compaction of 4 sstables of Keyspace1.Standard1 into ")
                    && errors.get(0).contains("FileAlreadyExistsException: ") && errors.get(0).contains("tried again in 600 s"), errors.get(0));
            assertEquals(List.of(), log.messagesWithStackTraces(Level.ERROR), "an I/O failure is logged without a stack trace");

            for (int batch = 4; batch < 6; batch++) writeAndFlush(db, batch);
            await(() -> engine.pendingTasks() == 0, "flushes done");
            assertEquals(0, engine.compactionsCompleted(), "flushes during the back-off do not retry the compaction");
            assertEquals(1, engine.compactionFailures());
            assertEquals(6, store(db).liveSSTables().size());
            before = EngineFixture.snapshot(db);

            db.forceMajorCompaction(KS);
            assertEquals(1, engine.compactionsCompleted(), "a major compaction on request does not wait");
            assertEquals(1, store(db).liveSSTables().size());
            assertEquals(before, EngineFixture.snapshot(db));
            assertEquals(1, log.messages(Level.ERROR).size());
        }
        try (LocalStorageService db = EngineFixture.open(options)) {
            assertEquals(before, EngineFixture.snapshot(db), "after a restart");
            assertEquals(1, store(db).liveSSTables().size());
        }
    }

    @Test
    void aFailedBackgroundCompactionIsTriedAgainOnItsOwnOnceItsBackOffEnds() throws Exception {
        EngineFixture.Settings options = EngineFixture.options(dir, 64L << 20, 864000, 1024);
        EngineSettings settings = options.engine()
                .toBuilder().compactionRetryDelay(Duration.ofMillis(200)).build();
        try (LocalStorageService db = LocalStorageService.open(new RandomPartitioner(), List.of(EngineFixture.SCHEMA),
                options.log(), settings)) {
            StorageEngine engine = db.engine().orElseThrow();
            failTheFourthFlushsCompaction(db);
            String before = EngineFixture.snapshot(db);
            await(() -> engine.compactionsCompleted() == 1, "the compaction is retried without another flush");
            assertEquals(1, engine.compactionFailures());
            assertEquals(1, store(db).liveSSTables().size());
            assertEquals(before, EngineFixture.snapshot(db));
        }
    }

    /**
     * Flushes three SSTables, puts a file where the next-but-one SSTable's temporary index file
     * goes, and flushes a fourth: the size-tiered compaction it sets off fails on that file.
     */
    private void failTheFourthFlushsCompaction(LocalStorageService db) throws Exception {
        for (int batch = 0; batch < 3; batch++) writeAndFlush(db, batch);
        Path ksDir = dir.resolve("data").resolve(KS);
        Files.writeString(ksDir.resolve("tmp-" + STD + "-" + (highestGeneration(ksDir) + 2) + "-Index.db"), "in the way");
        writeAndFlush(db, 3);
        StorageEngine engine = db.engine().orElseThrow();
        await(() -> engine.compactionFailures() == 1, "the compaction fails");
        assertEquals(0, engine.compactionsCompleted());
    }

    private static void writeAndFlush(LocalStorageService db, int batch) throws Exception {
        for (int i = 0; i < 50; i++) {
            db.apply(RowMutation.builder(KS, "b" + batch + "-" + i)
                    .write(STD, EngineFixture.b("c"), EngineFixture.b("v" + batch), 1).build());
        }
        db.forceFlush(KS, STD);
    }

    private static int highestGeneration(Path ksDir) throws Exception {
        try (Stream<Path> files = Files.list(ksDir)) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith("-Statistics.db"))
                    .mapToInt(n -> Integer.parseInt(n.split("-")[1])).max().orElseThrow();
        }
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, what + " within 30 s");
            Thread.sleep(10);
        }
    }

    private static ColumnFamilyStore store(LocalStorageService db) {
        for (Keyspace ks : db.openKeyspaces()) if (ks.name().equals(KS)) return ks.store(STD);
        throw new AssertionError();
    }
}
