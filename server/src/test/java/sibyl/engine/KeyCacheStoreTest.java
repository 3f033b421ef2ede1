package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.engine.EngineFixture.KS;
import static sibyl.engine.EngineFixture.STD;
import static sibyl.engine.EngineFixture.b;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.config.CacheSize;
import sibyl.db.CacheCapacity;
import sibyl.db.CacheConfig;
import sibyl.db.Cell;
import sibyl.db.ColumnSelection;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.dht.RandomPartitioner;
import sibyl.io.SSTableReader;

/** The key cache of a store: sized by its keys, and carried over, not fooled, when a compaction replaces SSTables. */
class KeyCacheStoreTest {
    @TempDir
    Path dir;

    private LocalStorageService open(CacheCapacity keys) throws Exception {
        EngineFixture.Settings options = EngineFixture.options(dir, 64L << 20, 864000, 256);
        CacheConfig caches = CacheConfig.sized(keys, CacheCapacity.NONE);
        return LocalStorageService.open(new RandomPartitioner(), EngineFixture.schema(cf -> cf.withCaches(caches)),
                options.log(), options.engine());
    }

    private static void write(LocalStorageService db, int from, int to, String column, String value) {
        for (int i = from; i < to; i++) {
            db.apply(RowMutation.builder(KS, "k" + i).write(STD, b(column), b(value + i), 1).build());
        }
    }

    /** Every row of keys k0..k{n-1} by point reads, as text. */
    private static String readAll(LocalStorageService db, int n) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < n; i++) {
            s.append("k").append(i).append(':');
            for (Cell c : db.getSlice(KS, "k" + i, QueryPath.cf(STD), ColumnSelection.all())) {
                s.append(' ').append(EngineFixture.describe(c));
            }
            s.append('\n');
        }
        return s.toString();
    }

    @Test
    void aFractionOfTheKeysFollowsTheSSTablesAsFlushesAndCompactionsChangeThem() throws Exception {
        try (LocalStorageService db = open(CacheSize.ofFraction(0.5)::entriesFor)) {
            ColumnFamilyStore store = EngineFixture.store(db, STD);
            assertEquals(0, store.keyCache().capacity(), "no keys yet");
            write(db, 0, 100, "a", "v");
            db.forceFlush(KS, STD);
            assertEquals(50, store.keyCache().capacity());
            write(db, 100, 300, "a", "v");
            db.forceFlush(KS, STD);
            assertEquals(150, store.keyCache().capacity());
            readAll(db, 300);
            assertEquals(150, store.keyCache().size(), "filled up to its capacity, no further");
            write(db, 0, 300, "b", "w"); // the same keys again: a compaction merges them
            db.forceFlush(KS, STD);
            assertEquals(300, store.keyCache().capacity());
            db.forceMajorCompaction(KS);
            assertEquals(1, store.liveSSTables().size());
            assertEquals(150, store.keyCache().capacity(), "half of the 300 keys of the one SSTable left");
        }
    }

    @Test
    void aCompactionCarriesCachedKeysOverToItsOutputAndDropsTheReplacedSSTablesEntries() throws Exception {
        try (LocalStorageService db = open(CacheCapacity.entries(10_000))) {
            ColumnFamilyStore store = EngineFixture.store(db, STD);
            write(db, 0, 200, "a", "first");
            db.forceFlush(KS, STD);
            write(db, 0, 200, "b", "second-version-with-a-longer-value");
            db.forceFlush(KS, STD);
            write(db, 200, 300, "a", "uncached");
            db.forceFlush(KS, STD);
            String before = readAll(db, 200); // k200..k299 are not read, so not cached
            assertEquals(400, store.keyCache().size(), "each key read once per SSTable holding it");
            // Not the third SSTable: its bloom filter lets a few of the keys it lacks through to its index.
            List<SSTableReader> holding = store.liveSSTables().subList(0, 2);
            long index = holding.get(0).indexBytesRead() + holding.get(1).indexBytesRead();
            assertEquals(before, readAll(db, 200));
            assertEquals(index, holding.get(0).indexBytesRead() + holding.get(1).indexBytesRead(),
                    "every read served from the key cache");

            db.forceMajorCompaction(KS);
            assertEquals(1, store.liveSSTables().size());
            // The merged rows lie elsewhere in the new SSTable: an old position would misread or fail.
            assertEquals(200, store.keyCache().size(), "the 200 keys, now for the new SSTable alone");
            SSTableReader compacted = store.liveSSTables().get(0);
            index = compacted.indexBytesRead();
            assertEquals(before, readAll(db, 200));
            assertEquals(index, compacted.indexBytesRead(), "served by the carried-over entries");
            String all = readAll(db, 300);
            assertEquals("k250: a=uncached250@1\n", all.substring(all.indexOf("k250:"), all.indexOf("k251:")));
            assertTrue(compacted.indexBytesRead() > index, "keys not cached before are looked up in the index");
        }
    }

    @Test
    void theCacheKeepsItsCapacityUnderManyKeys() throws Exception {
        try (LocalStorageService db = open(CacheCapacity.entries(64))) {
            ColumnFamilyStore store = EngineFixture.store(db, STD);
            write(db, 0, 1000, "a", "v");
            db.forceFlush(KS, STD);
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 1000; i++) expected.add("a=v" + i + "@1");
            for (int i = 0; i < 1000; i++) {
                List<Cell> row = db.getSlice(KS, "k" + i, QueryPath.cf(STD), ColumnSelection.all());
                assertEquals(expected.get(i), EngineFixture.describe(row.get(0)));
                assertTrue(store.keyCache().size() <= 64, "size " + store.keyCache().size());
            }
            assertEquals(64, store.keyCache().size());
        }
    }
}
