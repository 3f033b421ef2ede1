package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.engine.EngineFixture.KS;
import static sibyl.engine.EngineFixture.STD;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.RowMutation;
import sibyl.db.WriteFailedException;
import sibyl.dht.RandomPartitioner;

/** A flush that cannot write keeps its memtable readable and is retried; drain ends writes cleanly. */
class FlushFailureTest {
    @TempDir
    Path dir;

    @Test
    void aFailedFlushKeepsItsDataReadableAndSucceedsOnRetry() throws Exception {
        long seed = Long.getLong("sibyl.seed", System.nanoTime());
        System.out.println("FlushFailureTest seed " + seed);
        Random random = new Random(seed);
        EngineFixture.Settings options = EngineFixture.options(dir, 64L << 20, 864000, 1024);
        EngineSettings base = options.engine();
        EngineSettings quickRetry = base.toBuilder().flushRetryDelay(Duration.ofMillis(50)).build();
        String before;
        try (LocalStorageService db = LocalStorageService.open(new RandomPartitioner(), List.of(EngineFixture.SCHEMA),
                options.log(), quickRetry)) {
            for (int i = 0; i < 1000; i++) db.apply(EngineFixture.randomMutation(random, 40));
            before = EngineFixture.snapshot(db);
            // A file where the keyspace's directory belongs: every SSTable write fails.
            Path ksDir = dir.resolve("data").resolve(KS);
            Files.createDirectories(ksDir.getParent());
            Files.deleteIfExists(ksDir);
            Files.writeString(ksDir, "in the way");
            CompletableFuture<Void> flush = CompletableFuture.runAsync(() -> {
                try {
                    db.forceFlush(KS, STD);
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (db.engine().orElseThrow().flushFailures() < 3) {
                assertTrue(System.nanoTime() < deadline, "the flush was tried and retried");
                Thread.sleep(10);
            }
            assertFalse(flush.isDone(), "a flush that has not succeeded is not reported done");
            assertEquals(before, EngineFixture.snapshot(db), "the unflushed memtable is still read");
            db.apply(RowMutation.builder(KS, "during").write(STD, EngineFixture.b("c"), EngineFixture.b("v"), 1).build());
            Files.delete(ksDir);
            flush.get(30, TimeUnit.SECONDS);
            assertEquals(1, store(db).liveSSTables().size());
            assertTrue(store(db).pendingFlushes().isEmpty());
            before = EngineFixture.snapshot(db);
        }
        try (LocalStorageService db = EngineFixture.open(options)) {
            assertEquals(before, EngineFixture.snapshot(db), "seed " + seed);
        }
    }

    @Test
    void drainFlushesEverythingAndRefusesWrites() throws Exception {
        EngineFixture.Settings options = EngineFixture.options(dir, 64L << 20, 864000, 1024);
        String before;
        try (LocalStorageService db = EngineFixture.open(options)) {
            Random random = new Random(1);
            for (int i = 0; i < 500; i++) db.apply(EngineFixture.randomMutation(random, 40));
            before = EngineFixture.snapshot(db);
            db.drain();
            assertEquals(0, store(db).memtable().operationCount());
            WriteFailedException e = assertThrows(WriteFailedException.class, () -> db.apply(
                    RowMutation.builder(KS, "late").write(STD, EngineFixture.b("c"), EngineFixture.b("v"), 1).build()));
            assertTrue(e.getMessage().contains("drained"), e.getMessage());
            assertEquals(before, EngineFixture.snapshot(db));
        }
        try (LocalStorageService db = EngineFixture.open(options)) {
            assertEquals(before, EngineFixture.snapshot(db));
            assertEquals(0, store(db).memtable().operationCount(), "nothing left to replay after a drain");
            assertEquals(0, db.replaySummary().orElseThrow().segments(), "a drained log is deleted at close");
        }
    }

    @Test
    void aFlushThatKeepsFailingGivesUpWaitingWithTheReason() throws Exception {
        EngineFixture.Settings options = EngineFixture.options(dir, 64L << 20, 864000, 1024);
        try (LocalStorageService db = LocalStorageService.open(new RandomPartitioner(), List.of(EngineFixture.SCHEMA),
                options.log(), oneSlotQuickRetry(options))) {
            db.apply(RowMutation.builder(KS, "k").write(STD, EngineFixture.b("c"), EngineFixture.b("v"), 1).build());
            Path obstacle = blockSSTableWrites();
            IOException e = assertThrows(IOException.class, () -> db.forceFlush(Duration.ofSeconds(1), KS, STD));
            assertTrue(e.getMessage().contains("flush of keyspace " + KS + " did not finish within 1000 ms"), e.getMessage());
            assertTrue(e.getMessage().contains("the last flush failure: " + KS + "." + STD), e.getMessage());

            // The one pending-flush slot is held by the failing flush: a second one cannot even switch.
            db.apply(RowMutation.builder(KS, "k2").write(STD, EngineFixture.b("c"), EngineFixture.b("v"), 1).build());
            e = assertThrows(IOException.class, () -> db.forceFlush(Duration.ofMillis(100), KS, STD));
            assertTrue(e.getMessage().contains("could not be switched out"), e.getMessage());

            Files.delete(obstacle); // the background retries succeed now, and so does a flush
            db.forceFlush(Duration.ofSeconds(30), KS, STD);
            assertTrue(store(db).pendingFlushes().isEmpty());
            assertEquals(0, store(db).memtable().operationCount());
        }
    }

    @Test
    void aDrainThatCannotFlushFailsAndWritesStayRefused() throws Exception {
        EngineFixture.Settings options = EngineFixture.options(dir, 64L << 20, 864000, 1024);
        try (LocalStorageService db = LocalStorageService.open(new RandomPartitioner(), List.of(EngineFixture.SCHEMA),
                options.log(), oneSlotQuickRetry(options))) {
            db.apply(RowMutation.builder(KS, "k").write(STD, EngineFixture.b("c"), EngineFixture.b("v"), 1).build());
            Path obstacle = blockSSTableWrites();
            IOException e = assertThrows(IOException.class, () -> db.drain(Duration.ofSeconds(1)));
            assertTrue(e.getMessage().startsWith("drain failed, writes stay refused: flush of keyspace " + KS), e.getMessage());
            assertTrue(e.getMessage().contains(KS + "." + STD), e.getMessage());
            assertThrows(WriteFailedException.class, () -> db.apply(
                    RowMutation.builder(KS, "late").write(STD, EngineFixture.b("c"), EngineFixture.b("v"), 1).build()));
            Files.delete(obstacle);
            db.drain(Duration.ofSeconds(30));
            assertEquals(0, store(db).memtable().operationCount());
        }
    }

    /** One pending flush at most, retried every 20 ms: a failing flush holds the only slot. */
    private static EngineSettings oneSlotQuickRetry(EngineFixture.Settings options) {
        return options.engine().toBuilder().maxPendingFlushes(1).flushRetryDelay(Duration.ofMillis(20)).build();
    }

    /** A file where the keyspace's directory belongs: every SSTable write fails until it is deleted. */
    private Path blockSSTableWrites() throws IOException {
        Path ksDir = dir.resolve("data").resolve(KS);
        Files.createDirectories(ksDir.getParent());
        Files.deleteIfExists(ksDir);
        Files.writeString(ksDir, "in the way");
        return ksDir;
    }

    private static ColumnFamilyStore store(LocalStorageService db) {
        for (Keyspace ks : db.openKeyspaces()) if (ks.name().equals(KS)) return ks.store(STD);
        throw new AssertionError();
    }
}
