package sibyl.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static sibyl.io.SSTableFixtures.render;

import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CFMetaData;
import sibyl.db.ColumnSelection;
import sibyl.db.marshal.UTF8Type;
import sibyl.dht.DecoratedKey;
import sibyl.dht.RandomPartitioner;
import sibyl.engine.Memtable;

/** Many threads read one SSTable at once, and an interrupted reader does not break it for the others. */
class ConcurrentReadTest {
    @TempDir
    Path dir;

    private final RandomPartitioner partitioner = new RandomPartitioner();
    private final CFMetaData cf = SSTableFixtures.standard(UTF8Type.instance);

    @Test
    void concurrentReadersAllSeeTheirRows() throws Exception {
        Memtable memtable = SSTableFixtures.randomMemtable(cf, partitioner, new Random(5), 300, 20);
        SSTableReader sstable = SSTableReader.open(SSTableFixtures.write(dir, 1, memtable, partitioner, 128), cf, partitioner, 16);
        List<DecoratedKey> keys = new ArrayList<>();
        memtable.rowsFrom(DecoratedKey.startOf(partitioner.getMinimumToken())).forEachRemaining(e -> keys.add(e.getKey()));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> readers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int offset = t;
                readers.add(pool.submit(() -> {
                    for (int round = 0; round < 5; round++) {
                        for (int i = 0; i < keys.size(); i++) {
                            DecoratedKey key = keys.get((i + offset * 37) % keys.size());
                            assertEquals(render(memtable.getRow(key)), render(sstable.getRow(key)));
                            assertEquals(render(memtable.getRow(key)), render(sstable.readSlice(key, ColumnSelection.all())));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : readers) f.get();
        } finally {
            pool.shutdown();
            sstable.release();
        }
    }

    @Test
    void readersHoldingAReferenceOutliveTheSSTablesReplacement() throws Exception {
        Memtable memtable = SSTableFixtures.randomMemtable(cf, partitioner, new Random(7), 50, 5);
        Descriptor d = SSTableFixtures.write(dir, 1, memtable, partitioner, 128);
        SSTableReader sstable = SSTableReader.open(d, cf, partitioner, 4);
        DecoratedKey key = memtable.rowsFrom(DecoratedKey.startOf(partitioner.getMinimumToken())).next().getKey();
        String expected = render(memtable.getRow(key));
        java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(4);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> readers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                readers.add(pool.submit(() -> {
                    int reads = 0;
                    started.countDown();
                    // Every read under a reference succeeds; once all are gone, acquiring fails.
                    for (int i = 0; i < 500 && sstable.acquire(); i++) {
                        try {
                            assertEquals(expected, render(sstable.getRow(key)));
                            reads++;
                        } finally {
                            sstable.release();
                        }
                    }
                    return reads;
                }));
            }
            started.await();
            sstable.markObsolete();
            sstable.release(); // the owner's reference; the last reader to release deletes the files
            for (Future<Integer> f : readers) f.get();
            assertEquals(0, sstable.referenceCount());
            try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(dir)) {
                assertEquals(0, files.count(), "files deleted once the last reference went");
            }
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void anInterruptedReaderFailsAloneAndTheFileStaysReadable() throws Exception {
        Memtable memtable = SSTableFixtures.randomMemtable(cf, partitioner, new Random(6), 30, 5);
        SSTableReader sstable = SSTableReader.open(SSTableFixtures.write(dir, 1, memtable, partitioner, 128), cf, partitioner, 4);
        DecoratedKey key = memtable.rowsFrom(DecoratedKey.startOf(partitioner.getMinimumToken())).next().getKey();
        try {
            Thread.currentThread().interrupt();
            UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> sstable.getRow(key));
            assertInstanceOf(InterruptedIOException.class, e.getCause());
            Thread.interrupted();
            assertEquals(render(memtable.getRow(key)), render(sstable.getRow(key)));
        } finally {
            Thread.interrupted();
            sstable.release();
        }
    }
}
