package sibyl.engine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.ColumnSelection;
import sibyl.db.LogPosition;
import sibyl.db.QueryPath;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.db.marshal.BytesType;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;
import sibyl.dht.Partitioners;
import sibyl.io.Descriptor;
import sibyl.io.SSTableReader;
import sibyl.io.SSTableWriter;

/**
 * Reads of one column family store whose rows lie in the memtable and two SSTables ({@value #ROWS} rows of
 * {@value #COLUMNS} columns of 50 bytes in the older SSTable, every third column rewritten in the newer one, every
 * seventh in the memtable; a column index block every 64 KB, files in the page cache, caches off): the whole read
 * path below the service seam, merge of the sources included. {@code sliceCounted} is a get_slice of 10 columns
 * from a start, {@code sliceNames} one of 10 names, {@code getColumn} a get, {@code rangeSlice} a get_range_slices
 * of 10 rows with 10 columns each.
 *
 * <p>In package {@code sibyl.engine} to build the store as the engine does (its SSTables added, a delta applied)
 * without a commit log or configuration.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ColumnFamilyStoreReadBenchmark {
    static final int ROWS = 100;
    static final int COLUMNS = 2000;
    private static final String CF = "Standard1";

    private final Partitioner partitioner = Partitioners.forName("org.apache.cassandra.dht.RandomPartitioner");
    private final CFMetaData metadata = CFMetaData.standard("Keyspace1", CF, BytesType.instance);
    private Path directory;
    private ColumnFamilyStore store;
    private DecoratedKey[] keys;

    @Setup(Level.Trial)
    public void fill() throws IOException {
        directory = Files.createTempDirectory("sibyl-store-bench");
        keys = new DecoratedKey[ROWS];
        for (int i = 0; i < ROWS; i++) keys[i] = partitioner.decorateKey("row" + i);
        store = new ColumnFamilyStore(metadata, partitioner, Runnable::run, java.time.Clock.systemUTC());
        List<SSTableReader> sstables = new ArrayList<>();
        sstables.add(write(1, 1, c -> true));
        sstables.add(write(2, 2, c -> c % 3 == 0));
        store.addSSTables(sstables);
        Random random = new Random(3);
        for (DecoratedKey key : keys) {
            ColumnFamily row = row(random, 3, c -> c % 7 == 0);
            store.apply(key, new ColumnFamilyStore.Delta(row, row.cellCount()));
        }
        for (DecoratedKey key : keys) store.getRow(key); // warms the page cache
    }

    private SSTableReader write(int generation, long timestamp, IntPredicate columns) throws IOException {
        Random random = new Random(generation);
        DecoratedKey[] ringOrder = keys.clone();
        Arrays.sort(ringOrder);
        Descriptor descriptor = new Descriptor(directory, CF, generation);
        try (SSTableWriter writer = SSTableWriter.create(descriptor, metadata, partitioner, 64 << 10, 128, ROWS)) {
            for (DecoratedKey key : ringOrder) writer.append(key, row(random, timestamp, columns));
            writer.finish(LogPosition.NONE);
        }
        return SSTableReader.open(descriptor, metadata, partitioner, 128, store.keyCache());
    }

    private ColumnFamily row(Random random, long timestamp, IntPredicate columns) {
        ColumnFamily.Builder row = ColumnFamily.builder(metadata, COLUMNS);
        for (int c = 0; c < COLUMNS; c++) {
            if (!columns.test(c)) continue;
            byte[] value = new byte[50];
            random.nextBytes(value);
            row.add(Column.live(name(c), value, timestamp));
        }
        return row.build();
    }

    /** Names that sort as their numbers do under BytesType. */
    static byte[] name(int column) {
        return String.format("c%06d", column).getBytes(StandardCharsets.US_ASCII);
    }

    @TearDown(Level.Trial)
    public void delete() throws IOException {
        store.closeSSTables();
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }

    @State(Scope.Thread)
    public static class Picks {
        final Random random = new Random(2);
        final int[] starts = new int[1024];
        final int[] rows = new int[1024];
        int next;

        @Setup(Level.Trial)
        public void choose() {
            for (int i = 0; i < starts.length; i++) {
                starts[i] = random.nextInt(COLUMNS - 100);
                rows[i] = random.nextInt(ROWS);
            }
        }

        int start() {
            return starts[next & (starts.length - 1)];
        }

        int row() {
            return rows[next++ & (rows.length - 1)];
        }
    }

    @Benchmark
    public List<Cell> sliceCounted(Picks picks) {
        int start = picks.start();
        return store.getSlice(keys[picks.row()], QueryPath.cf(CF),
                ColumnSelection.range(name(start), new byte[0], false, 10));
    }

    @Benchmark
    public List<Cell> sliceNames(Picks picks) {
        int start = picks.start();
        List<byte[]> names = new ArrayList<>(10);
        for (int i = 0; i < 10; i++) names.add(name(start + 9 * i));
        return store.getSlice(keys[picks.row()], QueryPath.cf(CF), ColumnSelection.names(names));
    }

    @Benchmark
    public Optional<Cell> getColumn(Picks picks) {
        int start = picks.start();
        return store.get(keys[picks.row()], QueryPath.column(CF, name(start)));
    }

    @Benchmark
    public List<RowSlice> rangeSlice(Picks picks) {
        int start = picks.start();
        return store.getRangeSlice(RowRange.keys("row" + picks.row(), ""), QueryPath.cf(CF),
                ColumnSelection.range(name(start), new byte[0], false, 10), 10);
    }
}
