package sibyl.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
import sibyl.db.LogPosition;
import sibyl.db.marshal.BytesType;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;
import sibyl.dht.Partitioners;

/**
 * A minor compaction of {@value #INPUTS} SSTables as bin/stress -o insert -c 100 leaves them (issue #35): each holds
 * {@value #ROWS_PER_INPUT} random keys of {@value #KEYS}, every row 100 columns of 34-byte values, so most keys are
 * in one input only. {@code copyRows} false decodes and encodes every row; true writes the rows only one input holds
 * as they are stored ({@link RowCopy}). In this package because that switch is package-private. Each compaction
 * writes (and fsyncs) a new SSTable, deleted after it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class CompactionBenchmark {
    static final int KEYS = 50_000;
    static final int INPUTS = 4;
    static final int ROWS_PER_INPUT = 2_000;
    private static final int COLUMNS = 100;
    private static final int NOW = (int) (System.currentTimeMillis() / 1000);

    @Param({"true", "false"})
    public boolean copyRows;

    private final Partitioner partitioner = Partitioners.forName("org.apache.cassandra.dht.RandomPartitioner");
    private final CFMetaData metadata = CFMetaData.standard("Keyspace1", "Standard1", BytesType.instance);
    private Path directory;
    private final List<SSTableReader> inputs = new ArrayList<>();
    private Descriptor output;
    private int generation = INPUTS;

    @Setup(Level.Trial)
    public void writeInputs() throws IOException {
        directory = Files.createTempDirectory("sibyl-compaction-bench");
        Random random = new Random(1);
        for (int i = 1; i <= INPUTS; i++) {
            TreeSet<DecoratedKey> keys = new TreeSet<>();
            while (keys.size() < ROWS_PER_INPUT) keys.add(partitioner.decorateKey(String.format("%07d", random.nextInt(KEYS))));
            Descriptor descriptor = new Descriptor(directory, metadata.name(), i);
            try (SSTableWriter writer = SSTableWriter.create(descriptor, metadata, partitioner, 64 << 10, 128, keys.size())) {
                for (DecoratedKey key : keys) {
                    ColumnFamily.Builder row = ColumnFamily.builder(metadata, COLUMNS);
                    for (int c = 0; c < COLUMNS; c++) {
                        byte[] value = new byte[34];
                        random.nextBytes(value);
                        row.add(Column.live(("C" + c).getBytes(), value, System.nanoTime() / 1000));
                    }
                    writer.append(key, row.build());
                }
                writer.finish(LogPosition.NONE);
            }
            inputs.add(SSTableReader.open(descriptor, metadata, partitioner, 128));
        }
    }

    @TearDown(Level.Trial)
    public void deleteInputs() throws IOException {
        for (SSTableReader sstable : inputs) sstable.release();
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }

    @TearDown(Level.Invocation)
    public void deleteOutput() throws IOException {
        if (output != null) SSTableDirectory.delete(output);
        output = null;
    }

    @Benchmark
    public long compact() throws IOException {
        output = new Descriptor(directory, metadata.name(), ++generation);
        return Compaction.compact(inputs, output, partitioner, 64 << 10, 128, NOW - 864_000, NOW, false, copyRows)
                .rowsOut();
    }
}
