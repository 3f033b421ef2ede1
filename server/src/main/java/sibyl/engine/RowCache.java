package sibyl.engine;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import sibyl.db.ColumnFamily;
import sibyl.dht.DecoratedKey;

/**
 * RowsCached: whole rows of one column family, merged from every source, most recently used
 * kept. Writes merge their delta into a cached row, so a cached row is always what a read of all
 * sources would return.
 *
 * <p>A read that misses must not cache a row a concurrent write has already moved past. So it
 * first reserves the key with a unique placeholder, then reads the sources, then swaps its row in
 * only if its placeholder is still there; a write in between removes the placeholder.
 *
 * <p>Once the cache is full, a missed row enters it only when it is read a second time soon
 * after ({@link #admits}): a cache much smaller than the rows being read would otherwise read
 * every missed row whole from every source, only to evict a row that was worth keeping. Rows
 * read once then go the way of reads of an uncached column family, which read only the columns
 * they select. While the cache has room, every missed row enters it, as in 0.6.
 */
public final class RowCache {
    /** A read's reservation of a key it is about to fill. */
    public static final class Reservation {
        private Reservation() {
        }
    }

    private volatile int capacity; // written under this
    private final Map<DecoratedKey, Object> entries; // guarded by this; ColumnFamily or Reservation
    private final AtomicLong hits = new AtomicLong();
    /**
     * The doorkeeper of {@link #admits}: slot {@code hash & (length - 1)} holds the hash (made
     * non-zero) of the last missed key that fell there. Read and written without locks: a lost
     * update only delays or hastens one admission.
     */
    private volatile int[] recentMisses = new int[0];
    private final AtomicLong requests = new AtomicLong();

    /** @param capacity rows kept; 0 disables the cache */
    public RowCache(int capacity) {
        if (capacity < 0) throw new IllegalArgumentException("row cache capacity must not be negative: " + capacity);
        this.capacity = capacity;
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<DecoratedKey, Object> eldest) {
                return size() > RowCache.this.capacity;
            }
        };
    }

    public boolean isEnabled() {
        return capacity > 0;
    }

    public int capacity() {
        return capacity;
    }

    /**
     * Changes the capacity (a fraction of a growing column family's keys), dropping the least
     * recently used rows beyond it at once; 0 turns the cache off.
     */
    public synchronized void setCapacity(int capacity) {
        if (capacity < 0) throw new IllegalArgumentException("row cache capacity must not be negative: " + capacity);
        this.capacity = capacity;
        Iterator<DecoratedKey> eldestFirst = entries.keySet().iterator();
        while (entries.size() > capacity && eldestFirst.hasNext()) {
            eldestFirst.next();
            eldestFirst.remove();
        }
    }

    /** The keys of the rows cached, least recently used first (what a saved row cache holds). */
    public synchronized List<DecoratedKey> keys() {
        List<DecoratedKey> keys = new ArrayList<>(entries.size());
        for (Map.Entry<DecoratedKey, Object> e : entries.entrySet()) {
            if (e.getValue() instanceof ColumnFamily) keys.add(e.getKey());
        }
        return keys;
    }

    public synchronized int size() {
        return entries.size();
    }

    /** The cached row, or null on a miss. */
    public synchronized ColumnFamily get(DecoratedKey key) {
        requests.incrementAndGet();
        Object e = entries.get(key);
        if (e instanceof ColumnFamily row) {
            hits.incrementAndGet();
            return row;
        }
        return null;
    }

    /**
     * Whether a read that missed {@code key} should read the whole row and cache it: always
     * while the cache has room; once it is full, only for a key that missed recently too (one of
     * roughly the last {@link #doorkeeperSlots} misses).
     */
    public boolean admits(DecoratedKey key) {
        int capacity;
        synchronized (this) {
            capacity = this.capacity;
            if (entries.size() < capacity) return true;
        }
        int[] slots = recentMisses;
        int wanted = doorkeeperSlots(capacity);
        if (slots.length != wanted) recentMisses = slots = new int[wanted];
        int hash = key.hashCode();
        hash ^= hash >>> 16;
        int slot = hash & (slots.length - 1);
        int mark = hash | 1;
        if (slots[slot] == mark) {
            slots[slot] = 0;
            return true;
        }
        slots[slot] = mark;
        return false;
    }

    /** Eight slots a cached row, at least 1024 and at most 2^20 (4 MiB), a power of two. */
    static int doorkeeperSlots(int capacity) {
        long wanted = Math.max(1024L, Math.min(1L << 20, 8L * capacity));
        return Integer.highestOneBit((int) wanted - 1) << 1;
    }

    /** Reserves {@code key} for a read about to fill it. */
    public synchronized Reservation reserve(DecoratedKey key) {
        Reservation r = new Reservation();
        entries.putIfAbsent(key, r);
        return r;
    }

    /**
     * Caches the row read after {@link #reserve}, unless a write came in between.
     *
     * @return whether the row was cached
     */
    public synchronized boolean fill(DecoratedKey key, Reservation reservation, ColumnFamily row) {
        if (entries.get(key) != reservation) return false;
        if (row == null) {
            entries.remove(key);
            return false;
        }
        entries.put(key, row);
        return true;
    }

    /** A write to {@code key}: merged into the cached row, or cancels a read's reservation. */
    public synchronized void write(DecoratedKey key, ColumnFamily delta) {
        Object e = entries.get(key);
        if (e instanceof ColumnFamily row) entries.put(key, ColumnFamily.merge(row, delta));
        else if (e != null) entries.remove(key);
    }

    /**
     * Forgets every row (a truncate), and every read's reservation with them, so a read that began before
     * cannot cache what it found.
     */
    public synchronized void clear() {
        entries.clear();
    }

    /** Lookups since start, not counting those made while the cache was off. */
    public long requests() {
        return requests.get();
    }

    public long hits() {
        return hits.get();
    }

    /** Hits as a fraction of lookups; NaN before any. */
    public double hitRate() {
        long n = requests.get();
        return n == 0 ? Double.NaN : (double) hits.get() / n;
    }
}
