package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.engine.EngineFixture.KS;
import static sibyl.engine.EngineFixture.STD;
import static sibyl.engine.EngineFixture.b;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import sibyl.db.CacheCapacity;
import sibyl.db.CacheConfig;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnSelection;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.dht.RandomPartitioner;
import sibyl.io.FileAccess;

/**
 * Writers, readers, automatic and forced flushes and compactions all at once: no reader ever
 * sees less than was acknowledged before its read began, and in the end the store equals the model.
 */
class ConcurrentFlushTest {
    /** The last operation on one column: its timestamp, and whether it deleted. */
    private record Op(long timestamp, boolean delete) {
    }

    @TempDir
    Path dir;

    /**
     * @param rowCache rows the row cache holds; 0 for none (reads then go to memtables and SSTables every time)
     * @param keyCache keys the key cache holds: fewer than the 120 written, so it evicts too
     * @param mapped   whether SSTables are read through memory mappings, which compaction releases
     *                 while readers run: a read of an unmapped file would crash the JVM, not fail a test
     */
    @ParameterizedTest(name = "row cache {0}, key cache {1}, mapped {2}")
    @CsvSource({"0, 0, false", "0, 50, false", "40, 50, false", "0, 50, true"})
    void readsDuringFlushesAndCompactionsSeeEverythingAcknowledged(int rowCache, int keyCache, boolean mapped)
            throws Exception {
        long seed = Long.getLong("sibyl.seed", System.nanoTime());
        System.out.println("ConcurrentFlushTest seed " + seed);
        int writers = 3;
        int readers = 2;
        int keysPerWriter = 40;
        int columns = 20;
        Map<String, Op> model = new ConcurrentHashMap<>(); // acknowledged
        Map<String, Op> begun = new ConcurrentHashMap<>(); // handed to apply, perhaps not yet acknowledged
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong reads = new AtomicLong();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(writers + readers + 1);
        // 64 KB memtables: flushes happen on their own too.
        EngineFixture.Settings options = EngineFixture.options(dir, 64 << 10, 864000, 512);
        EngineSettings settings = options.engine().toBuilder()
                .fileAccess(mapped ? FileAccess.MMAP : FileAccess.STANDARD).build();
        CacheConfig caches = CacheConfig.sized(CacheCapacity.entries(keyCache), CacheCapacity.entries(rowCache));
        try (LocalStorageService db = LocalStorageService.open(new RandomPartitioner(),
                EngineFixture.schema(cf -> cf.name().equals(STD) ? cf.withCaches(caches) : cf), options.log(), settings)) {
            List<Future<?>> writerTasks = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                writerTasks.add(pool.submit(() -> {
                    Random random = new Random(seed + writer);
                    start.await();
                    // Each writer owns its keys, so its model entries are written by it alone.
                    for (long ts = 1; ts <= 4000; ts++) {
                        String key = "w" + writer + "k" + random.nextInt(keysPerWriter);
                        String col = "c" + random.nextInt(columns);
                        boolean delete = random.nextInt(5) == 0;
                        RowMutation.Builder m = RowMutation.builder(KS, key);
                        if (delete) m.deleteColumn(STD, b(col), ts);
                        else m.write(STD, b(col), b("v" + ts), ts);
                        begun.put(key + "/" + col, new Op(ts, delete));
                        db.apply(m.build());
                        model.put(key + "/" + col, new Op(ts, delete));
                    }
                    return null;
                }));
            }
            List<Future<?>> readerTasks = new ArrayList<>();
            for (int r = 0; r < readers; r++) {
                int reader = r;
                readerTasks.add(pool.submit(() -> {
                    Random random = new Random(seed * 31 + reader);
                    start.await();
                    while (writing.get()) {
                        String key = "w" + random.nextInt(writers) + "k" + random.nextInt(keysPerWriter);
                        String col = "c" + random.nextInt(columns);
                        Op before = model.get(key + "/" + col);
                        Optional<Cell> read = random.nextBoolean()
                                ? db.get(KS, key, QueryPath.column(STD, b(col)))
                                : db.getSlice(KS, key, QueryPath.cf(STD), ColumnSelection.names(b(col))).stream().findFirst();
                        Op after = begun.get(key + "/" + col);
                        check(key + "/" + col, before, read, after);
                        reads.incrementAndGet();
                    }
                    return null;
                }));
            }
            Future<?> flusher = pool.submit(() -> {
                start.await();
                int round = 0;
                while (writing.get()) {
                    db.forceFlush(KS, STD);
                    if (++round % 5 == 0) db.forceMajorCompaction(KS);
                }
                return null;
            });
            start.countDown();
            for (Future<?> f : writerTasks) f.get(120, TimeUnit.SECONDS);
            writing.set(false);
            for (Future<?> f : readerTasks) f.get(60, TimeUnit.SECONDS);
            flusher.get(60, TimeUnit.SECONDS);
            assertTrue(reads.get() > 100, "readers ran: " + reads.get());
            if (rowCache > 0) {
                double hitRate = db.openKeyspaces().stream().filter(k -> k.name().equals(KS)).findFirst().orElseThrow()
                        .store(STD).rowCache().hitRate();
                assertTrue(hitRate > 0, "the row cache served reads: " + hitRate);
            }
            if (keyCache > 0 && rowCache == 0) {
                long hits = db.openKeyspaces().stream().filter(k -> k.name().equals(KS)).findFirst().orElseThrow()
                        .store(STD).keyCache().hits();
                assertTrue(hits > 0, "the key cache served reads: " + hits);
            }
            assertTrue(db.openKeyspaces().stream().filter(k -> k.name().equals(KS)).findFirst().orElseThrow()
                    .store(STD).memtableSwitchCount() > 5);
            assertEquals(expected(model), actual(db), "seed " + seed);
            db.forceFlush(KS);
            db.forceMajorCompaction(KS);
            assertEquals(expected(model), actual(db), "seed " + seed + ", after a final flush and compaction");
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * @param before the last acknowledged operation when the read began
     * @param after  the last operation begun when the read ended
     */
    private static void check(String what, Op before, Optional<Cell> read, Op after) {
        if (read.isPresent()) {
            long ts = ((Column) read.get()).timestamp();
            if (before != null && ts < before.timestamp()) {
                throw new AssertionError(what + ": read version " + ts + " older than the acknowledged " + before);
            }
            if (after == null || ts > after.timestamp()) throw new AssertionError(what + ": read " + ts + " never written");
        } else if (before != null && !before.delete() && after.timestamp() == before.timestamp()) {
            throw new AssertionError(what + ": acknowledged write " + before + " not seen");
        }
    }

    private static String expected(Map<String, Op> model) {
        Map<String, List<String>> rows = new java.util.TreeMap<>();
        model.forEach((keyCol, op) -> {
            String[] kc = keyCol.split("/");
            List<String> cols = rows.computeIfAbsent(kc[0], k -> new ArrayList<>());
            if (!op.delete()) cols.add(kc[1] + "@" + op.timestamp());
        });
        StringBuilder s = new StringBuilder();
        rows.forEach((k, cols) -> {
            cols.sort(null);
            s.append(k).append(cols).append('\n');
        });
        return s.toString();
    }

    private static String actual(LocalStorageService db) {
        Map<String, List<String>> rows = new java.util.TreeMap<>();
        for (RowSlice row : db.getRangeSlice(KS, QueryPath.cf(STD), ColumnSelection.all(), new RowRange.Keys("", ""), 100_000)) {
            List<String> cols = new ArrayList<>();
            for (Cell c : row.cells()) cols.add(new String(c.name(), StandardCharsets.UTF_8) + "@" + ((Column) c).timestamp());
            cols.sort(null);
            rows.put(row.key(), cols);
        }
        StringBuilder s = new StringBuilder();
        rows.forEach((k, cols) -> s.append(k).append(cols).append('\n'));
        return s.toString();
    }
}
