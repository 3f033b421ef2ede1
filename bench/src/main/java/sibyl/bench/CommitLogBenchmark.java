package sibyl.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
import sibyl.commitlog.CommitLog;
import sibyl.commitlog.SyncMode;
import sibyl.db.CFMetaData;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.LogPosition;
import sibyl.db.ResolvedMutation;
import sibyl.db.marshal.BytesType;

/**
 * Appending a one-column mutation (34-byte value) to the commit log, in a temporary directory: periodic mode (framed,
 * written, acknowledged; the fsync every 10 s is the sync thread's) and batch mode (acknowledged after the fsync that
 * covers it, window 0). Batch mode with one thread measures an fsync per append; run it with {@code -t 16} to see
 * the group commit share fsyncs among concurrent writers.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CommitLogBenchmark {
    @Param({"periodic", "batch"})
    public String sync;

    private final CFMetaData metadata = CFMetaData.standard(ThriftMessages.KEYSPACE, ThriftMessages.COLUMN_FAMILY,
            BytesType.instance);
    private static final byte[] NAME = ThriftMessages.columnName(0);
    private static final byte[] VALUE = ThriftMessages.value(0, 0);

    private final AtomicLong keys = new AtomicLong();
    private Path directory;
    private CommitLog log;

    @Setup(Level.Trial)
    public void open() throws IOException {
        directory = Files.createTempDirectory("sibyl-commitlog-bench");
        SyncMode mode = sync.equals("batch") ? new SyncMode.Batch(Duration.ZERO)
                : new SyncMode.Periodic(Duration.ofSeconds(10));
        log = CommitLog.open(directory, mode, 128L << 20);
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        log.close();
        BenchSSTables.delete(directory);
    }

    @Benchmark
    public LogPosition append() {
        long n = keys.incrementAndGet();
        ColumnFamily row = ColumnFamily.empty(metadata).withCell(Column.live(NAME, VALUE, n));
        return log.append(new ResolvedMutation(ThriftMessages.KEYSPACE, Long.toString(n), List.of(row)));
    }
}
