package sibyl.engine;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.dht.Partitioner;
import sibyl.io.Descriptor;
import sibyl.io.SSTableReader;

/**
 * The durable side of the stores: loads their SSTables at start-up, flushes memtables into
 * new ones ({@link Flusher}) and compacts them ({@link Compactor}). A memory-only node has none.
 */
public final class StorageEngine implements Persistence, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StorageEngine.class);

    private final EngineSettings settings;
    private final Partitioner partitioner;
    private final Map<String, SSTableFiles> files = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;
    private final Flusher flusher;
    private final Compactor compactor;
    private final SavedCaches savedCaches;

    public StorageEngine(EngineSettings settings, Partitioner partitioner) {
        this.settings = settings;
        this.partitioner = partitioner;
        ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, EngineThreads.named("memtable-timer"));
        t.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        this.timer = t;
        this.compactor = new Compactor(settings, partitioner, store -> filesOf(store.metadata().keyspace()), timer);
        this.flusher = new Flusher(settings, partitioner, ks -> filesOf(ks.name()), compactor::maybeCompact, timer);
        this.savedCaches = new SavedCaches(settings.savedCachesDirectory(), partitioner);
    }

    public EngineSettings settings() {
        return settings;
    }

    private SSTableFiles filesOf(String keyspace) {
        SSTableFiles f = files.get(keyspace);
        if (f == null) throw new IllegalStateException("keyspace " + keyspace + " was not loaded");
        return f;
    }

    /**
     * Cleans the keyspace's directories of leftovers and opens every SSTable of its column
     * families into their stores. Before the commit log is replayed and before any write.
     *
     * @return SSTables opened
     */
    public int load(Keyspace keyspace) throws IOException {
        SSTableFiles ksFiles = SSTableFiles.open(settings.dataDirectories(), keyspace.name());
        files.put(keyspace.name(), ksFiles);
        int opened = 0;
        for (ColumnFamilyStore store : keyspace.stores()) {
            List<SSTableReader> readers = new ArrayList<>();
            try {
                for (Descriptor d : ksFiles.list(store.metadata().name())) {
                    readers.add(SSTableReader.open(d, store.metadata(), partitioner, settings.indexInterval(),
                            store.keyCache(), settings.fileAccess()));
                }
            } catch (IOException | RuntimeException e) {
                for (SSTableReader r : readers) r.release();
                throw e;
            }
            store.addSSTables(readers);
            store.configureCaches(store.metadata().caches());
            opened += readers.size();
        }
        return opened;
    }

    /**
     * Fills the keyspace's caches from their saved copies and, where PreloadRowCache asks, from
     * the rows: after replay (so rows read are whole) and before {@link #start} and the first
     * read. Never fails; what cannot be loaded is logged and skipped.
     */
    public void loadCaches(Keyspace keyspace) {
        for (ColumnFamilyStore store : keyspace.stores()) savedCaches.load(store);
    }

    /**
     * Saves now every cache that has a save period (drain and tests; the periods and a clean
     * shutdown save them anyway).
     *
     * @return saved cache files written
     */
    @Override
    public int saveCaches() {
        return savedCaches.saveAll();
    }

    /**
     * Starts background work once replay is done: flushes memtables replay filled past their
     * limits, queues compaction checks, checks memtable ages and saves caches periodically.
     */
    public void start(Collection<Keyspace> keyspaces) {
        savedCaches.start();
        for (Keyspace ks : keyspaces) {
            for (ColumnFamilyStore store : ks.stores()) {
                flusher.afterWrite(ks, store);
                compactor.maybeCompact(store);
            }
        }
        long period = Math.max(100, Math.min(10_000, settings.memtableLimits().flushAfter().toMillis() / 4));
        timer.scheduleWithFixedDelay(() -> {
            try {
                flusher.flushOld(keyspaces);
            } catch (RuntimeException e) {
                log.error("Memtable age check failed", e);
            }
        }, period, period, TimeUnit.MILLISECONDS);
    }

    /** After a write to the store: switches its memtable out if full (may wait for a pending flush). */
    @Override
    public void afterWrite(Keyspace keyspace, ColumnFamilyStore store) {
        flusher.afterWrite(keyspace, store);
    }

    /**
     * Flushes the store's memtable; the future completes when it and all older ones are in
     * SSTables, or fails with a TimeoutException when the memtable cannot be switched out by
     * {@code deadlineNanos} (of {@link System#nanoTime}) because earlier flushes keep failing.
     */
    @Override
    public CompletableFuture<Void> forceFlush(Keyspace keyspace, ColumnFamilyStore store, long deadlineNanos)
            throws InterruptedException {
        return flusher.forceFlush(keyspace, store, deadlineNanos);
    }

    /**
     * Compacts all of the store's SSTables into one, purging tombstones older than GCGraceSeconds;
     * at once, even while the store's background compaction backs off after a failure.
     */
    @Override
    public CompletableFuture<Void> forceMajorCompaction(ColumnFamilyStore store) {
        return compactor.major(store);
    }

    /** Flushes and compactions queued or running. */
    public int pendingTasks() {
        return flusher.pendingCount() + compactor.pendingCount();
    }

    /** Memtables switched out over the node and not yet written (each holds a flush permit). */
    public int pendingFlushes() {
        return flusher.pendingCount();
    }

    /** Compactions queued or running. */
    public int pendingCompactions() {
        return compactor.pendingCount();
    }

    /** Whether writers may have to wait for flushes now: as many memtables wait to be written as may. */
    @Override
    public boolean flushBacklogged() {
        return flusher.backlogged();
    }

    public long flushFailures() {
        return flusher.failureCount();
    }

    /** Compactions that failed since start (each backs its store's compaction off for a while). */
    public long compactionFailures() {
        return compactor.failureCount();
    }

    /** Compactions completed since start. */
    public long compactionsCompleted() {
        return compactor.completedCount();
    }

    /** The column family and reason of the most recent flush failure; empty before any. */
    @Override
    public Optional<String> lastFlushFailure() {
        return flusher.lastFailure();
    }

    /**
     * Stops background work: lets flushes under way end, interrupts compaction (its partial
     * output is deleted), saves the caches that have a save period (when the engine got as far
     * as starting), and closes every SSTable. What was not flushed is in the commit log.
     */
    @Override
    public void close(Collection<Keyspace> keyspaces) {
        timer.shutdownNow();
        flusher.close();
        compactor.close();
        savedCaches.close();
        for (Keyspace ks : keyspaces) {
            for (ColumnFamilyStore store : ks.stores()) store.closeSSTables();
        }
    }

    @Override
    public void close() {
        close(List.of());
    }
}
