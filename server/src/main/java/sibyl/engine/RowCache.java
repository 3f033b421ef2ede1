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
