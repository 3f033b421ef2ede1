package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.engine.EngineFixture.KS;
import static sibyl.engine.EngineFixture.STD;
import static sibyl.engine.EngineFixture.b;

import ch.qos.logback.classic.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CacheCapacity;
import sibyl.db.CacheConfig;
import sibyl.db.Cell;
import sibyl.db.ColumnSelection;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.dht.DecoratedKey;
import sibyl.dht.RandomPartitioner;
import sibyl.io.SavedCacheFile;
import sibyl.io.SavedCacheFile.Kind;
import sibyl.testing.LogCapture;

/**
 * Key and row caches saved by one run fill the caches of the next before its first read;
 * PreloadRowCache fills the row cache from the rows; nothing saved that cannot be used stops a start.
 */
class SavedCachesTest {
    private static final Duration HOUR = Duration.ofHours(1);

    @TempDir
    Path dir;

    private Path caches() {
        return dir.resolve("saved_caches");
    }

    private LocalStorageService open(CacheConfig standard1) throws Exception {
        EngineFixture.Settings options = EngineFixture.options(dir, 64L << 20, 864000, 256);
        return LocalStorageService.open(new RandomPartitioner(),
                EngineFixture.schema(cf -> cf.name().equals(STD) ? cf.withCaches(standard1) : cf), options.log(),
                options.engine().toBuilder().savedCachesDirectory(caches()).build());
    }

    private static CacheConfig sized(int keys, int rows) {
        return CacheConfig.sized(CacheCapacity.entries(keys), CacheCapacity.entries(rows));
    }

    private static void write(LocalStorageService db, int from, int to, String column) {
        for (int i = from; i < to; i++) {
            db.apply(RowMutation.builder(KS, "k" + i).write(STD, b(column), b(column + i), i).build());
        }
    }

    private static String read(LocalStorageService db, int key) {
        StringBuilder s = new StringBuilder("k" + key + ":");
        for (Cell c : db.getSlice(KS, "k" + key, QueryPath.cf(STD), ColumnSelection.all())) {
            s.append(' ').append(EngineFixture.describe(c));
        }
        return s.toString();
    }

    private static Set<String> keys(List<DecoratedKey> keys) {
        Set<String> set = new HashSet<>();
        for (DecoratedKey k : keys) set.add(k.key());
        return set;
    }

    private static Set<String> range(int from, int to) {
        Set<String> set = new HashSet<>();
        for (int i = from; i < to; i++) set.add("k" + i);
        return set;
    }

    @Test
    void aRestartHoldsTheSavedKeysInBothCachesBeforeItsFirstRead() throws Exception {
        CacheConfig config = sized(1000, 1000).savedEvery(HOUR, HOUR);
        List<String> before = new ArrayList<>();
        try (LocalStorageService db = open(config)) {
            write(db, 0, 100, "a");
            db.forceFlush(KS);
            write(db, 50, 150, "b"); // k50..k99 in the SSTable and the commit log, k100.. in the log alone
            for (int i = 0; i < 150; i += 3) before.add(read(db, i)); // every third key
            assertEquals(range(0, 150).stream().filter(k -> Integer.parseInt(k.substring(1)) % 3 == 0).count(),
                    EngineFixture.store(db, STD).rowCache().size());
            assertEquals(2, db.saveCaches(), "a key cache and a row cache");
        }
        Set<String> rowKeys = new HashSet<>();
        for (int i = 0; i < 150; i += 3) rowKeys.add("k" + i);
        Set<String> sstableKeys = new HashSet<>();
        for (int i = 0; i < 100; i += 3) sstableKeys.add("k" + i);
        try (LocalStorageService db = open(config)) {
            ColumnFamilyStore store = EngineFixture.store(db, STD);
            assertEquals(rowKeys, keys(store.rowCache().keys()), "the row cache before any read");
            assertEquals(sstableKeys, keys(store.keyCache().keys()), "the key cache before any read: keys in SSTables");
            List<String> after = new ArrayList<>();
            for (int i = 0; i < 150; i += 3) after.add(read(db, i));
            assertEquals(before, after);
            assertEquals(1.0, store.rowCache().hitRate(), "every read a row cache hit");
        }
    }

    @Test
    void aRestartedKeyCacheServesReadsWithoutIndexReads() throws Exception {
        CacheConfig config = sized(1000, 0).savedEvery(HOUR, Duration.ZERO);
        try (LocalStorageService db = open(config)) {
            write(db, 0, 200, "a");
            db.forceFlush(KS);
            for (int i = 0; i < 200; i += 2) read(db, i);
            assertEquals(1, db.saveCaches());
        }
        assertFalse(Files.exists(SavedCacheFile.path(caches(), KS, STD, Kind.ROWS)), "a row cache without a period is not saved");
        try (LocalStorageService db = open(config)) {
            ColumnFamilyStore store = EngineFixture.store(db, STD);
            assertEquals(100, store.keyCache().size());
            long index = store.liveSSTables().get(0).indexBytesRead();
            for (int i = 0; i < 200; i += 2) assertEquals("k" + i + ": a=a" + i + "@" + i, read(db, i));
            assertEquals(index, store.liveSSTables().get(0).indexBytesRead(), "no index read for a saved key");
            assertEquals(1.0, store.keyCache().hitRate());
        }
    }

    @Test
    void keysOfRowsThatNoLongerExistArePassedOver() throws Exception {
        CacheConfig config = sized(1000, 1000);
        try (LocalStorageService db = open(config)) {
            write(db, 0, 10, "a");
            db.forceFlush(KS);
        }
        List<String> saved = List.of("k1", "gone1", "k2", "gone2", "k3");
        SavedCacheFile.write(caches(), KS, STD, Kind.KEYS, saved);
        SavedCacheFile.write(caches(), KS, STD, Kind.ROWS, saved);
        try (LocalStorageService db = open(config)) {
            assertEquals(Set.of("k1", "k2", "k3"), keys(EngineFixture.store(db, STD).keyCache().keys()));
            assertEquals(Set.of("k1", "k2", "k3"), keys(EngineFixture.store(db, STD).rowCache().keys()));
            assertEquals("k2: a=a2@2", read(db, 2));
        }
    }

    @Test
    void aDamagedSavedCacheIsIgnoredWithOneLineAndTheNodeStartsCold() throws Exception {
        CacheConfig config = sized(1000, 1000);
        try (LocalStorageService db = open(config)) {
            write(db, 0, 10, "a");
            db.forceFlush(KS);
        }
        SavedCacheFile.write(caches(), KS, STD, Kind.KEYS, List.of("k1", "k2"));
        SavedCacheFile.write(caches(), KS, STD, Kind.ROWS, List.of("k1", "k2"));
        Path keyFile = SavedCacheFile.path(caches(), KS, STD, Kind.KEYS);
        Path rowFile = SavedCacheFile.path(caches(), KS, STD, Kind.ROWS);
        byte[] rows = Files.readAllBytes(rowFile);
        Files.write(rowFile, java.util.Arrays.copyOf(rows, rows.length - 3)); // torn
        byte[] keys = Files.readAllBytes(keyFile);
        keys[7] = 9; // version 9
        Files.write(keyFile, keys);
        try (LogCapture log = new LogCapture("sibyl.engine.SavedCaches"); LocalStorageService db = open(config)) {
            assertEquals(0, EngineFixture.store(db, STD).keyCache().size());
            assertEquals(0, EngineFixture.store(db, STD).rowCache().size());
            List<String> warnings = log.messages(Level.WARN);
            assertEquals(2, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).contains(rowFile.toString()) && warnings.get(0).contains("truncated"), warnings.get(0));
            assertTrue(warnings.get(1).contains(keyFile.toString()) && warnings.get(1).contains("version 9"), warnings.get(1));
            assertEquals("k1: a=a1@1", read(db, 1));
        }
    }

    @Test
    void preloadRowCacheFillsTheRowCacheFromTheRowsUpToItsCapacity() throws Exception {
        CacheConfig config = sized(0, 40).withPreloadRows(true);
        List<String> expected = new ArrayList<>();
        try (LocalStorageService db = open(config)) {
            write(db, 0, 60, "a");
            db.forceFlush(KS);
            write(db, 30, 100, "b"); // left to replay, so preloaded rows merge SSTable and commit log
            for (int i = 0; i < 100; i++) expected.add(read(db, i));
        }
        try (LocalStorageService db = open(config)) {
            ColumnFamilyStore store = EngineFixture.store(db, STD);
            assertEquals(40, store.rowCache().size(), "filled to its capacity before any read");
            List<DecoratedKey> cached = store.rowCache().keys();
            for (DecoratedKey key : cached) {
                int i = Integer.parseInt(key.key().substring(1));
                assertEquals(expected.get(i), read(db, i));
            }
            assertEquals(1.0, store.rowCache().hitRate(), "each read of a preloaded key a hit");
            // Preloading takes the first rows of the ring.
            List<DecoratedKey> all = new ArrayList<>();
            for (int i = 0; i < 100; i++) all.add(new RandomPartitioner().decorateKey("k" + i));
            all.sort(null);
            assertEquals(new HashSet<>(all.subList(0, 40)), new HashSet<>(cached));
        }
    }

    @Test
    void drainAndACleanShutdownSaveTheCachesThatHaveAPeriod() throws Exception {
        CacheConfig config = sized(1000, 1000).savedEvery(HOUR, HOUR);
        Path keyFile = SavedCacheFile.path(caches(), KS, STD, Kind.KEYS);
        Path rowFile = SavedCacheFile.path(caches(), KS, STD, Kind.ROWS);
        try (LocalStorageService db = open(config)) {
            write(db, 0, 10, "a");
            db.forceFlush(KS);
            read(db, 1);
            db.drain();
            assertEquals(List.of("k1"), SavedCacheFile.read(caches(), KS, STD, Kind.ROWS, 100).orElseThrow());
            read(db, 2);
        }
        assertEquals(Set.of("k1", "k2"), new HashSet<>(SavedCacheFile.read(caches(), KS, STD, Kind.ROWS, 100).orElseThrow()));
        assertEquals(Set.of("k1", "k2"), new HashSet<>(SavedCacheFile.read(caches(), KS, STD, Kind.KEYS, 100).orElseThrow()));
        assertTrue(Files.exists(keyFile) && Files.exists(rowFile));
    }

    @Test
    void theSavePeriodSavesWithoutBeingAsked() throws Exception {
        CacheConfig config = sized(1000, 0).savedEvery(Duration.ofMillis(50), Duration.ZERO);
        Path keyFile = SavedCacheFile.path(caches(), KS, STD, Kind.KEYS);
        try (LocalStorageService db = open(config)) {
            write(db, 0, 10, "a");
            db.forceFlush(KS);
            read(db, 4);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            // Polls for the timer's effect; a slow machine only makes this take longer.
            while (!Files.exists(keyFile) && System.nanoTime() < deadline) Thread.sleep(10);
            assertTrue(Files.exists(keyFile), "saved within 30 s at a period of 50 ms");
        }
    }
}
