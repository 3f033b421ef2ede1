package sibyl.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.db.CFMetaData;
import sibyl.db.CacheConfig;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;
import sibyl.io.SSTableReader;
import sibyl.io.SavedCacheFile;
import sibyl.io.SavedCacheFile.Kind;

/**
 * Cassandra 0.6.6's saved caches, and PreloadRowCache. Every KeyCacheSavePeriodInSeconds
 * (RowCacheSavePeriodInSeconds) the keys a store's key (row) cache holds are written to
 * SavedCachesDirectory ({@link SavedCacheFile}); so they are on drain and on a clean shutdown.
 * At start-up, once the SSTables are open and the commit log replayed and before anything is
 * served, {@link #load} reads them back: the row cache by reading the saved keys' rows, the key
 * cache by looking its keys up in the SSTables; then PreloadRowCache fills what room the row
 * cache has left with rows in ring order.
 *
 * <p>Nothing here may stop a node from starting: a saved cache that cannot be believed is
 * logged once and ignored, and keys of rows that no longer exist are passed over.
 */
final class SavedCaches implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SavedCaches.class);

    private final Path directory; // null: caches are neither saved nor loaded
    private final Partitioner partitioner;
    private final List<ColumnFamilyStore> stores = new ArrayList<>(); // guarded by this
    /** The periodic saves of each store, cancelled when a reload changes its periods or removes it. */
    private final Map<ColumnFamilyStore, List<ScheduledFuture<?>>> saving = new HashMap<>(); // guarded by this
    private ScheduledExecutorService timer; // guarded by this; created when a period is first set
    /** Whether saving may replace what is on disk: not before the caches were loaded and the node started. */
    private boolean started; // guarded by this
    private boolean closed; // guarded by this: no save is scheduled after close

    /** @param directory SavedCachesDirectory; null when caches are neither saved nor loaded */
    SavedCaches(Path directory, Partitioner partitioner) {
        this.directory = directory;
        this.partitioner = partitioner;
    }

    /** Fills the store's caches at start-up and saves them from then on; call before any read or write of the store. */
    void load(ColumnFamilyStore store) {
        fill(store);
        track(store);
    }

    /**
     * Fills the store's caches from their saved copies and, where PreloadRowCache asks, from the
     * rows, as at start-up: for a column family a reload adds, before it is served.
     */
    void fill(ColumnFamilyStore store) {
        String name = store.metadata().keyspace() + "." + store.metadata().name();
        if (directory != null && store.rowCache().isEnabled()) {
            readKeys(directory, store, Kind.ROWS, store.rowCache().capacity()).ifPresent(keys -> fill(name, Kind.ROWS, () -> {
                long started = System.nanoTime();
                int cached = 0;
                for (String key : keys) {
                    if (store.cacheRow(partitioner.decorateKey(key))) cached++;
                }
                log.info("Row cache of {}: {} of {} saved rows read in {} ms", name, cached, keys.size(),
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            }));
        }
        if (directory != null && store.keyCache().capacity() > 0) {
            readKeys(directory, store, Kind.KEYS, store.keyCache().capacity()).ifPresent(keys -> fill(name, Kind.KEYS, () -> {
                long started = System.nanoTime();
                List<DecoratedKey> ringOrder = new ArrayList<>(keys.size());
                for (String key : keys) ringOrder.add(partitioner.decorateKey(key));
                ringOrder.sort(null);
                int cached = 0;
                for (SSTableReader sstable : store.liveSSTables()) cached += sstable.cacheKeys(ringOrder);
                log.info("Key cache of {}: {} positions of {} saved keys looked up in {} ms", name, cached,
                        keys.size(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            }));
        }
        if (store.cacheConfig().preloadRows() && store.rowCache().isEnabled()) {
            fill(name, Kind.ROWS, () -> {
                long started = System.nanoTime();
                int cached = store.preloadRowCache();
                log.info("Row cache of {} preloaded with {} rows in {} ms", name, cached,
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            });
        }
    }

    /** Runs one filling; a failure (an SSTable that cannot be read) leaves the cache as it got and is said once. */
    private static void fill(String name, Kind kind, Runnable filling) {
        try {
            filling.run();
        } catch (RuntimeException e) {
            log.warn("Filling the {} of {} at start-up stopped: {}", kind.description(), name, e.toString());
        }
    }

    /** The saved keys, or empty when there are none or they cannot be used (said in one line). */
    private Optional<List<String>> readKeys(Path directory, ColumnFamilyStore store, Kind kind, int maxKeys) {
        CFMetaData cf = store.metadata();
        try {
            return SavedCacheFile.read(directory, cf.keyspace(), cf.name(), kind, maxKeys);
        } catch (IOException | RuntimeException e) {
            log.warn("Ignoring the saved {} {}: {}", kind.description(),
                    SavedCacheFile.path(directory, cf.keyspace(), cf.name(), kind), e.getMessage());
            return Optional.empty();
        }
    }

    /** Saves each loaded store's caches every period its configuration gives; none when there is no directory. */
    synchronized void start() {
        if (started) return;
        started = true;
        for (ColumnFamilyStore store : stores) schedule(store);
    }

    /** Saves the store's caches from now on (once started), as its configuration says. */
    synchronized void track(ColumnFamilyStore store) {
        if (stores.contains(store)) return;
        stores.add(store);
        if (started) schedule(store);
    }

    /** A reload removed the store's column family: its caches are saved no more. */
    synchronized void untrack(ColumnFamilyStore store) {
        cancel(store);
        stores.remove(store);
    }

    /** A reload changed the store's caches: their saves follow the periods it has now. */
    synchronized void reschedule(ColumnFamilyStore store) {
        if (!stores.contains(store) || !started) return;
        cancel(store);
        schedule(store);
    }

    private void schedule(ColumnFamilyStore store) {
        if (directory == null || closed) return;
        List<ScheduledFuture<?>> saves = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            Duration period = period(store, kind);
            if (period.isZero()) continue;
            if (timer == null) {
                ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, EngineThreads.named("cache-saver"));
                t.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
                timer = t;
            }
            saves.add(timer.scheduleWithFixedDelay(() -> save(store, kind), period.toMillis(), period.toMillis(),
                    TimeUnit.MILLISECONDS));
        }
        if (!saves.isEmpty()) saving.put(store, saves);
    }

    private void cancel(ColumnFamilyStore store) {
        List<ScheduledFuture<?>> saves = saving.remove(store);
        if (saves != null) saves.forEach(f -> f.cancel(false));
    }

    private static Duration period(ColumnFamilyStore store, Kind kind) {
        CacheConfig config = store.cacheConfig();
        return kind == Kind.KEYS ? config.keySavePeriod() : config.rowSavePeriod();
    }

    /**
     * Saves every cache whose save period is set, now (drain, shutdown, tests).
     *
     * @return files written
     */
    synchronized int saveAll() {
        if (!started || directory == null) return 0;
        int saved = 0;
        for (ColumnFamilyStore store : stores) {
            for (Kind kind : Kind.values()) {
                if (!period(store, kind).isZero() && save(store, kind)) saved++;
            }
        }
        return saved;
    }

    /** Writes one cache's keys; a failure is logged and the next period tries again. */
    private synchronized boolean save(ColumnFamilyStore store, Kind kind) {
        CFMetaData cf = store.metadata();
        try {
            long started = System.nanoTime();
            List<DecoratedKey> cached = kind == Kind.KEYS ? store.keyCache().keys() : store.rowCache().keys();
            List<String> keys = new ArrayList<>(cached.size());
            for (DecoratedKey key : cached) keys.add(key.key());
            SavedCacheFile.write(directory, cf.keyspace(), cf.name(), kind, keys);
            log.debug("Saved the {} of {}.{}: {} keys in {} ms", kind.description(), cf.keyspace(), cf.name(),
                    keys.size(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            return true;
        } catch (IOException | RuntimeException e) {
            log.warn("Cannot save the {} of {}.{} to {}: {}", kind.description(), cf.keyspace(), cf.name(),
                    directory, e.toString());
            return false;
        }
    }

    /** Stops saving periodically, then saves once more. */
    @Override
    public void close() {
        ScheduledExecutorService t;
        synchronized (this) {
            t = timer;
            closed = true;
        }
        if (t != null) {
            t.shutdown(); // a save under way finishes; an interrupt would only spoil it
            try {
                if (!t.awaitTermination(30, TimeUnit.SECONDS)) log.warn("A cache save is still running at shutdown");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        saveAll();
    }
}
