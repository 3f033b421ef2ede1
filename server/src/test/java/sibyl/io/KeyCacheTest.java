package sibyl.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CFMetaData;
import sibyl.db.ColumnSelection;
import sibyl.db.marshal.BytesType;
import sibyl.dht.DecoratedKey;
import sibyl.dht.RandomPartitioner;
import sibyl.engine.Memtable;
import sibyl.testing.OnThreads;

/** Point reads of cached keys read no index; the cache stays within its capacity and forgets closed SSTables. */
class KeyCacheTest {
    @TempDir
    Path dir;

    private final RandomPartitioner partitioner = new RandomPartitioner();
    private final CFMetaData cf = SSTableFixtures.standard(BytesType.instance);

    /** An SSTable of random rows (index interval 4, so a stretch holds several entries) and its keys. */
    private SSTableReader open(int generation, long seed, KeyCache cache, List<DecoratedKey> keys) throws IOException {
        Memtable memtable = SSTableFixtures.randomMemtable(cf, partitioner, new Random(seed), 300, 6);
        var rows = memtable.rowsFrom(DecoratedKey.startOf(partitioner.getMinimumToken()));
        while (rows.hasNext()) keys.add(rows.next().getKey());
        return SSTableReader.open(SSTableFixtures.write(dir, generation, memtable, partitioner, 128), cf, partitioner, 4,
                cache);
    }

    @Test
    void aCachedKeyIsReadWithoutTheIndex() throws IOException {
        KeyCache cache = new KeyCache(1000);
        List<DecoratedKey> keys = new ArrayList<>();
        SSTableReader sstable = open(1, 1, cache, keys);
        SSTableReader uncached = SSTableReader.open(sstable.descriptor(), cf, partitioner, 4);
        try {
            for (DecoratedKey key : keys) {
                long index = sstable.indexBytesRead();
                String first = SSTableFixtures.render(sstable.getRow(key));
                assertTrue(sstable.indexBytesRead() > index, "a miss reads the index");
                index = sstable.indexBytesRead();
                assertEquals(first, SSTableFixtures.render(sstable.getRow(key)));
                assertEquals(SSTableFixtures.render(uncached.getRow(key)),
                        SSTableFixtures.render(sstable.readSlice(key, ColumnSelection.all())));
                CellCursor cursor = sstable.cellsFrom(key, new byte[0], false);
                while (cursor != null && cursor.hasNext()) cursor.next();
                assertEquals(index, sstable.indexBytesRead(), "hits read no index: " + key);
            }
            assertEquals(keys.size(), cache.size());
            assertEquals(keys.size() * 4L, cache.requests());
            assertEquals(keys.size() * 3L, cache.hits());
        } finally {
            uncached.release();
            sstable.release();
        }
    }

    @Test
    void keysAnSSTableDoesNotHoldAreNotCached() throws IOException {
        KeyCache cache = new KeyCache(1000);
        SSTableReader sstable = open(1, 2, cache, new ArrayList<>());
        try {
            for (int i = 0; i < 500; i++) assertNull(sstable.getRow(partitioner.decorateKey("absent" + i)));
            assertEquals(0, cache.size());
        } finally {
            sstable.release();
        }
    }

    @Test
    void theCacheHoldsAtMostItsCapacityAndAKeyReadOftenStays() throws IOException {
        KeyCache cache = new KeyCache(16);
        List<DecoratedKey> keys = new ArrayList<>();
        SSTableReader sstable = open(1, 3, cache, keys);
        try {
            DecoratedKey hot = keys.get(0);
            sstable.getRow(hot);
            for (DecoratedKey key : keys.subList(1, keys.size())) {
                sstable.getRow(key);
                sstable.getRow(hot);
                assertTrue(cache.size() <= 16, "size " + cache.size());
            }
            long index = sstable.indexBytesRead();
            sstable.getRow(hot);
            assertEquals(index, sstable.indexBytesRead(), "the key read between every other one is still cached");
            assertEquals(16, cache.size());
        } finally {
            sstable.release();
        }
    }

    @Test
    void threadsPuttingManyMoreKeysThanFitLeaveItExactlyFull() throws Exception {
        KeyCache cache = new KeyCache(100);
        int threads = 4;
        int keysEach = 20_000;
        OnThreads.run(threads, Duration.ofSeconds(60), thread -> {
            for (int i = 0; i < keysEach; i++) {
                DecoratedKey key = partitioner.decorateKey("k" + thread + "-" + i);
                cache.put(1, key, new IndexEntry(key.key(), i, 10, i));
            }
        });
        // Every put that went beyond the capacity swept back down to it under the lock: none too many was kept, and
        // none too many evicted.
        assertEquals(100, cache.size());
    }

    @Test
    void aSmallerCapacityEvictsAtOnceAndZeroTurnsTheCacheOff() throws IOException {
        KeyCache cache = new KeyCache(100);
        List<DecoratedKey> keys = new ArrayList<>();
        SSTableReader sstable = open(1, 4, cache, keys);
        try {
            for (DecoratedKey key : keys) sstable.getRow(key);
            assertEquals(100, cache.size());
            cache.setCapacity(10);
            assertEquals(10, cache.size());
            cache.setCapacity(0);
            assertEquals(0, cache.size());
            long requests = cache.requests();
            long index = sstable.indexBytesRead();
            sstable.getRow(keys.get(0));
            sstable.getRow(keys.get(0));
            assertTrue(sstable.indexBytesRead() > index, "an off cache serves nothing");
            assertEquals(0, cache.size());
            assertEquals(requests, cache.requests(), "and counts nothing");
        } finally {
            sstable.release();
        }
    }

    @Test
    void theEntriesOfAClosedSSTableAreDroppedAndOthersKept() throws IOException {
        KeyCache cache = new KeyCache(10_000);
        List<DecoratedKey> firstKeys = new ArrayList<>();
        List<DecoratedKey> secondKeys = new ArrayList<>();
        SSTableReader first = open(1, 5, cache, firstKeys);
        SSTableReader second = open(2, 6, cache, secondKeys);
        try {
            for (DecoratedKey key : firstKeys) first.getRow(key);
            for (DecoratedKey key : secondKeys) second.getRow(key);
            assertEquals(firstKeys.size() + secondKeys.size(), cache.size());
            first.markObsolete();
            first.release();
            first = null;
            assertEquals(secondKeys.size(), cache.size());
            long index = second.indexBytesRead();
            for (DecoratedKey key : secondKeys) second.getRow(key);
            assertEquals(index, second.indexBytesRead());
        } finally {
            if (first != null) first.release();
            second.release();
        }
    }

    @Test
    void cacheKeysLoadsTheKeysHeldReadingEachIndexStretchOnce() throws IOException {
        KeyCache cache = new KeyCache(10_000);
        List<DecoratedKey> keys = new ArrayList<>();
        SSTableReader sstable = open(1, 7, cache, keys);
        SSTableReader plain = SSTableReader.open(sstable.descriptor(), cf, partitioner, 4);
        try {
            List<DecoratedKey> wanted = new ArrayList<>();
            for (int i = 0; i < keys.size(); i += 2) wanted.add(keys.get(i));
            List<DecoratedKey> asked = new ArrayList<>(wanted);
            for (int i = 0; i < 50; i++) asked.add(partitioner.decorateKey("absent" + i));
            asked.sort(null);
            long opened = sstable.indexBytesRead(); // opening scanned the index: the writer sampled another interval
            assertEquals(wanted.size(), sstable.cacheKeys(asked));
            assertEquals(wanted.size(), cache.size());
            assertTrue(sstable.indexBytesRead() - opened <= sstable.statistics().indexLength(),
                    "no stretch read twice: " + (sstable.indexBytesRead() - opened));
            long index = sstable.indexBytesRead();
            for (DecoratedKey key : wanted) {
                assertEquals(SSTableFixtures.render(plain.getRow(key)), SSTableFixtures.render(sstable.getRow(key)));
            }
            assertEquals(index, sstable.indexBytesRead());
        } finally {
            plain.release();
            sstable.release();
        }
    }

    @Test
    void concurrentReadersWhileTheCacheEvictsReadEveryRowRight() throws Exception {
        KeyCache cache = new KeyCache(32);
        List<DecoratedKey> keys = new ArrayList<>();
        SSTableReader sstable = open(1, 9, cache, keys);
        SSTableReader plain = SSTableReader.open(sstable.descriptor(), cf, partitioner, 4);
        try {
            List<String> expected = new ArrayList<>();
            for (DecoratedKey key : keys) expected.add(SSTableFixtures.render(plain.getRow(key)));
            long seed = System.nanoTime();
            System.out.println("KeyCacheTest seed " + seed);
            OnThreads.run(4, Duration.ofSeconds(60), thread -> {
                Random random = new Random(seed + thread);
                for (int i = 0; i < 5000; i++) {
                    // A few hot keys and many cold ones, so entries are both kept and evicted.
                    int k = random.nextBoolean() ? random.nextInt(8) : random.nextInt(keys.size());
                    String row = SSTableFixtures.render(sstable.getRow(keys.get(k)));
                    if (!row.equals(expected.get(k))) throw new AssertionError("key " + keys.get(k) + ", seed " + seed);
                }
            });
            // Every insert checks the size after it is in and evicts down under the sweep lock, so once all are done:
            assertTrue(cache.size() <= 32, "size " + cache.size());
            assertTrue(cache.hits() > 0);
        } finally {
            plain.release();
            sstable.release();
        }
    }

    @Test
    void keysListsEachCachedKeyOnce() throws IOException {
        KeyCache cache = new KeyCache(10_000);
        List<DecoratedKey> keys = new ArrayList<>();
        SSTableReader first = open(1, 8, cache, keys);
        SSTableReader second = open(2, 8, cache, new ArrayList<>()); // the same keys
        try {
            for (DecoratedKey key : keys) {
                first.getRow(key);
                second.getRow(key);
            }
            assertEquals(2 * keys.size(), cache.size());
            List<DecoratedKey> listed = cache.keys();
            listed.sort(null);
            assertEquals(keys, listed);
        } finally {
            first.release();
            second.release();
        }
    }
}
