package sibyl.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;
import sibyl.db.CFMetaData;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.ColumnSelection;
import sibyl.db.marshal.BytesType;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;
import sibyl.dht.Partitioners;
import sibyl.io.CellCursor;
import sibyl.io.Descriptor;
import sibyl.io.KeyCache;
import sibyl.io.SSTableReader;

/**
 * 10 columns from a random place in a wide row of one SSTable ({@value #ROWS} rows of {@value #COLUMNS} columns of 50
 * bytes, a column index block every 64 KB, files in the page cache, key cache off): what the column index saves is
 * reading the whole 600 KB row for 10 of its columns. {@code sliceBetween} names both ends (the blocks that hold the
 * range are read); {@code sliceCounted} gives a start and a count, as a get_slice with a count does, and reads cells
 * from the start until it has 10 (ColumnFamilyStore merges such cursors over all SSTables of a row).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SSTableSliceBenchmark {
    static final int ROWS = 20;
    static final int COLUMNS = 10_000;

    private final Partitioner partitioner = Partitioners.forName("org.apache.cassandra.dht.RandomPartitioner");
    private final CFMetaData metadata = CFMetaData.standard(ThriftMessages.KEYSPACE, ThriftMessages.COLUMN_FAMILY,
            BytesType.instance);
    private Path directory;
    private SSTableReader sstable;
    private DecoratedKey[] keys;

    @Setup(Level.Trial)
    public void writeSSTable() throws IOException {
        directory = Files.createTempDirectory("sibyl-slice-bench");
        Random random = new Random(1);
        keys = new DecoratedKey[ROWS];
        for (int i = 0; i < ROWS; i++) keys[i] = partitioner.decorateKey("wide" + i);
        Descriptor descriptor = BenchSSTables.write(directory, metadata, partitioner, keys, key -> {
            ColumnFamily row = ColumnFamily.empty(metadata);
            for (int c = 0; c < COLUMNS; c++) {
                byte[] value = new byte[50];
                random.nextBytes(value);
                row = row.withCell(Column.live(name(c), value, 1));
            }
            return row;
        });
        sstable = SSTableReader.open(descriptor, metadata, partitioner, 128, new KeyCache(0));
        for (DecoratedKey key : keys) sstable.getRow(key); // warms the page cache
    }

    /** Names that sort as their numbers do under BytesType. */
    static byte[] name(int column) {
        return String.format("c%06d", column).getBytes(StandardCharsets.US_ASCII);
    }

    @TearDown(Level.Trial)
    public void delete() throws IOException {
        sstable.release();
        BenchSSTables.delete(directory);
    }

    @State(Scope.Thread)
    public static class Slices {
        final Random random = new Random(2);
        final int[] starts = new int[1024];
        int next;

        @Setup(Level.Trial)
        public void choose() {
            for (int i = 0; i < starts.length; i++) starts[i] = random.nextInt(COLUMNS - 10);
        }
    }

    @Benchmark
    public ColumnFamily sliceBetween(Slices slices) {
        int i = slices.next++;
        int start = slices.starts[i & (slices.starts.length - 1)];
        return sstable.readSlice(keys[i % ROWS], ColumnSelection.range(name(start), name(start + 9), false, 10));
    }

    @Benchmark
    public int sliceCounted(Slices slices, Blackhole sink) {
        int i = slices.next++;
        int start = slices.starts[i & (slices.starts.length - 1)];
        CellCursor cursor = sstable.cellsFrom(keys[i % ROWS], name(start), false);
        int taken = 0;
        while (taken < 10 && cursor.hasNext()) {
            sink.consume(cursor.next());
            taken++;
        }
        return taken;
    }
}
