package sibyl.bench;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.ColumnSelection;
import sibyl.db.CompareAndSet;
import sibyl.db.KSMetaData;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.db.marshal.BytesType;
import sibyl.dht.Partitioner;
import sibyl.dht.Partitioners;
import sibyl.dht.Token;
import sibyl.engine.LocalStorageService;
import sibyl.service.Consistency;
import sibyl.service.LatencyTracker;
import sibyl.service.MeteredStorageService;
import sibyl.service.RequestMetrics;
import sibyl.service.Schema;
import sibyl.service.SerialConsistency;
import sibyl.service.StorageService;

/**
 * What counting requests per column family costs on the request path: a one-column write and a one-column
 * get_slice through a memory-only store, straight and through {@link MeteredStorageService} (the seam the node
 * serves through); the same through the seam over a backend that does nothing, which is the metering alone; and
 * one {@link LatencyTracker#record}. {@code -prof gc} shows what the metering allocates (nothing over the
 * backend that does nothing); {@code -t 2} or more shows its counters under contention.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RequestMetricsBenchmark {
    private static final int KEYS = 10_000;

    private StorageService direct;
    private StorageService metered;
    private StorageService meteredNothing;
    private final LatencyTracker tracker = new LatencyTracker();
    private RowMutation[] mutations;
    private String[] keys;
    private final QueryPath parent = new QueryPath(ThriftMessages.COLUMN_FAMILY, null, null);
    private final ColumnSelection oneColumn = ColumnSelection.range(new byte[0], new byte[0], false, 1);

    @State(Scope.Thread)
    public static class Cursor {
        int next;

        int nextKey() {
            int k = next;
            next = k + 1 == KEYS ? 0 : k + 1;
            return k;
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        CFMetaData cf = CFMetaData.standard(ThriftMessages.KEYSPACE, ThriftMessages.COLUMN_FAMILY, BytesType.instance);
        LocalStorageService store = new LocalStorageService(
                Partitioners.forName("org.apache.cassandra.dht.RandomPartitioner"),
                List.of(new KSMetaData(ThriftMessages.KEYSPACE, 1, List.of(cf))), 128);
        direct = store;
        metered = new MeteredStorageService(store, new RequestMetrics());
        meteredNothing = new MeteredStorageService(new NothingStored(store.keyspaces()), new RequestMetrics());
        mutations = new RowMutation[KEYS];
        keys = new String[KEYS];
        for (int k = 0; k < KEYS; k++) {
            keys[k] = ThriftMessages.key(k);
            mutations[k] = RowMutation.builder(ThriftMessages.KEYSPACE, keys[k])
                    .write(ThriftMessages.COLUMN_FAMILY, ThriftMessages.columnName(0), ThriftMessages.value(k, 0), 1L)
                    .build();
            store.apply(mutations[k]);
        }
    }

    @Benchmark
    public CompletableFuture<Void> applyDirect(Cursor c) {
        return direct.write(mutations[c.nextKey()], Consistency.ONE);
    }

    @Benchmark
    public CompletableFuture<Void> applyMetered(Cursor c) {
        return metered.write(mutations[c.nextKey()], Consistency.ONE);
    }

    @Benchmark
    public CompletableFuture<List<Cell>> getSliceDirect(Cursor c) {
        return direct.readSlice(ThriftMessages.KEYSPACE, keys[c.nextKey()], parent, oneColumn, Consistency.ONE);
    }

    @Benchmark
    public CompletableFuture<List<Cell>> getSliceMetered(Cursor c) {
        return metered.readSlice(ThriftMessages.KEYSPACE, keys[c.nextKey()], parent, oneColumn, Consistency.ONE);
    }

    @Benchmark
    public CompletableFuture<Void> applyMeteringAlone(Cursor c) {
        return meteredNothing.write(mutations[c.nextKey()], Consistency.ONE);
    }

    @Benchmark
    public CompletableFuture<List<Cell>> getSliceMeteringAlone(Cursor c) {
        return meteredNothing.readSlice(ThriftMessages.KEYSPACE, keys[c.nextKey()], parent, oneColumn,
                Consistency.ONE);
    }

    @Benchmark
    public LatencyTracker record(Cursor c) {
        tracker.record(c.nextKey() * 300L);
        return tracker;
    }

    /** A backend that stores nothing and answers every read with nothing, in no time. */
    private record NothingStored(List<KSMetaData> keyspaces) implements StorageService {
        private static final CompletableFuture<Void> WRITTEN = CompletableFuture.completedFuture(null);
        private static final CompletableFuture<List<Cell>> NO_CELLS = CompletableFuture.completedFuture(List.of());

        @Override
        public Partitioner partitioner() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Schema schema() {
            return new Schema(keyspaces);
        }

        @Override
        public CompletableFuture<Void> write(RowMutation mutation, Consistency consistency) {
            return WRITTEN;
        }

        @Override
        public CompletableFuture<Optional<Cell>> readCell(String keyspace, String key, QueryPath path,
                                                          Consistency consistency) {
            return CompletableFuture.completedFuture(Optional.empty());
        }

        @Override
        public CompletableFuture<List<Cell>> readSlice(String keyspace, String key, QueryPath parent,
                                                       ColumnSelection selection, Consistency consistency) {
            return NO_CELLS;
        }

        @Override
        public CompletableFuture<Integer> count(String keyspace, String key, QueryPath parent,
                                                Consistency consistency) {
            return CompletableFuture.completedFuture(0);
        }

        @Override
        public CompletableFuture<List<RowSlice>> scan(String keyspace, QueryPath parent, ColumnSelection selection,
                                                      RowRange range, int count, Consistency consistency) {
            return CompletableFuture.completedFuture(List.of());
        }

        @Override
        public CompletableFuture<CompareAndSet.Outcome> compareAndSet(CompareAndSet cas, SerialConsistency serial,
                                                                     Consistency commit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<Void> truncate(String keyspace, String columnFamily) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public List<Token> ringTokens() {
            return List.of();
        }

        @Override
        public List<Token> describeSplits(Token start, Token end, int keysPerSplit) {
            return List.of();
        }
    }
}
