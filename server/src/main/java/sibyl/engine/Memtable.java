package sibyl.engine;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.concurrent.locks.ReentrantLock;
import sibyl.db.CFMetaData;
import sibyl.db.ColumnFamily;
import sibyl.db.RowSource;
import sibyl.dht.DecoratedKey;

/**
 * The in-memory, most recent rows of one column family: each key's immutable row version, in a
 * slot reachable from a hash map, for the point reads and writes that are most calls (one lookup
 * instead of a descent through a skip list, which cost a third of a read's CPU time), and from a
 * concurrent sorted map, for scans, index samples and the flush, in ring order. Applying a change
 * swaps the slot's version for a merged one atomically, so readers see a row before a mutation or
 * after it, never in between.
 *
 * <p>A write never descends the sorted map either: a key new to the memtable enters the hash map
 * and is then pushed onto a stack of keys not yet in ring order. Putting each new key into the
 * skip list on the request thread cost about 2 µs of a 37 µs single-column insert (a profile of
 * the server under bin/stress), mostly cache misses of a descent to a random place. The stack is
 * folded into the sorted map, sorted, so that consecutive puts follow nearly the same path through
 * nodes still in cache. The folds run in the background, on the executor the memtable is given,
 * once a batch of keys is pending; whatever needs ring order folds what is left first. So a scan
 * after a burst of writes the sorter kept up with folds less than a batch, and waits for at most
 * the background fold under way, where folding all of a memtable's keys at once took 0.55 s for
 * 300,000. Should the sorter fall {@value #HELP_AFTER_BATCHES} batches behind, the writer
 * completing the last of them folds them itself, so a scan never inherits more.
 *
 * <p>What a scan ({@link #rowsFrom}, {@link #sampleKeys}) sees: every row whose write returned
 * before the scan began (its fold waits for a racing fold to finish putting the keys it took); a
 * write that returns while the scan runs may or may not be in it. A scan never sees a row a point
 * read could not, but may miss a new row a point read already sees: it then reads as if it came
 * before that write.
 *
 * <p>Tracks the serialized bytes and the number of column operations applied, the measures by
 * which a memtable is flushed (MemtableThroughputInMB, MemtableOperationsInMillions).
 */
public final class Memtable implements RowSource {
    /**
     * Pending keys that make a writer queue a background fold. Sorted batches of 2048 cost the sorter
     * 2.2-2.7 µs a key against 3.3-3.7 for batches of 1024 (no cheaper than a put per key on arrival)
     * and 2.0-2.1 for 4096, while a scan right after a burst waited 6-7 ms for folds of 2048 against
     * 5-6 for 1024 and 18 for 4096 (one thread writing 300,000 keys 10 µs apart on this 2-core machine).
     */
    static final int FOLD_BATCH = 2048;
    /**
     * Batches pending at which the writer that pushes the last key folds the stack itself: the sorter is
     * behind (writers faster than it, or it gets no core), and a scan would otherwise fold without bound.
     */
    static final int HELP_AFTER_BATCHES = 4;
    private static final Comparator<Slot> RING_ORDER = (a, b) -> a.key.compareTo(b.key);

    private final CFMetaData metadata;
    private final ConcurrentSkipListMap<DecoratedKey, Slot> sorted = new ConcurrentSkipListMap<>();
    private final ConcurrentHashMap<DecoratedKey, Slot> byKey = new ConcurrentHashMap<>();
    /**
     * The top of the stack of slots whose keys are in {@code byKey} but not yet in {@code sorted},
     * linked through {@link Slot#belowInStack}. A stack threaded through the slots themselves costs a
     * new key one compare-and-set and no allocation (a ConcurrentLinkedQueue would allocate a node
     * per key); its order does not matter since the fold sorts.
     */
    private final AtomicReference<Slot> unsorted = new AtomicReference<>();
    /**
     * Held from taking the stack until its keys are in {@code sorted}: a second scan must wait
     * instead of finding the stack empty while keys the first took are in neither place.
     */
    private final ReentrantLock fold = new ReentrantLock();
    /** Runs the background folds; the request threads only queue them. */
    private final Executor sorter;
    /** How many pending keys make a writer queue a background fold. */
    private final int foldBatch;
    /** Whether a background fold is queued or running: one at a time per memtable is enough, as each takes the whole stack. */
    private final AtomicBoolean foldScheduled = new AtomicBoolean();
    private final AtomicLong throughputBytes = new AtomicLong();
    private final AtomicLong operations = new AtomicLong();
    private final long createdAtMillis = System.currentTimeMillis();

    /**
     * A background fold for every {@value #FOLD_BATCH} keys pending.
     *
     * @param sorter runs the background folds; it must not make them wait behind slow work (a flush), since a
     *               scan then folds more itself. A direct executor ({@code Runnable::run}) makes the writer that
     *               completes a batch fold it.
     */
    public Memtable(CFMetaData metadata, Executor sorter) {
        this(metadata, sorter, FOLD_BATCH);
    }

    /** @param foldBatch how many pending keys make a writer queue a background fold */
    Memtable(CFMetaData metadata, Executor sorter, int foldBatch) {
        if (foldBatch < 1) throw new IllegalArgumentException("fold batch must be positive: " + foldBatch);
        this.metadata = metadata;
        this.sorter = sorter;
        this.foldBatch = foldBatch;
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
            Slot fresh = new Slot(key, delta);
            slot = byKey.putIfAbsent(key, fresh);
            if (slot == null) push(fresh);
        }
        if (slot != null) slot.merge(delta);
        throughputBytes.addAndGet(delta.serializedSize());
        this.operations.addAndGet(operations);
    }

    private void push(Slot slot) {
        Slot top;
        do {
            top = unsorted.get();
            slot.belowInStack = top;
            slot.depth = top == null ? 1 : top.depth + 1;
        } while (!unsorted.compareAndSet(top, slot));
        // Exactly one push reaches each multiple of the batch, since the depths on one stack count up by one;
        // a push that finds a fold already queued or running leaves the next one to it (foldInBackground).
        if (slot.depth % foldBatch == 0) {
            if (slot.depth % (foldBatch * HELP_AFTER_BATCHES) == 0) {
                foldUnsorted();
            } else {
                scheduleFold();
            }
        }
    }

    /** Queues a background fold unless one is queued or running already. */
    private void scheduleFold() {
        if (foldScheduled.get() || !foldScheduled.compareAndSet(false, true)) return;
        try {
            sorter.execute(this::foldInBackground);
        } catch (RejectedExecutionException e) {
            // The engine is stopping. The keys stay on the stack, where the next scan or flush folds them; the
            // writer of the next batch tries again.
            foldScheduled.set(false);
        }
    }

    /** For a memtable switched out since, the flush folded every key and this finds the stack empty. */
    private void foldInBackground() {
        try {
            foldUnsorted();
        } finally {
            foldScheduled.set(false);
        }
        // A writer that completed a batch while this fold ran found it scheduled and queued nothing. It pushed
        // before reading the flag, this cleared the flag before reading the stack: one of the two sees the
        // other's write and queues the next fold, so a full batch is never left waiting for a scan.
        Slot top = unsorted.get();
        if (top != null && top.depth >= foldBatch) scheduleFold();
    }

    /** Keys pushed and not yet taken by a fold. */
    int pendingCount() {
        Slot top = unsorted.get();
        return top == null ? 0 : top.depth;
    }

    /** Puts every key pushed so far into {@code sorted}; on return, each of them is there. */
    private void foldUnsorted() {
        fold.lock();
        try {
            Slot top = unsorted.getAndSet(null);
            if (top == null) return;
            Slot[] slots = new Slot[top.depth];
            int i = 0;
            for (Slot s = top; s != null; i++) {
                slots[i] = s;
                Slot below = s.belowInStack;
                s.belowInStack = null;
                s = below;
            }
            Arrays.sort(slots, RING_ORDER);
            for (Slot s : slots) sorted.put(s.key, s);
        } finally {
            fold.unlock();
        }
    }

    @Override
    public ColumnFamily getRow(DecoratedKey key) {
        Slot slot = byKey.get(key);
        return slot == null ? null : slot.version;
    }

    @Override
    public Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rowsFrom(DecoratedKey from) {
        foldUnsorted();
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
        foldUnsorted();
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

    /** Where a row's current version lives; the version is replaced whole, never changed in place. */
    private static final class Slot {
        private static final AtomicReferenceFieldUpdater<Slot, ColumnFamily> VERSION =
                AtomicReferenceFieldUpdater.newUpdater(Slot.class, ColumnFamily.class, "version");

        final DecoratedKey key;
        volatile ColumnFamily version;
        /**
         * The next slot down the stack of unsorted keys while this one is on it; written before the push's
         * compare-and-set publishes it, read only by the fold that took the stack.
         */
        Slot belowInStack;
        /** How many slots the stack held with this one on top, this one included; written and read as belowInStack. */
        int depth;

        Slot(DecoratedKey key, ColumnFamily version) {
            this.key = key;
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
