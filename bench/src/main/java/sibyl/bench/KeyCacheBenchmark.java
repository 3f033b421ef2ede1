package sibyl.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import sibyl.db.CFMetaData;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.marshal.BytesType;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;
import sibyl.dht.Partitioners;
import sibyl.io.Descriptor;
import sibyl.io.KeyCache;
import sibyl.io.SSTableReader;

/**
 * A point read of one SSTable ({@value #ROWS} rows of 10 columns of 50 bytes, IndexInterval 128, files in the page
 * cache) with the key cache off and with every key cached: what a hit saves is the read and scan of one stretch of
 * index entries. Keys are read in a random order fixed by a seed.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class KeyCacheBenchmark {
    static final int ROWS = 100_000;

    @Param({"off", "on"})
    public String keyCache;

    private final Partitioner partitioner = Partitioners.forName("org.apache.cassandra.dht.RandomPartitioner");
    private final CFMetaData metadata = CFMetaData.standard(ThriftMessages.KEYSPACE, ThriftMessages.COLUMN_FAMILY,
            BytesType.instance);
    private Path directory;
    private SSTableReader sstable;
    private DecoratedKey[] keys;

    @Setup(Level.Trial)
    public void writeSSTable() throws IOException {
        directory = Files.createTempDirectory("sibyl-keycache-bench");
        Random random = new Random(1);
        keys = new DecoratedKey[ROWS];
        for (int i = 0; i < ROWS; i++) keys[i] = partitioner.decorateKey("key" + i);
        Descriptor descriptor = BenchSSTables.write(directory, metadata, partitioner, keys, key -> {
            ColumnFamily row = ColumnFamily.empty(metadata);
            for (int c = 0; c < 10; c++) {
                byte[] value = new byte[50];
                random.nextBytes(value);
                row = row.withCell(Column.live(("column" + c).getBytes(), value, 1));
            }
            return row;
        });
        KeyCache cache = new KeyCache(keyCache.equals("on") ? ROWS : 0);
        sstable = SSTableReader.open(descriptor, metadata, partitioner, 128, cache);
        for (DecoratedKey key : keys) sstable.getRow(key); // warms the page cache, and the key cache when on
        // Shuffled, so successive reads do not walk the index in order.
        for (int i = ROWS - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            DecoratedKey t = keys[i];
            keys[i] = keys[j];
            keys[j] = t;
        }
    }

    @TearDown(Level.Trial)
    public void delete() throws IOException {
        sstable.release();
        BenchSSTables.delete(directory);
    }

    @State(Scope.Thread)
    public static class Cursor {
        int next;
    }

    @Benchmark
    public ColumnFamily pointRead(Cursor cursor) {
        DecoratedKey key = keys[cursor.next++ % ROWS];
        return sstable.getRow(key);
    }
}
