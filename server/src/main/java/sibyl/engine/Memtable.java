package sibyl.engine;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import sibyl.db.CFMetaData;
import sibyl.db.ColumnFamily;
import sibyl.db.RowSource;
import sibyl.dht.DecoratedKey;

/**
 * The in-memory, most recent rows of one column family: each key's immutable row version, in a
 * slot reachable both from a concurrent sorted map (for scans and flushes, in token order) and
 * from a hash map (for the point reads and writes that are most calls: one lookup instead of a
 * descent through the skip list, which cost a third of a read's CPU time). Applying a change
 * swaps the slot's version for a merged one atomically, so readers see a row before a mutation
 * or after it, never in between. A new key enters the hash map first, so for an instant a scan
 * may not see a row a point read already does: the scan then reads as if it came first.
 *
 * <p>Tracks the serialized bytes and the number of column operations applied, the measures by
 * which a memtable is flushed (MemtableThroughputInMB, MemtableOperationsInMillions).
 */
public final class Memtable implements RowSource {
    private final CFMetaData metadata;
    private final ConcurrentSkipListMap<DecoratedKey, Slot> sorted = new ConcurrentSkipListMap<>();
    private final ConcurrentHashMap<DecoratedKey, Slot> byKey = new ConcurrentHashMap<>();
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
        Slot slot = byKey.get(key);
        if (slot == null) {
            Slot fresh = new Slot(delta);
            slot = byKey.putIfAbsent(key, fresh);
            if (slot == null) {
                sorted.put(key, fresh);
            }
        }
        if (slot != null) slot.merge(delta);
        throughputBytes.addAndGet(delta.serializedSize());
        this.operations.addAndGet(operations);
    }

    @Override
    public ColumnFamily getRow(DecoratedKey key) {
        Slot slot = byKey.get(key);
        return slot == null ? null : slot.version;
    }

    @Override
    public Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rowsFrom(DecoratedKey from) {
        Iterator<Map.Entry<DecoratedKey, Slot>> slots = sorted.tailMap(from, true).entrySet().iterator();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return slots.hasNext();
            }

            @Override
            public Map.Entry<DecoratedKey, ColumnFamily> next() {
                Map.Entry<DecoratedKey, Slot> e = slots.next();
                return new AbstractMap.SimpleImmutableEntry<>(e.getKey(), e.getValue().version);
            }
        };
    }

    @Override
    public List<DecoratedKey> sampleKeys(int interval) {
        List<DecoratedKey> samples = new ArrayList<>();
        int i = 0;
        for (DecoratedKey key : sorted.keySet()) {
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
        return byKey.size();
    }

    public boolean isEmpty() {
        return byKey.isEmpty();
    }

    public long createdAtMillis() {
        return createdAtMillis;
    }

    /** Where a row's current version lives; replaced whole, never changed in place. */
    private static final class Slot {
        private static final AtomicReferenceFieldUpdater<Slot, ColumnFamily> VERSION =
                AtomicReferenceFieldUpdater.newUpdater(Slot.class, ColumnFamily.class, "version");

        volatile ColumnFamily version;

        Slot(ColumnFamily version) {
            this.version = version;
        }

        void merge(ColumnFamily delta) {
            ColumnFamily current;
            do {
                current = version;
            } while (!VERSION.compareAndSet(this, current, ColumnFamily.merge(current, delta)));
        }
    }
}
