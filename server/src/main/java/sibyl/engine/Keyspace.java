package sibyl.engine;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.LongSupplier;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Change;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.CompareAndSet;
import sibyl.db.InvalidQueryException;
import sibyl.db.KSMetaData;
import sibyl.db.QueryPath;
import sibyl.db.ResolvedMutation;
import sibyl.db.RowMutation;
import sibyl.db.SuperColumn;
import sibyl.db.WriteFailedException;
import sibyl.db.WriteLog;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;

/**
 * The column families of one keyspace, and the place row mutations are applied.
 *
 * <p>Writers of one row are serialized by a lock striped over keys: resolving slice deletions,
 * logging and applying happen under it, so a row's log order is its apply order and replaying
 * the log rebuilds what readers saw. Readers take no lock; rows are immutable versions.
 *
 * <p>Every write also holds {@link #switchLock()} in read mode from logging to applying. A
 * memtable switch takes it in write mode: then no write is between the two steps, so the log
 * position it reads separates exactly the writes in the old memtable from those in the new one.
 */
public final class Keyspace {
    private static final int LOCK_STRIPES = 1024;

    /**
     * The keyspace's metadata and stores of one moment, replaced as a whole by a reload, so a write
     * finds the stores of its column families all in one version of the schema.
     *
     * @param removed true once a reload removed the keyspace: writes that found it before are refused
     */
    private record State(KSMetaData metadata, Map<String, ColumnFamilyStore> stores, boolean removed) {
    }

    private volatile State state;
    private final Partitioner partitioner;
    private final ReentrantLock[] rowLocks = new ReentrantLock[LOCK_STRIPES];
    private final ReentrantReadWriteLock switchLock = new ReentrantReadWriteLock();
    private final WriteLog log;
    private final Persistence persistence;
    private volatile String refusal; // why writes are refused (after drain); null while they are accepted

    /**
     * @param log            where each write is recorded before it is applied; {@link WriteLog#NONE} for memory only
     * @param memtableSorter runs the background folds of the stores' memtables (see {@link Memtable})
     */
    public Keyspace(KSMetaData metadata, Partitioner partitioner, WriteLog log, Executor memtableSorter) {
        this(metadata, partitioner, log, Persistence.NONE, memtableSorter, Clock.systemUTC());
    }

    /**
     * @param persistence flushes this keyspace's memtables once full; {@link Persistence#NONE} to keep
     *                    everything in memory
     * @param clock       the time reads judge expiring columns by
     */
    Keyspace(KSMetaData metadata, Partitioner partitioner, WriteLog log, Persistence persistence,
             Executor memtableSorter, Clock clock) {
        this.partitioner = partitioner;
        this.log = log;
        this.persistence = persistence;
        Map<String, ColumnFamilyStore> stores = new LinkedHashMap<>();
        for (CFMetaData cf : metadata.columnFamilies()) {
            stores.put(cf.name(), new ColumnFamilyStore(cf, partitioner, memtableSorter, clock));
        }
        this.state = new State(metadata, Collections.unmodifiableMap(stores), false);
        for (int i = 0; i < LOCK_STRIPES; i++) rowLocks[i] = new ReentrantLock();
    }

    public KSMetaData metadata() {
        return state.metadata();
    }

    public String name() {
        return state.metadata().name();
    }

    /** @throws InvalidQueryException {@code unconfigured columnfamily <cf>} when there is none */
    public ColumnFamilyStore store(String columnFamily) {
        return store(state, columnFamily);
    }

    private static ColumnFamilyStore store(State state, String columnFamily) {
        ColumnFamilyStore store = state.stores().get(columnFamily);
        if (store == null) throw new InvalidQueryException("unconfigured columnfamily " + columnFamily);
        return store;
    }

    /** The stores of the column families configured now, in configuration order. */
    public Collection<ColumnFamilyStore> stores() {
        return state.stores().values();
    }

    /**
     * A reload changed the keyspace: from now on writes find {@code stores} (one per column family of
     * {@code metadata}, in its order). A store left out must hold nothing: the caller holds the
     * switch lock in write mode from checking that until this returns, so no write reaches it.
     */
    void replaceSchema(KSMetaData metadata, List<ColumnFamilyStore> stores) {
        if (!metadata.name().equals(name())) {
            throw new IllegalArgumentException("keyspace " + name() + " cannot become " + metadata.name());
        }
        Map<String, ColumnFamilyStore> given = new HashMap<>();
        for (ColumnFamilyStore store : stores) given.put(store.metadata().name(), store);
        Map<String, ColumnFamilyStore> byName = new LinkedHashMap<>();
        for (CFMetaData cf : metadata.columnFamilies()) {
            ColumnFamilyStore store = given.remove(cf.name());
            if (store == null) throw new IllegalArgumentException("no store for " + name() + "." + cf.name());
            byName.put(cf.name(), store);
        }
        if (!given.isEmpty()) throw new IllegalArgumentException("stores of no column family: " + given.keySet());
        state = new State(metadata, Collections.unmodifiableMap(byName), false);
    }

    /**
     * A reload removed the keyspace, which held nothing: a write that found it before is refused as
     * one naming an unknown keyspace. The caller holds the switch lock in write mode.
     */
    void markRemoved() {
        State s = state;
        state = new State(s.metadata(), s.stores(), true);
    }

    /**
     * Held in read mode by every write from logging to applying; a memtable switch takes it in
     * write mode to read a log position no write straddles.
     */
    public ReentrantReadWriteLock switchLock() {
        return switchLock;
    }

    WriteLog log() {
        return log;
    }

    /**
     * From now on every write fails with {@code reason}; writes already logged are applied
     * before this returns (it takes the switch lock in write mode).
     */
    public void refuseWrites(String reason) {
        switchLock.writeLock().lock();
        try {
            refusal = reason;
        } finally {
            switchLock.writeLock().unlock();
        }
    }

    /**
     * Applies a mutation of one row: all its changes are checked and resolved first, so a bad
     * change (unknown column family, wrong shape) applies nothing; then the resolved deltas are
     * logged, and only once the log has them does each column family's delta become visible,
     * all at once.
     *
     * @throws InvalidQueryException when the mutation names an unknown column family or a
     *                               change does not fit its column family
     * @throws WriteFailedException  when the log could not record it; nothing was applied
     */
    public void apply(RowMutation mutation) {
        if (!mutation.keyspace().equals(name())) {
            throw new IllegalArgumentException("mutation for keyspace " + mutation.keyspace() + " applied to " + name());
        }
        ReentrantLock lock = rowLock(mutation.key());
        List<ColumnFamilyStore> targets;
        switchLock.readLock().lock();
        try {
            State current = writable();
            lock.lock();
            try {
                targets = logAndApply(current, mutation);
            } finally {
                lock.unlock();
            }
        } finally {
            switchLock.readLock().unlock();
        }
        // Outside the switch lock: a switch takes it in write mode.
        for (ColumnFamilyStore store : targets) persistence.afterWrite(this, store);
    }

    /**
     * The keyspace's state for a write, or the write's refusal. Read under the switch lock: a reload that removes
     * a store or the keyspace holds it in write mode.
     */
    private State writable() {
        State current = state;
        if (current.removed()) {
            throw new InvalidQueryException("Keyspace " + name() + " does not exist in this schema.");
        }
        if (refusal != null) throw new WriteFailedException(refusal);
        return current;
    }

    /** Resolves, logs and applies a mutation; the caller holds the switch lock and the row's lock. */
    private List<ColumnFamilyStore> logAndApply(State current, RowMutation mutation) {
        DecoratedKey key = partitioner.decorateKey(mutation.key());
        int columnFamilies = mutation.changes().size();
        List<ColumnFamilyStore> targets = new ArrayList<>(columnFamilies);
        List<ColumnFamilyStore.Delta> deltas = new ArrayList<>(columnFamilies);
        List<ColumnFamily> logged = new ArrayList<>(columnFamilies);
        for (Map.Entry<String, List<Change>> e : mutation.changes().entrySet()) {
            ColumnFamilyStore store = store(current, e.getKey());
            ColumnFamilyStore.Delta delta = store.resolve(key, e.getValue(), mutation.localDeletionTime());
            targets.add(store);
            deltas.add(delta);
            if (!delta.row().isEmpty()) logged.add(delta.row());
        }
        // A slice deletion that selected nothing changes nothing: nothing to log.
        if (!logged.isEmpty()) log.append(new ResolvedMutation(name(), mutation.key(), logged));
        for (int i = 0; i < targets.size(); i++) targets.get(i).apply(key, deltas.get(i));
        return targets;
    }

    /**
     * cas on one row: under the row's lock (and the switch lock, taken first as every write takes it), reads the
     * live columns the condition looks at and, when it holds, applies the updates as {@link #apply} does, logged
     * before they are visible, at the timestamp {@code timestamps} gives then; so no other write of the row comes
     * between the compare and the set, and each cas of the row writes later than the one before.
     *
     * @throws InvalidQueryException as {@link #apply}
     * @throws WriteFailedException  as {@link #apply}; nothing was applied
     */
    public CompareAndSet.Outcome compareAndSet(CompareAndSet cas, LongSupplier timestamps) {
        if (!cas.keyspace().equals(name())) {
            throw new IllegalArgumentException("cas for keyspace " + cas.keyspace() + " applied to " + name());
        }
        DecoratedKey key = partitioner.decorateKey(cas.key());
        ReentrantLock lock = rowLock(cas.key());
        List<ColumnFamilyStore> targets = List.of();
        CompareAndSet.Outcome outcome;
        switchLock.readLock().lock();
        try {
            State current = writable();
            ColumnFamilyStore store = store(current, cas.columnFamily());
            lock.lock();
            try {
                List<Cell> found = store.getSlice(key, new QueryPath(cas.columnFamily(), null, null),
                        cas.currentSelection());
                if (cas.appliesTo(found)) {
                    RowMutation mutation = cas.mutation(timestamps.getAsLong());
                    if (!mutation.isEmpty()) targets = logAndApply(current, mutation);
                    outcome = CompareAndSet.Outcome.success();
                } else {
                    List<Column> columns = new ArrayList<>(found.size());
                    for (Cell c : found) columns.add((Column) c);
                    outcome = CompareAndSet.Outcome.failure(columns);
                }
            } finally {
                lock.unlock();
            }
        } finally {
            switchLock.readLock().unlock();
        }
        for (ColumnFamilyStore store : targets) persistence.afterWrite(this, store);
        return outcome;
    }

    /**
     * Applies a mutation read back from the log at start-up, without logging it again. Deltas of
     * column families this keyspace no longer has were dropped by the reader.
     */
    public void replay(ResolvedMutation mutation) {
        if (!mutation.keyspace().equals(name())) {
            throw new IllegalArgumentException("mutation for keyspace " + mutation.keyspace() + " replayed into " + name());
        }
        DecoratedKey key = partitioner.decorateKey(mutation.key());
        ReentrantLock lock = rowLock(mutation.key());
        lock.lock();
        try {
            for (ColumnFamily row : mutation.columnFamilies()) {
                store(row.metadata().name()).apply(key, new ColumnFamilyStore.Delta(row, operations(row)));
            }
        } finally {
            lock.unlock();
        }
    }

    private ReentrantLock rowLock(String key) {
        return rowLocks[Math.floorMod(key.hashCode(), LOCK_STRIPES)];
    }

    /**
     * The column operations a replayed delta stands for, for the memtable's flush threshold:
     * each column, subcolumn and tombstone counts one, as each change counted when first applied.
     */
    private static int operations(ColumnFamily row) {
        int operations = row.isMarkedForDelete() ? 1 : 0;
        for (Cell cell : row.cells()) {
            if (cell instanceof SuperColumn sc) {
                operations += sc.subcolumnCount() + (sc.isMarkedForDelete() ? 1 : 0);
            } else {
                operations++;
            }
        }
        return Math.max(1, operations);
    }
}
