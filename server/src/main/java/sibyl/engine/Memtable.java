package sibyl.engine;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
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
 * once a batch of keys is pending, and when a scan finds keys pending that the scan before it found
 * too (else keys left over once writes stop would be gone through by every scan until the flush;
 * {@link #foldLeftovers}). Should the sorter fall
 * {@value #HELP_AFTER_BATCHES} batches behind, the writer completing the last of them folds them
 * itself, so that a scan never has many more to go through.
 *
 * <p>Whatever needs ring order ({@link #rowsFrom}: scans and the flush; {@link #sampleKeys}) never
 * folds and never waits for a fold: it takes a snapshot of the keys not yet in the sorted map (the
 * stack as it is, and the batch a fold under way took from it, which the fold publishes sorted
 * before its puts), keeps those of the stack at or after where it starts in a heap, and merges
 * them with the batch and the sorted map's iteration, each key once (a fold that completes
 * meanwhile puts a key in more than one; it is the same slot in each, so any copy gives the same
 * row). Folding instead made the first scan after a burst of writes take 6-27 ms where a put per key
 * kept it under 0.2 ms, and would have made every scan under sustained writes of new keys fold up
 * to a batch. The flush reads the frozen memtable through the same merge rather than folding
 * first: no writer adds keys then, so its snapshot is exactly the keys pending, heaping them is
 * cheaper than sorting and putting them, and it never waits behind a background fold.
 *
 * <p>What a scan ({@link #rowsFrom}, {@link #sampleKeys}) sees: every row whose write returned
 * before the scan began; a write that returns while the scan runs may or may not be in it. A key
 * leaves the stack only in a fold, which publishes the batch in {@link #folding} before the
 * compare-and-set that takes it off the stack and clears it only once all of the batch is in the
 * sorted map; the scan reads the stack's top first and {@code folding} second. A key written before
 * the scan began is on the stack the scan reads, unless a fold took it before that read; then the
 * scan's read of {@code folding}, later, finds that batch, or a later value written after the
 * batch's keys were put (null, or a next fold's batch, which starts only once this one is done),
 * and the sorted map's iteration, begun after that, holds them. No lock is needed and a scan never
 * waits. Neither the fold nor anything else clears a slot's link down the stack, so a scan may walk
 * a chain a fold has taken; a stale chain links only slots of this memtable, which its hash map
 * holds anyway, and goes with it. A scan never sees a row a point read could not, but may miss a
 * new row a point read already sees: it then reads as if it came before that write.
 *
 * <p>Tracks the serialized bytes and the number of column operations applied, the measures by
 * which a memtable is flushed (MemtableThroughputInMB, MemtableOperationsInMillions).
 */
public final class Memtable implements RowSource {
    /**
     * Pending keys that make a writer queue a background fold. Sorted batches of 2048 cost the sorter
     * 2.2-2.7 µs a key against 3.3-3.7 for batches of 1024 (no cheaper than a put per key on arrival)
     * and 2.0-2.1 for 4096 (one thread writing 300,000 keys 10 µs apart on this 2-core machine). A scan
     * heaps the keys pending on the stack, so a larger batch would make scans under writes dearer.
     */
    static final int FOLD_BATCH = 2048;
    /**
     * Batches pending at which the writer that pushes the last key folds the stack itself: the sorter is
     * behind (writers faster than it, or it gets no core), and every scan would otherwise walk and heap a
     * stack without bound.
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
     * The batch the fold under way takes or took from the stack, from before it leaves the stack until
     * all of it is in {@code sorted}; null between folds. Scans read it after the stack's top, so that a
     * key is always in one of the places they look (class comment).
     */
    private volatile Batch folding;
    /**
     * The stack's top the last scan found, for {@link #foldLeftovers}; a plain field, since a scan that reads a
     * stale value only asks for a fold one scan late, or early.
     */
    private Slot lastScannedTop;
    /**
     * One fold at a time: it holds this from taking the stack until its keys are in {@code sorted}. Scans never
     * take it.
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
     * @param sorter runs the background folds; it must not make them wait behind slow work (a flush), since
     *               scans then have more pending keys to go through. A direct executor ({@code Runnable::run})
     *               makes the writer that completes a batch fold it.
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
            // The engine is stopping. The keys stay on the stack, where scans and the flush read them through
            // their merge; the writer of the next batch tries again.
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

    /** Whether a fold has published a batch it is taking or has taken off the stack and not yet put all of. */
    boolean foldUnderWay() {
        return folding != null;
    }

    /** Puts every key pushed so far into {@code sorted}; on return, each of them is there. */
    private void foldUnsorted() {
        fold.lock();
        try {
            Slot top;
            Batch batch;
            do {
                top = unsorted.get();
                if (top == null) return;
                // Published before the keys leave the stack: a scan that finds the stack without them finds them here.
                batch = new Batch(top);
                folding = batch;
            } while (!unsorted.compareAndSet(top, null)); // only a push can have changed the top meanwhile
            Slot[] slots = new Slot[top.depth];
            int n = collect(top, null, slots, 0);
            Arrays.sort(slots, 0, n, RING_ORDER);
            // Scans from here on search the sorted batch instead of walking and sorting it: the puts take ten times
            // as long as the sort.
            batch.inRingOrder = slots;
            for (int i = 0; i < n; i++) sorted.put(slots[i].key, slots[i]);
            // Only now: a scan that reads null, or a next fold's batch, begins its iteration of sorted after these
            // puts.
            folding = null;
        } finally {
            fold.unlock();
        }
    }

    /**
     * Adds to {@code into} from {@code n} on the slots of the chain from {@code top} down its depth (the keys
     * pushed since the stack was last taken; the links below go on to slots taken before) whose keys are at or
     * after {@code from} (all of them if null); returns the new count.
     */
    private static int collect(Slot top, DecoratedKey from, Slot[] into, int n) {
        int count = top == null ? 0 : top.depth;
        Slot s = top;
        for (int i = 0; i < count; i++) {
            if (from == null || s.key.compareTo(from) >= 0) into[n++] = s;
            s = s.belowInStack;
        }
        return n;
    }

    /**
     * The slots at or after {@code from} (the whole ring if null), in ring order, each once: the keys not yet in
     * {@code sorted} (a snapshot) merged with its iteration. Folds nothing and waits for nothing.
     */
    private Iterator<Slot> slotsFrom(DecoratedKey from) {
        // The stack's top first, the fold's batch second (class comment: why in this order).
        Slot top = unsorted.get();
        Batch taken = folding;
        Iterator<Slot> inRingOrder = (from == null ? sorted : sorted.tailMap(from, true)).values().iterator();
        if (top == null && taken == null) return inRingOrder;
        Slot[] batchInRingOrder = taken == null ? null : taken.inRingOrder;
        int batchFrom = batchInRingOrder == null ? 0 : firstAtOrAfter(batchInRingOrder, from);
        // The stack, and the batch if its fold has not sorted it yet: walked, kept from where the scan starts, heaped.
        Slot unsortedBatch = batchInRingOrder == null && taken != null ? taken.top : null;
        Slot[] pending = new Slot[(top == null ? 0 : top.depth) + (unsortedBatch == null ? 0 : unsortedBatch.depth)];
        int n = collect(unsortedBatch, from, pending, collect(top, from, pending, 0));
        if (top != null) foldLeftovers(top);
        if (batchInRingOrder == null || batchFrom == batchInRingOrder.length) {
            if (n == 0) return inRingOrder;
            batchInRingOrder = EMPTY;
            batchFrom = 0;
        }
        return new MergedSlots(new PendingHeap(pending, n), batchInRingOrder, batchFrom, inRingOrder);
    }

    /**
     * Keys left on the stack once writes stop, fewer than a batch, would be walked and heaped by every scan until
     * the next batch or the flush: a scan that finds the stack as the previous scan found it (nothing pushed
     * between) asks the sorter to fold them. Not every scan that finds keys pending: with one thread writing new
     * keys 10 µs apart and another scanning every millisecond, the sorter then folded a hundred keys at a time, at
     * 4.95 µs of its CPU a key, more than the put per key on the request thread that this class avoids.
     * Called after the snapshot, so a direct executor folding right here changes nothing this scan sees.
     */
    private void foldLeftovers(Slot top) {
        if (top == lastScannedTop) {
            scheduleFold();
        } else {
            lastScannedTop = top;
        }
    }

    /** The index of the first of {@code slots}, in ring order, at or after {@code from} (0 if null). */
    private static int firstAtOrAfter(Slot[] slots, DecoratedKey from) {
        if (from == null) return 0;
        int low = 0;
        int high = slots.length;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (slots[mid].key.compareTo(from) < 0) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    @Override
    public ColumnFamily getRow(DecoratedKey key) {
        Slot slot = byKey.get(key);
        return slot == null ? null : slot.version;
    }

    @Override
    public Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rowsFrom(DecoratedKey from) {
        Iterator<Slot> slots = slotsFrom(from);
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return slots.hasNext();
            }

            @Override
            public Map.Entry<DecoratedKey, ColumnFamily> next() {
                Slot s = slots.next();
                return new AbstractMap.SimpleImmutableEntry<>(s.key, s.version);
            }
        };
    }

    @Override
    public List<DecoratedKey> sampleKeys(int interval) {
        List<DecoratedKey> samples = new ArrayList<>();
        int i = 0;
        for (Iterator<Slot> slots = slotsFrom(null); slots.hasNext(); ) {
            Slot s = slots.next();
            if (i++ % interval == 0) samples.add(s.key);
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

    /**
     * A fold's batch: the chain it took off the stack and, once the fold has sorted them, the same slots in ring
     * order.
     */
    private static final class Batch {
        /** The top of the chain; its depth counts the batch. */
        final Slot top;
        /** Written once, after the array is filled and sorted, and never changed. */
        volatile Slot[] inRingOrder;

        Batch(Slot top) {
            this.top = top;
        }
    }

    private static final Slot[] EMPTY = new Slot[0];

    /**
     * Three runs of slots in ring order merged into one, a slot in more than one given once: the snapshot of the
     * stack (with the fold's batch if it was not sorted yet: then a slot may be in it twice, the stack having
     * been read before the fold took it), the fold's sorted batch, and the sorted map's weakly consistent
     * iteration, which may also hold slots of the other two that a fold put meanwhile. A slot is the same object
     * wherever it is found (one per key).
     */
    private static final class MergedSlots implements Iterator<Slot> {
        private final PendingHeap pending;
        private final Slot[] batch;
        private int nextInBatch;
        private final Iterator<Slot> inRingOrder;
        /** The head of {@code inRingOrder} already taken from it, or null. */
        private Slot nextSorted;

        MergedSlots(PendingHeap pending, Slot[] batch, int batchFrom, Iterator<Slot> inRingOrder) {
            this.pending = pending;
            this.batch = batch;
            this.nextInBatch = batchFrom;
            this.inRingOrder = inRingOrder;
            this.nextSorted = inRingOrder.hasNext() ? inRingOrder.next() : null;
        }

        @Override
        public boolean hasNext() {
            return pending.peek() != null || nextInBatch < batch.length || nextSorted != null;
        }

        @Override
        public Slot next() {
            Slot least = pending.peek();
            if (nextInBatch < batch.length) least = lesser(least, batch[nextInBatch]);
            if (nextSorted != null) least = lesser(least, nextSorted);
            if (least == null) throw new NoSuchElementException();
            // past every copy of it
            while (pending.peek() == least) pending.pop();
            if (nextInBatch < batch.length && batch[nextInBatch] == least) nextInBatch++;
            if (nextSorted == least) nextSorted = inRingOrder.hasNext() ? inRingOrder.next() : null;
            return least;
        }

        private static Slot lesser(Slot a, Slot b) {
            return a == null || b.key.compareTo(a.key) < 0 ? b : a;
        }
    }

    /**
     * A scan's snapshot of the stack as a binary min-heap in ring order: a scan that reads its first rows only (a
     * range slice reads 100) pays the heap's construction, linear in the keys pending, and a sift per row read,
     * rather than sorting them all: the first scan of 100 rows after one thread wrote 300,000 new keys took 0.40 ms
     * with the heap against 0.57 sorting (writes 10 µs apart) and 0.58 against 1.9 (back to back); scans every
     * millisecond during the writes, median 0.069 ms against 0.126 (0.030 on main, which puts each key on
     * arrival). The keys pending are a few thousand at most, so one that reads them all (the flush, index samples)
     * loses little against a sort.
     */
    private static final class PendingHeap {
        private final Slot[] heap;
        private int size;

        /** Makes a heap of the first {@code size} slots of {@code slots}, in place. */
        PendingHeap(Slot[] slots, int size) {
            this.heap = slots;
            this.size = size;
            for (int i = size / 2 - 1; i >= 0; i--) siftDown(i);
        }

        /** The least slot, or null if none is left. */
        Slot peek() {
            return size == 0 ? null : heap[0];
        }

        void pop() {
            Slot last = heap[--size];
            heap[size] = null;
            if (size > 0) {
                heap[0] = last;
                siftDown(0);
            }
        }

        private void siftDown(int at) {
            Slot moving = heap[at];
            int i = at;
            int half = size >>> 1;
            while (i < half) {
                int child = 2 * i + 1;
                Slot least = heap[child];
                int right = child + 1;
                if (right < size && heap[right].key.compareTo(least.key) < 0) least = heap[child = right];
                if (moving.key.compareTo(least.key) <= 0) break;
                heap[i] = least;
                i = child;
            }
            heap[i] = moving;
        }
    }

    /** Where a row's current version lives; the version is replaced whole, never changed in place. */
    private static final class Slot {
        private static final AtomicReferenceFieldUpdater<Slot, ColumnFamily> VERSION =
                AtomicReferenceFieldUpdater.newUpdater(Slot.class, ColumnFamily.class, "version");

        final DecoratedKey key;
        volatile ColumnFamily version;
        /**
         * The next slot down the stack of unsorted keys; written before the push's compare-and-set publishes
         * this slot and never again (not cleared by the fold: a scan may be walking it), read by folds and scans.
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
