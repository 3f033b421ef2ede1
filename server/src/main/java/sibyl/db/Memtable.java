package sibyl.db;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import sibyl.dht.DecoratedKey;

/**
 * The in-memory, most recent rows of one column family: a concurrent sorted map of keys to
 * immutable row versions. Applying a change swaps a row's version for a merged one in a single
 * atomic map update, so readers see a row before a mutation or after it, never in between.
 *
 * <p>Tracks the serialized bytes and the number of column operations applied, the measures by
 * which a memtable is flushed (MemtableThroughputInMB, MemtableOperationsInMillions).
 */
public final class Memtable implements RowSource {
    private final CFMetaData metadata;
    private final ConcurrentSkipListMap<DecoratedKey, ColumnFamily> rows = new ConcurrentSkipListMap<>();
    private final AtomicLong throughputBytes = new AtomicLong();
    private final AtomicLong operations = new AtomicLong();
    private final long createdAtMillis = System.currentTimeMillis();

    public Memtable(CFMetaData metadata) {
        this.metadata = metadata;
    }

    public CFMetaData metadata() {
        return metadata;
    }

    /**
     * Reconciles {@code delta} into the row of {@code key}, atomically.
     *
     * @param operations how many column operations the delta stands for
     */
    public void apply(DecoratedKey key, ColumnFamily delta, int operations) {
        if (key.isMarker()) throw new IllegalArgumentException("not a row key: " + key);
        rows.merge(key, delta, ColumnFamily::merge);
        throughputBytes.addAndGet(delta.serializedSize());
        this.operations.addAndGet(operations);
    }

    @Override
    public ColumnFamily getRow(DecoratedKey key) {
        return rows.get(key);
    }

    @Override
    public Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rowsFrom(DecoratedKey from) {
        return rows.tailMap(from, true).entrySet().iterator();
    }

    @Override
    public List<DecoratedKey> sampleKeys(int interval) {
        List<DecoratedKey> samples = new ArrayList<>();
        int i = 0;
        for (DecoratedKey key : rows.keySet()) {
            if (i++ % interval == 0) samples.add(key);
        }
        return samples;
    }

    /** Serialized bytes of everything applied so far (not the memory used). */
    public long throughputBytes() {
        return throughputBytes.get();
    }

    /** Column operations applied so far. */
    public long operationCount() {
        return operations.get();
    }

    public int rowCount() {
        return rows.size();
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    public long createdAtMillis() {
        return createdAtMillis;
    }
}
