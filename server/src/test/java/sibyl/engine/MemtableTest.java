package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CFMetaData;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.LogPosition;
import sibyl.db.marshal.BytesType;
import sibyl.dht.DecoratedKey;
import sibyl.dht.RandomPartitioner;
import sibyl.io.Descriptor;
import sibyl.io.KeyCache;
import sibyl.io.SSTableReader;
import sibyl.testing.OnThreads;

/**
 * The memtable's two views of its rows, point and sorted, agree, concurrent writes to a row all
 * land, and keys that enter the sorted view in batches, in the background or by a writer, come out
 * in ring order, every acknowledged one of them once, in scans, index samples and flushes, which
 * merge the keys still pending instead of folding them.
 */
class MemtableTest {
    private static final CFMetaData CF = CFMetaData.standard("KS", "CF", BytesType.instance);
    /** A sorter that never gets to run: every key a writer does not fold itself waits for a scan. */
    private static final Executor IDLE = task -> {
    };
    private final RandomPartitioner partitioner = new RandomPartitioner();
    private final Random random = new Random(20150);

    @Test
    void concurrentWritersToSharedAndNewKeysLoseNothing() throws Exception {
        Memtable memtable = new Memtable(CF, Runnable::run);
        int threads = 8;
        int perThread = 2000;
        OnThreads.run(threads, Duration.ofSeconds(60), thread -> {
            for (int i = 0; i < perThread; i++) {
                // shared keys, written by every thread without the row lock Keyspace would take
                String key = "shared" + (i % 50);
                memtable.apply(key(key), row("t" + thread + "c" + i), 1);
                memtable.apply(key("own" + thread + "-" + i), row("c"), 1);
            }
        });

        assertEquals(50 + threads * perThread, memtable.rowCount());
        for (int k = 0; k < 50; k++) {
            assertEquals(threads * perThread / 50, memtable.getRow(key("shared" + k)).cellCount(), "shared" + k);
        }
        assertEquals(2L * threads * perThread, memtable.operationCount());
        int scanned = 0;
        DecoratedKey previous = null;
        Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rows =
                memtable.rowsFrom(DecoratedKey.startOf(partitioner.getMinimumToken()));
        while (rows.hasNext()) {
            Map.Entry<DecoratedKey, ColumnFamily> e = rows.next();
            if (previous != null) assertEquals(-1, Integer.signum(previous.compareTo(e.getKey())), "token order");
            assertEquals(memtable.getRow(e.getKey()), e.getValue(), "the scan sees the point view's version");
            previous = e.getKey();
            scanned++;
        }
        assertEquals(memtable.rowCount(), scanned);
        assertNull(memtable.getRow(key("absent")));
    }

    @Test
    void rowsFromGivesEveryRowInRingOrderAfterRandomInserts() {
        Memtable memtable = new Memtable(CF, IDLE);
        TreeSet<DecoratedKey> expected = new TreeSet<>();
        for (int i = 0; i < 3000; i++) insertNew(memtable, expected);
        assertEquals(List.copyOf(expected), scan(memtable, start()), "a scan holds every key written so far");
        // new keys that fall between those already in ring order, and a repeat that must not appear twice
        for (int i = 0; i < 3000; i++) insertNew(memtable, expected);
        memtable.apply(expected.first(), row("again"), 1);
        assertEquals(List.copyOf(expected), scan(memtable, start()));
        Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rows = memtable.rowsFrom(start());
        while (rows.hasNext()) {
            Map.Entry<DecoratedKey, ColumnFamily> e = rows.next();
            assertEquals(memtable.getRow(e.getKey()), e.getValue(), "the scan sees the point view's version");
        }
    }

    @Test
    void rowsFromAPositionInTheMiddleStartsThere() {
        Queue<Runnable> queued = new ArrayDeque<>();
        Memtable memtable = new Memtable(CF, queued::add, 1000);
        TreeSet<DecoratedKey> expected = new TreeSet<>();
        for (int i = 0; i < 1000; i++) insertNew(memtable, expected);
        queued.remove().run();
        for (int i = 0; i < 1000; i++) insertNew(memtable, expected); // half of them still unsorted
        assertEquals(1000, memtable.pendingCount());
        List<DecoratedKey> all = List.copyOf(expected);
        DecoratedKey middle = all.get(all.size() / 2);
        assertEquals(all.subList(all.size() / 2, all.size()), scan(memtable, DecoratedKey.startOf(middle.token())),
                "from the marker before its token");
        assertEquals(all.subList(all.size() / 2, all.size()), scan(memtable, middle), "from the key itself");
        assertEquals(all.subList(all.size() / 2 + 1, all.size()), scan(memtable, DecoratedKey.endOf(middle.token())),
                "from the marker after its token");
        assertEquals(List.of(), scan(memtable, DecoratedKey.endOf(all.get(all.size() - 1).token())));
    }

    @Test
    void sampleKeysTakesEveryIntervalthKeyInRingOrder() {
        Memtable memtable = new Memtable(CF, IDLE);
        TreeSet<DecoratedKey> expected = new TreeSet<>();
        for (int i = 0; i < 1000; i++) insertNew(memtable, expected);
        assertEquals(everyNth(List.copyOf(expected), 7), memtable.sampleKeys(7));
        for (int i = 0; i < 1000; i++) insertNew(memtable, expected);
        for (int interval : new int[] {1, 7, 128, 5000}) {
            assertEquals(everyNth(List.copyOf(expected), interval), memtable.sampleKeys(interval), "every " + interval);
        }
    }

    @Test
    void aFlushWritesTheRowsInRingOrder(@TempDir Path dir) throws Exception {
        Queue<Runnable> queued = new ArrayDeque<>();
        Memtable memtable = new Memtable(CF, queued::add, 100);
        TreeSet<DecoratedKey> expected = new TreeSet<>();
        for (int i = 0; i < 2000; i++) insertNew(memtable, expected);
        scan(memtable, start());
        for (int i = 0; i < 450; i++) insertNew(memtable, expected); // 50 of these still pending: the flush merges them
        assertEquals(1, queued.size(), "a background fold queued and not yet run");
        EngineSettings settings = EngineFixture.options(dir, 1 << 20, 0, 4096).engine();
        SSTableReader sstable = MemtableWriter.write(new PendingFlush(memtable, new LogPosition(1, 0)),
                new Descriptor(dir.resolve("KS"), "CF", 1), partitioner, settings, new KeyCache(100));
        try {
            assertEquals(expected.size(), sstable.statistics().rowCount());
            List<DecoratedKey> written = new ArrayList<>();
            Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rows = sstable.rowsFrom(start());
            while (rows.hasNext()) {
                Map.Entry<DecoratedKey, ColumnFamily> e = rows.next();
                written.add(e.getKey());
                assertEquals(memtable.getRow(e.getKey()).cellCount(), e.getValue().cellCount(), e.getKey().key());
            }
            assertEquals(List.copyOf(expected), written);
        } finally {
            sstable.release();
        }
        assertEquals(50, memtable.pendingCount(), "the flush folds nothing");
        queued.remove().run(); // arrives after the flush: folds the keys it merged, harmlessly
        assertEquals(0, memtable.pendingCount());
        assertEquals(List.copyOf(expected), scan(memtable, start()));
        assertEquals(memtable.rowCount(), expected.size());
    }

    @Test
    void aWriterQueuesOneFoldPerBatchAndOnlyOneAtATime() {
        Queue<Runnable> queued = new ArrayDeque<>();
        Memtable memtable = new Memtable(CF, queued::add, 100);
        TreeSet<DecoratedKey> expected = new TreeSet<>();
        for (int i = 0; i < 99; i++) insertNew(memtable, expected);
        assertEquals(0, queued.size(), "fewer keys than a batch are left to the next scan");
        assertEquals(99, memtable.pendingCount());
        insertNew(memtable, expected);
        assertEquals(1, queued.size(), "the writer completing a batch queues a fold");
        for (int i = 0; i < 150; i++) insertNew(memtable, expected);
        memtable.apply(expected.first(), row("again"), 1);
        assertEquals(1, queued.size(), "not a second one while the first is queued");
        assertEquals(250, memtable.pendingCount());

        queued.remove().run();
        assertEquals(0, memtable.pendingCount(), "the fold takes every key pending when it runs");
        assertEquals(0, queued.size(), "and queues none after it when fewer than a batch are left");
        for (int i = 0; i < 100; i++) insertNew(memtable, expected);
        assertEquals(1, queued.size(), "the next batch queues the next fold");
        assertEquals(List.copyOf(expected), scan(memtable, start()));
        assertEquals(expected.size(), memtable.rowCount());
    }

    @Test
    void aWriterFoldsItselfWhenTheSorterFallsBehind() {
        Queue<Runnable> queued = new ArrayDeque<>();
        Memtable memtable = new Memtable(CF, queued::add, 100);
        TreeSet<DecoratedKey> expected = new TreeSet<>();
        int helpAt = 100 * Memtable.HELP_AFTER_BATCHES;
        for (int i = 0; i < helpAt - 1; i++) insertNew(memtable, expected);
        assertEquals(helpAt - 1, memtable.pendingCount(), "the queued fold has not run");
        insertNew(memtable, expected);
        assertEquals(0, memtable.pendingCount(), "the writer of the last batch folded them");
        assertEquals(1, queued.size());
        queued.remove().run();
        assertEquals(List.copyOf(expected), scan(memtable, start()));
    }

    @Test
    void aRefusedFoldLosesNothingAndTheNextBatchTriesAgain() {
        AtomicInteger refused = new AtomicInteger();
        Memtable memtable = new Memtable(CF, task -> {
            refused.incrementAndGet();
            throw new RejectedExecutionException("stopping");
        }, 100);
        TreeSet<DecoratedKey> expected = new TreeSet<>();
        for (int i = 0; i < 350; i++) insertNew(memtable, expected);
        assertEquals(3, refused.get(), "one try per batch");
        assertEquals(350, memtable.pendingCount());
        assertEquals(List.copyOf(expected), scan(memtable, start()), "the scan merges what the sorter could not fold");
        assertEquals(everyNth(List.copyOf(expected), 10), memtable.sampleKeys(10));
    }

    /** One writer pushes many batches, faster than a real sorter folds them; once it stops, the sorter folds on until less than a batch is left. */
    @Test
    void theSorterFoldsUntilLessThanABatchIsPending() throws Exception {
        int batch = 256;
        ExecutorService sorter = Executors.newSingleThreadExecutor();
        try {
            for (int round = 0; round < 20; round++) {
                Memtable memtable = new Memtable(CF, sorter, batch);
                TreeSet<DecoratedKey> expected = new TreeSet<>();
                // past the writers' own folds by all but one batch and 17 keys, which stay pending without the sorter
                int keys = 3 * batch * Memtable.HELP_AFTER_BATCHES + (Memtable.HELP_AFTER_BATCHES - 1) * batch + 17;
                for (int i = 0; i < keys; i++) insertNew(memtable, expected);
                awaitPendingBelow(memtable, batch);
                assertEquals(List.copyOf(expected), scan(memtable, start()));
            }
        } finally {
            sorter.shutdownNow();
        }
    }

    /**
     * A writer completes a batch while a background fold sorts the keys it took: the writer finds that fold
     * scheduled and queues none, so the fold, once done, must queue the next. The sorter is held until all but
     * one of the batches after which writers fold themselves are pending, then folds them (milliseconds) while
     * this thread pushes one more batch (a fraction of that); without the fold's look at the stack after it,
     * that batch stays pending and this fails.
     */
    @Test
    void aBatchCompletedWhileAFoldRunsIsFoldedAfterIt() throws Exception {
        int batch = Memtable.FOLD_BATCH;
        ExecutorService sorter = Executors.newSingleThreadExecutor();
        try {
            Memtable memtable = new Memtable(CF, sorter, batch);
            TreeSet<DecoratedKey> expected = new TreeSet<>();
            DecoratedKey[] during = new DecoratedKey[batch];
            for (int i = 0; i < batch; i++) during[i] = key("during" + i);
            ColumnFamily row = row("c");
            CountDownLatch hold = new CountDownLatch(1);
            sorter.execute(() -> {
                try {
                    hold.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            int held = (Memtable.HELP_AFTER_BATCHES - 1) * batch;
            for (int i = 0; i < held; i++) insertNew(memtable, expected);
            assertEquals(held, memtable.pendingCount(), "one fold queued behind the held sorter");
            hold.countDown();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (memtable.pendingCount() != 0) {
                if (System.nanoTime() > deadline) throw new AssertionError("the fold never took the stack");
                Thread.onSpinWait();
            }
            for (DecoratedKey k : during) memtable.apply(k, row, 1);
            expected.addAll(List.of(during));
            awaitPendingBelow(memtable, batch);
            assertEquals(List.copyOf(expected), scan(memtable, start()));
        } finally {
            sorter.shutdownNow();
        }
    }

    /**
     * Keys split between the sorted map and the stack, scanned from markers and keys in the middle, come out in
     * ring order, each once; also when a fold puts the pending keys into the sorted map after the scan took its
     * snapshot of them, so that the scan finds them in both.
     */
    @Test
    void aScanFromTheMiddleMergesPendingAndSortedKeysInRingOrderEachOnce() {
        Queue<Runnable> queued = new ArrayDeque<>();
        Memtable memtable = new Memtable(CF, queued::add, 300);
        TreeSet<DecoratedKey> expected = new TreeSet<>();
        for (int i = 0; i < 300; i++) insertNew(memtable, expected);
        queued.remove().run();
        for (int i = 0; i < 300; i++) insertNew(memtable, expected);
        assertEquals(300, memtable.pendingCount(), "half in the sorted map, half pending");
        assertEquals(1, queued.size());
        List<DecoratedKey> all = List.copyOf(expected);
        for (int at : new int[] {0, 1, all.size() / 3, all.size() / 2, all.size() - 1}) {
            DecoratedKey key = all.get(at);
            assertEquals(all.subList(at, all.size()), scan(memtable, DecoratedKey.startOf(key.token())),
                    "from before " + at);
            assertEquals(all.subList(at, all.size()), scan(memtable, key), "from key " + at);
            assertEquals(all.subList(at + 1, all.size()), scan(memtable, DecoratedKey.endOf(key.token())),
                    "from after " + at);
        }

        int third = all.size() / 3;
        Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rows =
                memtable.rowsFrom(DecoratedKey.startOf(all.get(third).token()));
        List<DecoratedKey> scanned = new ArrayList<>();
        scanned.add(rows.next().getKey());
        queued.remove().run(); // the pending keys, in the scan's snapshot, now also in the sorted map behind it
        assertEquals(0, memtable.pendingCount());
        rows.forEachRemaining(e -> scanned.add(e.getKey()));
        assertEquals(all.subList(third, all.size()), scanned, "each key once, in ring order");
    }

    /**
     * Scans and index samples read the pending keys where they are: the stack is as deep after them as before.
     * Keys left pending once writes stop are folded by the sorter, which a scan that finds them as the scan
     * before it did asks to.
     */
    @Test
    void aScanFoldsNothingAndLeavesLeftoverKeysToTheSorter() {
        Queue<Runnable> queued = new ArrayDeque<>();
        Memtable memtable = new Memtable(CF, queued::add, 1000);
        TreeSet<DecoratedKey> expected = new TreeSet<>();
        for (int i = 0; i < 998; i++) insertNew(memtable, expected);
        assertEquals(List.copyOf(expected), scan(memtable, start()));
        insertNew(memtable, expected); // one short of a batch
        assertEquals(0, queued.size());
        List<DecoratedKey> all = List.copyOf(expected);
        assertEquals(all, scan(memtable, start()));
        assertEquals(0, queued.size(), "a scan finding keys pushed since the last scan leaves them: writes go on");
        assertEquals(all.subList(all.size() / 2, all.size()), scan(memtable, all.get(all.size() / 2)));
        assertEquals(1, queued.size(), "the next, finding nothing pushed since, queues a fold");
        assertEquals(everyNth(all, 7), memtable.sampleKeys(7));
        assertEquals(999, memtable.pendingCount(), "no scan folded");
        assertFalse(memtable.foldUnderWay());
        assertEquals(1, queued.size(), "the others found it queued");

        queued.remove().run();
        assertEquals(0, memtable.pendingCount());
        assertEquals(all, scan(memtable, start()));
        assertEquals(0, queued.size(), "nothing pending, nothing queued");
    }

    private static void awaitPendingBelow(Memtable memtable, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (memtable.pendingCount() >= count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("still " + memtable.pendingCount() + " keys pending after 30 s");
            }
            Thread.sleep(1);
        }
    }

    /**
     * Writers insert new keys and publish each one once its write has returned; while they write,
     * one scanner keeps scanning the whole ring, which must hold every key published before the
     * scan began, in ring order, each once, and two keep scanning from the key each writer published
     * last, which must be the scan's first row. Here only a writer folds, every
     * {@value Memtable#HELP_AFTER_BATCHES} batches, and the scans merge up to that many batches pending.
     */
    @Test
    void aScanSeesEveryKeyWrittenBeforeItBegan() throws Exception {
        scanWhileWriting(IDLE, Memtable.FOLD_BATCH);
    }

    /** The same with a sorter folding every 64 keys in the background while the scans run. */
    @Test
    void aScanRacingBackgroundFoldsSeesEveryKeyWrittenBeforeItBeganInRingOrder() throws Exception {
        ExecutorService sorter = Executors.newSingleThreadExecutor();
        try {
            scanWhileWriting(sorter, 64);
        } finally {
            sorter.shutdownNow();
        }
    }

    /**
     * Scans that begin while a fold has a batch off the stack and not yet all in the sorted map: the writers
     * outrun the sorter, so it folds back to back, batches of 256 keys and more, and a scan must find the keys
     * of the batch under way where the fold published them. Without that (a scan reading the stack and the
     * sorted map only), the whole-ring scans miss keys of such a batch within a round. Some scans must have
     * begun during a fold for this to say anything.
     */
    @Test
    void aScanDuringAFoldSeesEveryAcknowledgedKey() throws Exception {
        ExecutorService sorter = Executors.newSingleThreadExecutor();
        try {
            long duringAFold = scanWhileWriting(sorter, 256);
            assertTrue(duringAFold > 0, "no scan began while a fold was under way");
        } finally {
            sorter.shutdownNow();
        }
    }

    /** @return how many scans began while a fold was under way */
    private long scanWhileWriting(Executor sorter, int foldBatch) throws Exception {
        int writers = 2;
        int scanners = 3;
        int keysPerWriter = 20_000;
        DecoratedKey[][] keys = new DecoratedKey[writers][keysPerWriter];
        for (int w = 0; w < writers; w++) {
            for (int i = 0; i < keysPerWriter; i++) keys[w][i] = key("w" + w + "-" + i);
        }
        AtomicLong duringAFold = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(writers + scanners);
        try {
            for (int round = 0; round < 5; round++) {
                Memtable memtable = new Memtable(CF, sorter, foldBatch);
                AtomicIntegerArray acknowledged = new AtomicIntegerArray(writers);
                AtomicInteger writing = new AtomicInteger(writers);
                AtomicLong checks = new AtomicLong();
                List<Future<?>> done = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    int writer = w;
                    done.add(pool.submit(() -> {
                        for (int i = 0; i < keysPerWriter; i++) {
                            memtable.apply(keys[writer][i], row("c"), 1);
                            acknowledged.set(writer, i + 1);
                        }
                        writing.decrementAndGet();
                    }));
                }
                for (int s = 0; s < scanners; s++) {
                    boolean whole = s == 0;
                    done.add(pool.submit(() -> {
                        while (writing.get() > 0) {
                            if (memtable.foldUnderWay()) duringAFold.incrementAndGet();
                            if (whole) {
                                checkWholeScan(memtable, keys, acknowledged);
                            } else {
                                checkScanFromLatest(memtable, keys, acknowledged);
                            }
                            checks.incrementAndGet();
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) f.get(120, TimeUnit.SECONDS);
                assertTrue(checks.get() > 0, "the scans ran while the writers wrote");
                assertEquals(writers * keysPerWriter, scan(memtable, start()).size());
            }
        } finally {
            pool.shutdownNow();
        }
        return duringAFold.get();
    }

    /** A scan of the whole ring holds every key published before it began. */
    private void checkWholeScan(Memtable memtable, DecoratedKey[][] keys, AtomicIntegerArray acknowledged) {
        int[] counts = new int[keys.length];
        for (int w = 0; w < keys.length; w++) counts[w] = acknowledged.get(w);
        List<DecoratedKey> scanned = scan(memtable, start());
        for (int i = 1; i < scanned.size(); i++) {
            if (scanned.get(i - 1).compareTo(scanned.get(i)) >= 0) {
                throw new AssertionError("out of ring order: " + scanned.get(i - 1).key() + " before "
                        + scanned.get(i).key());
            }
        }
        Set<DecoratedKey> seen = new HashSet<>(scanned);
        for (int w = 0; w < keys.length; w++) {
            for (int i = 0; i < counts[w]; i++) {
                if (!seen.contains(keys[w][i])) {
                    throw new AssertionError("a scan of the whole ring misses " + keys[w][i].key()
                            + ", written before it began");
                }
            }
        }
    }

    /** A scan from the key each writer published last starts with that key. */
    private void checkScanFromLatest(Memtable memtable, DecoratedKey[][] keys, AtomicIntegerArray acknowledged) {
        for (int w = 0; w < keys.length; w++) {
            int count = acknowledged.get(w);
            if (count == 0) continue;
            DecoratedKey last = keys[w][count - 1];
            Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rows = memtable.rowsFrom(last);
            DecoratedKey first = rows.hasNext() ? rows.next().getKey() : null;
            if (!last.equals(first)) {
                throw new AssertionError("a scan from " + last.key() + ", written before it began, starts at "
                        + (first == null ? "the end" : first.key()));
            }
        }
    }

    private DecoratedKey start() {
        return DecoratedKey.startOf(partitioner.getMinimumToken());
    }

    /** Writes a row under a random key new to the memtable and to {@code written}. */
    private void insertNew(Memtable memtable, TreeSet<DecoratedKey> written) {
        DecoratedKey key;
        do {
            key = key("k" + random.nextInt(1_000_000_000));
        } while (!written.add(key));
        memtable.apply(key, row("c"), 1);
    }

    private static List<DecoratedKey> scan(Memtable memtable, DecoratedKey from) {
        List<DecoratedKey> keys = new ArrayList<>();
        memtable.rowsFrom(from).forEachRemaining(e -> keys.add(e.getKey()));
        return keys;
    }

    private static List<DecoratedKey> everyNth(List<DecoratedKey> keys, int n) {
        List<DecoratedKey> samples = new ArrayList<>();
        for (int i = 0; i < keys.size(); i += n) samples.add(keys.get(i));
        return samples;
    }

    private DecoratedKey key(String key) {
        return partitioner.decorateKey(key);
    }

    private static ColumnFamily row(String column) {
        return ColumnFamily.empty(CF).withCell(
                Column.live(column.getBytes(StandardCharsets.UTF_8), new byte[] {1}, 1));
    }
}
