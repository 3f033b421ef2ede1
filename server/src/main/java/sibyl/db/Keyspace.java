package sibyl.db;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;

/**
 * The column families of one keyspace, and the place row mutations are applied.
 *
 * <p>Writers of one row are serialized by a lock striped over keys: resolving slice deletions,
 * (later) logging and applying happen under it, so a row's log order is its apply order.
 * Readers take no lock; rows are immutable versions.
 */
public final class Keyspace {
    private static final int LOCK_STRIPES = 1024;

    private final KSMetaData metadata;
    private final Partitioner partitioner;
    private final Map<String, ColumnFamilyStore> stores = new LinkedHashMap<>();
    private final ReentrantLock[] rowLocks = new ReentrantLock[LOCK_STRIPES];

    public Keyspace(KSMetaData metadata, Partitioner partitioner) {
        this.metadata = metadata;
        this.partitioner = partitioner;
        for (CFMetaData cf : metadata.columnFamilies()) stores.put(cf.name(), new ColumnFamilyStore(cf, partitioner));
        for (int i = 0; i < LOCK_STRIPES; i++) rowLocks[i] = new ReentrantLock();
    }

    public KSMetaData metadata() {
        return metadata;
    }

    public String name() {
        return metadata.name();
    }

    /** @throws InvalidQueryException {@code unconfigured columnfamily <cf>} when there is none */
    public ColumnFamilyStore store(String columnFamily) {
        ColumnFamilyStore store = stores.get(columnFamily);
        if (store == null) throw new InvalidQueryException("unconfigured columnfamily " + columnFamily);
        return store;
    }

    public Collection<ColumnFamilyStore> stores() {
        return stores.values();
    }

    /**
     * Applies a mutation of one row: all its changes are checked and resolved first, so a bad
     * change (unknown column family, wrong shape) applies nothing; then each column family's
     * changes become visible at once.
     *
     * @throws InvalidQueryException when the mutation names an unknown column family or a
     *                               change does not fit its column family
     */
    public void apply(RowMutation mutation) {
        if (!mutation.keyspace().equals(name())) {
            throw new IllegalArgumentException("mutation for keyspace " + mutation.keyspace() + " applied to " + name());
        }
        DecoratedKey key = partitioner.decorateKey(mutation.key());
        ReentrantLock lock = rowLocks[Math.floorMod(mutation.key().hashCode(), LOCK_STRIPES)];
        lock.lock();
        try {
            List<ColumnFamilyStore> targets = new ArrayList<>();
            List<ColumnFamilyStore.Delta> deltas = new ArrayList<>();
            for (Map.Entry<String, List<Change>> e : mutation.changes().entrySet()) {
                ColumnFamilyStore store = store(e.getKey());
                targets.add(store);
                deltas.add(store.resolve(key, e.getValue(), mutation.localDeletionTime()));
            }
            for (int i = 0; i < targets.size(); i++) targets.get(i).apply(key, deltas.get(i));
        } finally {
            lock.unlock();
        }
    }
}
