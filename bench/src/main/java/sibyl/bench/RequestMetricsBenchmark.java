package sibyl.bench;

import java.util.List;
import java.util.Optional;
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
import sibyl.db.KSMetaData;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.db.marshal.BytesType;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;
import sibyl.dht.Partitioners;
import sibyl.dht.Range;
import sibyl.dht.Token;
import sibyl.engine.LocalStorageService;
import sibyl.service.LatencyTracker;
import sibyl.service.MeteredStorageService;
import sibyl.service.RequestMetrics;
import sibyl.service.Schema;
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
    public StorageService applyDirect(Cursor c) {
        direct.apply(mutations[c.nextKey()]);
        return direct;
    }

    @Benchmark
    public StorageService applyMetered(Cursor c) {
        metered.apply(mutations[c.nextKey()]);
        return metered;
    }

    @Benchmark
    public List<Cell> getSliceDirect(Cursor c) {
        return direct.getSlice(ThriftMessages.KEYSPACE, keys[c.nextKey()], parent, oneColumn);
    }

    @Benchmark
    public List<Cell> getSliceMetered(Cursor c) {
        return metered.getSlice(ThriftMessages.KEYSPACE, keys[c.nextKey()], parent, oneColumn);
    }

    @Benchmark
    public StorageService applyMeteringAlone(Cursor c) {
        meteredNothing.apply(mutations[c.nextKey()]);
        return meteredNothing;
    }

    @Benchmark
    public List<Cell> getSliceMeteringAlone(Cursor c) {
        return meteredNothing.getSlice(ThriftMessages.KEYSPACE, keys[c.nextKey()], parent, oneColumn);
    }

    @Benchmark
    public LatencyTracker record(Cursor c) {
        tracker.record(c.nextKey() * 300L);
        return tracker;
    }

    /** A backend that stores nothing and answers every read with nothing, in no time. */
    private record NothingStored(List<KSMetaData> keyspaces) implements StorageService {
        @Override
        public Partitioner partitioner() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Schema schema() {
            return new Schema(keyspaces);
        }

        @Override
        public Optional<KSMetaData> keyspace(String name) {
            return Optional.empty();
        }

        @Override
        public void apply(RowMutation mutation) {
        }

        @Override
        public Optional<Cell> get(String keyspace, String key, QueryPath path) {
            return Optional.empty();
        }

        @Override
        public List<Cell> getSlice(String keyspace, String key, QueryPath parent, ColumnSelection selection) {
            return List.of();
        }

        @Override
        public int getCount(String keyspace, String key, QueryPath parent) {
            return 0;
        }

        @Override
        public List<RowSlice> getRangeSlice(String keyspace, QueryPath parent, ColumnSelection selection,
                                            RowRange range, int count) {
            return List.of();
        }

        @Override
        public List<DecoratedKey> keySamples(Range range) {
            return List.of();
        }

        @Override
        public List<Token> describeSplits(Token start, Token end, int keysPerSplit) {
            return List.of();
        }
    }
}
