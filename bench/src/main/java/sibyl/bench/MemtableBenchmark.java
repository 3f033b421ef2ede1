package sibyl.bench;

import java.util.List;
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
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.ColumnFamily;
import sibyl.db.ColumnSelection;
import sibyl.db.KSMetaData;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.WriteLog;
import sibyl.db.marshal.BytesType;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;
import sibyl.dht.Partitioners;
import sibyl.engine.ColumnFamilyStore;
import sibyl.engine.Keyspace;
import sibyl.engine.Memtable;

/**
 * The memtable through the engine's public API only: applying a row of {@code columns} columns (to the memtable
 * directly, and as a mutation through {@link Keyspace#apply}, which resolves, locks the row and appends to a log that
 * records nothing), and reading a slice of {@code columns} columns of a row through {@link ColumnFamilyStore}.
 * Rows go to a million columns' worth of keys (at most {@value #MAX_KEYS}) in turn, under RandomPartitioner, all
 * present from the start, so inserts merge into existing rows, as in a steady-state stress run.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MemtableBenchmark {
    static final int MAX_KEYS = 100_000;

    @Param({"1", "10", "100"})
    public int columns;

    private final Partitioner partitioner = Partitioners.forName("org.apache.cassandra.dht.RandomPartitioner");
    private final CFMetaData metadata = CFMetaData.standard(ThriftMessages.KEYSPACE, ThriftMessages.COLUMN_FAMILY,
            BytesType.instance);
    private Memtable memtable;
    private Keyspace keyspace;
    private ColumnFamilyStore store;
    private int keyCount;
    private DecoratedKey[] keys;
    private ColumnFamily[] rows;
    private RowMutation[] mutations;
    private final QueryPath parent = new QueryPath(ThriftMessages.COLUMN_FAMILY, null, null);
    private ColumnSelection firstColumns;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        keyCount = Math.min(MAX_KEYS, 1_000_000 / columns);
        keys = new DecoratedKey[keyCount];
        rows = new ColumnFamily[keyCount];
        mutations = new RowMutation[keyCount];
        // No sorter thread: the writer that completes a batch of new keys folds it, as a memory-only node's do.
        memtable = new Memtable(metadata, Runnable::run);
        keyspace = new Keyspace(new KSMetaData(ThriftMessages.KEYSPACE, 1, List.of(metadata)), partitioner,
                WriteLog.NONE, Runnable::run);
        store = keyspace.store(ThriftMessages.COLUMN_FAMILY);
        for (int k = 0; k < keyCount; k++) {
            String key = ThriftMessages.key(k);
            keys[k] = partitioner.decorateKey(key);
            ColumnFamily row = ColumnFamily.empty(metadata);
            RowMutation.Builder mutation = RowMutation.builder(ThriftMessages.KEYSPACE, key);
            for (int c = 0; c < columns; c++) {
                byte[] name = ThriftMessages.columnName(c);
                byte[] value = ThriftMessages.value(k, c);
                row = row.withCell(sibyl.db.Column.live(name, value, 1L + k));
                mutation.write(ThriftMessages.COLUMN_FAMILY, name, value, 1L + k);
            }
            rows[k] = row;
            mutations[k] = mutation.build();
            keyspace.apply(mutations[k]);
        }
        firstColumns = ColumnSelection.range(new byte[0], new byte[0], false, columns);
    }

    private int nextKey() {
        int k = next;
        next = k + 1 == keyCount ? 0 : k + 1;
        return k;
    }

    @Benchmark
    public Memtable memtableApply() {
        int k = nextKey();
        memtable.apply(keys[k], rows[k], columns);
        return memtable;
    }

    @Benchmark
    public Keyspace keyspaceApply() {
        keyspace.apply(mutations[nextKey()]);
        return keyspace;
    }

    @Benchmark
    public List<Cell> storeGetSlice() {
        return store.getSlice(keys[nextKey()], parent, firstColumns);
    }
}
