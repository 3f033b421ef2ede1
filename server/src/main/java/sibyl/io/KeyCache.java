package sibyl.io;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import sibyl.dht.DecoratedKey;

/**
 * KeysCached: where the rows of recently read keys lie in one column family's SSTables, so a
 * point read of a cached key goes from the bloom filter straight to the data file and reads no
 * index. Shared by all SSTables of the column family, each entry naming its SSTable by
 * generation.
 *
 * <p>Staleness: an SSTable never changes, so an entry is right for as long as its SSTable
 * exists, and generations are not reused while the node runs, so only a read of the entry's own
 * SSTable can find it. A compaction's inputs therefore need no invalidation to stay correct;
 * their entries are dropped when their files close ({@link SSTableReader#release}), to free
 * the room, and the keys they held are cached again for the output ({@link Compaction}).
 *
 * <p>Point reads run on the network threads, so a hit takes no lock: one lookup in a
 * {@link ConcurrentHashMap} and, the first time since the last eviction sweep, setting the
 * entry's "referenced" mark. Evicting uses CLOCK (second chance), which approximates LRU without
 * reordering a list on every hit: a hand passes over the entries, clearing the mark of those read
 * since it last passed and replacing the first one not read. Inserts take a lock of their own; they
 * follow an index read, which costs far more. The hand walks an array of the entries rather than
 * the hash map: with a cache much smaller than the keys read (0.6's sample configuration caches
 * 1,000), every read inserts and evicts, and stepping a map's iterator over its sparse table was
 * 6% of the CPU time of a point read's Java code.
 */
public final class KeyCache {
    /** Which SSTable and key; the key's hash already spreads well. */
    private record Key(int generation, DecoratedKey key) {
        @Override
        public int hashCode() {
            return key.hashCode() * 31 + generation;
        }
    }

    /** Where the row is, and whether it was read since the sweep last passed. */
    private static final class Slot {
        final Key key;
        final long dataOffset;
        final int rowLength;
        final long indexPosition;
        /**
         * Set by hits and cleared by the sweep without synchronization: a lost update only
         * changes which entry is evicted, never what a read finds.
         */
        boolean referenced;

        Slot(Key key, IndexEntry entry) {
            this.key = key;
            this.dataOffset = entry.dataOffset();
            this.rowLength = entry.rowLength();
            this.indexPosition = entry.position();
        }
    }

    private final ConcurrentHashMap<Key, Slot> entries = new ConcurrentHashMap<>();
    private final LongAdder requests = new LongAdder();
    private final LongAdder hits = new LongAdder();
    /** Held by every change of the entries: inserts, evictions, invalidations. */
    private final ReentrantLock changing = new ReentrantLock();
    /** The slots of all entries, in [0, filled), in the order the hand passes them; grows up to the capacity. */
    private Slot[] ring = new Slot[0]; // guarded by changing
    private int filled; // guarded by changing
    /** Where in the ring the next eviction looks first. */
    private int hand; // guarded by changing
    private volatile int capacity;

    /** @param capacity entries kept; 0 disables the cache */
    public KeyCache(int capacity) {
        checkCapacity(capacity);
        this.capacity = capacity;
    }

    private static void checkCapacity(int capacity) {
        if (capacity < 0) throw new IllegalArgumentException("key cache capacity must not be negative: " + capacity);
    }

    public int capacity() {
        return capacity;
    }

    /** Changes the capacity (a fraction of a growing column family's keys), evicting down to it at once. */
    public void setCapacity(int capacity) {
        checkCapacity(capacity);
        changing.lock();
        try {
            this.capacity = capacity;
            while (filled > capacity) removeAt(victim());
            if (ring.length > capacity) ring = Arrays.copyOf(ring, filled);
        } finally {
            changing.unlock();
        }
    }

    public int size() {
        return entries.size();
    }

    /** Lookups since start, not counting those made while the cache was off. */
    public long requests() {
        return requests.sum();
    }

    public long hits() {
        return hits.sum();
    }

    /** Hits as a fraction of lookups; NaN before any. */
    public double hitRate() {
        long n = requests.sum();
        return n == 0 ? Double.NaN : (double) hits.sum() / n;
    }

    /** The cached entry of {@code key} in SSTable {@code generation}, or null. */
    IndexEntry get(int generation, DecoratedKey key) {
        if (capacity == 0) return null;
        requests.increment();
        Slot slot = entries.get(new Key(generation, key));
        if (slot == null) return null;
        hits.increment();
        // Write only when it changes, so hits on a popular entry do not keep dirtying its cache line.
        if (!slot.referenced) slot.referenced = true;
        return new IndexEntry(key.key(), slot.dataOffset, slot.rowLength, slot.indexPosition);
    }

    /** Whether {@code key} is cached for SSTable {@code generation}; neither counted as a lookup nor a use. */
    boolean contains(int generation, DecoratedKey key) {
        return capacity != 0 && entries.containsKey(new Key(generation, key));
    }

    /** Caches where {@code key}'s row lies in SSTable {@code generation}. */
    void put(int generation, DecoratedKey key, IndexEntry entry) {
        if (capacity == 0) return;
        Key k = new Key(generation, key);
        Slot slot = new Slot(k, entry);
        changing.lock();
        try {
            int limit = capacity;
            if (limit == 0 || entries.putIfAbsent(k, slot) != null) return;
            if (filled < limit) {
                if (filled == ring.length) ring = Arrays.copyOf(ring, Math.min(limit, Math.max(16, 2 * filled)));
                ring[filled++] = slot;
                return;
            }
            int at = victim();
            entries.remove(ring[at].key, ring[at]);
            ring[at] = slot;
        } finally {
            changing.unlock();
        }
    }

    /** Drops every entry of SSTable {@code generation} (its files are closed). */
    void invalidate(int generation) {
        changing.lock();
        try {
            int kept = 0;
            for (int i = 0; i < filled; i++) {
                Slot slot = ring[i];
                if (slot.key.generation() == generation) {
                    entries.remove(slot.key, slot);
                } else {
                    ring[kept++] = slot;
                }
            }
            Arrays.fill(ring, kept, filled, null);
            filled = kept;
            if (hand >= filled) hand = 0;
        } finally {
            changing.unlock();
        }
    }

    /** The distinct keys cached, over all SSTables, in no particular order (what a saved key cache holds). */
    public List<DecoratedKey> keys() {
        Set<DecoratedKey> keys = new HashSet<>();
        for (Key k : entries.keySet()) keys.add(k.key());
        return new ArrayList<>(keys);
    }

    /**
     * Where the entry to evict is, the hand left just past it: the first the hand meets not read since it last
     * passed. Each mark is cleared at most once per pass, so two passes suffice; the bound only matters when
     * readers re-mark entries as fast as the hand clears them. The ring must not be empty.
     */
    private int victim() {
        long secondChances = 2L * filled + 1;
        while (true) {
            if (hand >= filled) hand = 0;
            Slot slot = ring[hand++];
            if (slot.referenced && secondChances-- > 0) {
                slot.referenced = false;
            } else {
                return hand - 1;
            }
        }
    }

    /** Evicts the entry at {@code at}, the last one of the ring taking its place. */
    private void removeAt(int at) {
        Slot slot = ring[at];
        entries.remove(slot.key, slot);
        ring[at] = ring[--filled];
        ring[filled] = null;
    }
}
