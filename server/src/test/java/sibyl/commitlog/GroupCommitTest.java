package sibyl.commitlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.commitlog.LogFixture.replayKeys;
import static sibyl.commitlog.LogFixture.write;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.LogPosition;

/** Batch mode: many concurrent writers share few fsyncs, and each returns only once synced. */
class GroupCommitTest {
    private static final int THREADS = 16;
    private static final int WRITES = 50;

    @TempDir
    Path dir;

    @Test
    void oneFsyncServesManyWriters() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        long syncs;
        List<LogPosition> positions = new ArrayList<>();
        try (CommitLog log = CommitLog.open(dir, new SyncMode.Batch(Duration.ofMillis(2)), 1 << 20)) {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<List<LogPosition>>> writers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                writers.add(pool.submit(() -> {
                    go.await();
                    List<LogPosition> mine = new ArrayList<>();
                    for (int i = 0; i < WRITES; i++) {
                        LogPosition p = log.append(write("t" + thread + "-" + i));
                        // Returned only after the fsync covering it: the log has synced at least once.
                        assertTrue(log.syncCount() > 0);
                        mine.add(p);
                    }
                    return mine;
                }));
            }
            go.countDown();
            for (Future<List<LogPosition>> w : writers) positions.addAll(w.get(60, TimeUnit.SECONDS));
            syncs = log.syncCount();
        } finally {
            pool.shutdownNow();
        }
        int writes = THREADS * WRITES;
        System.out.printf("group commit: %d writes from %d threads, %d fsyncs (%.1f writes per fsync)%n",
                writes, THREADS, syncs, (double) writes / syncs);
        assertTrue(syncs * 4 <= writes, syncs + " fsyncs for " + writes + " writes");
        assertEquals(writes, new HashSet<>(positions).size(), "every entry has its own position");

        List<String> replayed = replayKeys(dir);
        assertEquals(writes, replayed.size());
        Set<String> expected = new HashSet<>();
        for (int t = 0; t < THREADS; t++) for (int i = 0; i < WRITES; i++) expected.add("t" + t + "-" + i);
        assertEquals(expected, new HashSet<>(replayed));
        for (int t = 0; t < THREADS; t++) {
            // One writer's entries are in its order in the log.
            String prefix = "t" + t + "-";
            List<String> mine = replayed.stream().filter(k -> k.startsWith(prefix)).toList();
            for (int i = 0; i < WRITES; i++) assertEquals(prefix + i, mine.get(i));
        }
    }

    @Test
    void aLoneWriterWaitsAtMostAboutTheWindow() throws Exception {
        try (CommitLog log = CommitLog.open(dir, new SyncMode.Batch(Duration.ofMillis(1)), 1 << 20)) {
            long start = System.nanoTime();
            for (int i = 0; i < 20; i++) log.append(write("k" + i));
            long perWrite = (System.nanoTime() - start) / 20;
            assertEquals(20, log.syncCount(), "alone, each write gets its own fsync");
            assertTrue(perWrite < TimeUnit.MILLISECONDS.toNanos(500), perWrite + " ns per write");
        }
    }
}
