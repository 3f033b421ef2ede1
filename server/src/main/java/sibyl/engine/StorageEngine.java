package sibyl.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.db.CFMetaData;
import sibyl.db.KSMetaData;
import sibyl.db.SystemKeyspace;
import sibyl.dht.Partitioner;
import sibyl.io.DataFileInventory;
import sibyl.io.Descriptor;
import sibyl.io.SSTableFormat;
import sibyl.io.SSTableReader;
import sibyl.io.TruncationRecords;

/**
 * The durable side of the stores: loads their SSTables at start-up, flushes memtables into
 * new ones ({@link Flusher}) and compacts them ({@link Compactor}). A memory-only node has none.
 */
public final class StorageEngine implements Persistence, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StorageEngine.class);
    /**
     * What the service keeps in the system keyspace's directory: the node's token file and its temporary
     * (sibyl.service.NodeToken). Start-up leaves them to it.
     */
    /** The node's token (NodeToken) and the schema made by API (SchemaFile), beside the system keyspace's SSTables. */
    private static final Set<String> SYSTEM_SERVICE_FILES = Set.of("token", "token.tmp", "schema", "schema.tmp");

    /** Replaced as a whole when a reload changes the memtable thresholds or GCGraceSeconds. */
    private volatile EngineSettings settings;
    private final Partitioner partitioner;
    private final Map<String, SSTableFiles> files = new ConcurrentHashMap<>();
    /** Keyspaces {@link #inspect}ed and not loaded yet. */
    private final Map<String, SSTableFiles> inspected = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;
    /**
     * Folds memtables' new keys into ring order ({@link Memtable}). Its own thread, not the timer's: the
     * timer's age check switches memtables out, which waits for every write under way (in batch mode for
     * their commit log syncs), and a fold queued behind that leaves scans more pending keys to walk.
     */
    private final ExecutorService memtableSorter;
    private final Flusher flusher;
    private final Compactor compactor;
    private final SavedCaches savedCaches;
    private final Snapshots snapshots;
    private final Truncator truncator;

    public StorageEngine(EngineSettings settings, Partitioner partitioner) {
        this.settings = settings;
        this.partitioner = partitioner;
        ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, EngineThreads.named("memtable-timer"));
        t.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        this.timer = t;
        this.memtableSorter = Executors.newSingleThreadExecutor(EngineThreads.named("memtable-sorter"));
        this.snapshots = new Snapshots(settings.clock());
        this.compactor = new Compactor(this::settings, partitioner, store -> filesOf(store.metadata().keyspace()),
                timer, snapshots);
        this.flusher = new Flusher(this::settings, partitioner, ks -> filesOf(ks.name()), compactor::maybeCompact,
                timer);
        this.savedCaches = new SavedCaches(settings.savedCachesDirectory(), partitioner);
        this.truncator = new Truncator(flusher, snapshots, ks -> filesOf(ks.name()), settings.clock());
    }

    /** Where the stores' memtables fold their new keys into ring order in the background. */
    public Executor memtableSorter() {
        return memtableSorter;
    }

    /** The settings now: those the engine was built with, with the memtable thresholds and GCGraceSeconds of the last reload. */
    public EngineSettings settings() {
        return settings;
    }

    /**
     * A reload changed the configuration: the next write judges its memtable by the new thresholds, the next
     * compaction purges by the new GCGraceSeconds. The rest of the settings take a restart.
     */
    @Override
    public void retune(EngineSettings reloaded) {
        settings = settings.retunedTo(reloaded);
    }

    /**
     * Opens what the stores of column families a reload adds to {@code keyspace} find on disk, as start-up
     * does: their SSTables (a column family configured before, removed from the file and added again), with
     * their caches sized and filled. Nothing is served from them, and nothing they found is taken as the
     * node's own, until {@link NewStores#serve}.
     *
     * @throws IOException naming the column family when an SSTable of it cannot be opened; nothing stays open
     */
    @Override
    public NewStores open(String keyspace, List<ColumnFamilyStore> stores) throws IOException {
        SSTableFiles existing = files.get(keyspace);
        Set<String> columnFamilies = new HashSet<>();
        for (ColumnFamilyStore store : stores) columnFamilies.add(store.metadata().name());
        SSTableFiles ksFiles = existing != null ? existing
                : SSTableFiles.open(settings.dataDirectories(), keyspace, columnFamilies, serviceFiles(keyspace));
        List<Descriptor> found = new ArrayList<>();
        List<ColumnFamilyStore> opened = new ArrayList<>();
        try {
            for (ColumnFamilyStore store : stores) {
                List<Descriptor> sstables = ksFiles.unclaimed(store.metadata().name());
                List<SSTableReader> readers = new ArrayList<>();
                try {
                    for (Descriptor d : sstables) {
                        readers.add(SSTableReader.open(d, store.metadata(), partitioner, settings.indexInterval(),
                                store.keyCache(), settings.fileAccess()));
                    }
                } catch (IOException | RuntimeException e) {
                    for (SSTableReader r : readers) r.release();
                    throw new IOException("cannot open an SSTable of " + keyspace + "." + store.metadata().name()
                            + " found in its data directory: " + e.getMessage(), e);
                }
                store.addSSTables(readers);
                TruncationRecords.Truncation truncation = ksFiles.truncation(store.metadata().name());
                if (truncation != null) store.truncatedAt(truncation.position());
                opened.add(store);
                found.addAll(sstables);
                store.configureCaches(store.metadata().caches());
                savedCaches.fill(store);
            }
        } catch (IOException | RuntimeException e) {
            for (ColumnFamilyStore store : opened) store.closeSSTables();
            throw e;
        }
        return new NewStores() {
            @Override
            public void serve() {
                files.putIfAbsent(keyspace, ksFiles);
                ksFiles.cleanUp();
                ksFiles.claim(found);
                for (ColumnFamilyStore store : stores) {
                    savedCaches.track(store);
                    compactor.maybeCompact(store);
                }
                if (!found.isEmpty()) log.info("Loaded {} SSTable(s) of the new column families of {}: {}",
                        found.size(), keyspace, found);
            }

            @Override
            public void discard() {
                for (ColumnFamilyStore store : stores) store.closeSSTables();
            }
        };
    }

    /**
     * A reload was applied: the caches of {@code changed} stores are saved by their new periods; {@code removed}
     * stores (which held nothing) are no longer saved or flushed.
     */
    @Override
    public void reconfigured(List<ColumnFamilyStore> changed, List<ColumnFamilyStore> removed) {
        for (ColumnFamilyStore store : changed) savedCaches.reschedule(store);
        for (ColumnFamilyStore store : removed) {
            savedCaches.untrack(store);
            store.closeSSTables();
        }
    }

    private SSTableFiles filesOf(String keyspace) {
        SSTableFiles f = files.get(keyspace);
        if (f == null) throw new IllegalStateException("keyspace " + keyspace + " was not loaded");
        return f;
    }

    /**
     * Recognises every file of the keyspace's directories and opens every SSTable of its column families into
     * their stores: Sibyl's, and Cassandra 0.6's in place. Deletes nothing: what start-up deletes (leftovers of
     * interrupted writes, Cassandra 0.6 SSTables compaction replaced) goes at {@link #start}, once every
     * keyspace is loaded and the commit log replayed, so a start refused on the way leaves every file as it was.
     * Before the commit log is replayed and before any write.
     *
     * @return SSTables opened
     * @throws IOException naming every file the keyspace's directories hold that Sibyl does not recognise (see
     *                     {@link DataFileInventory}), or an SSTable that cannot be opened
     */
    public int load(Keyspace keyspace) throws IOException {
        SSTableFiles checked = inspected.remove(keyspace.name());
        SSTableFiles ksFiles;
        if (checked != null) {
            ksFiles = checked;
            ksFiles.inventory().logFindings("keyspace " + keyspace.name());
        } else {
            ksFiles = SSTableFiles.open(settings.dataDirectories(), keyspace.name(), columnFamilies(keyspace),
                    serviceFiles(keyspace.name()));
        }
        files.put(keyspace.name(), ksFiles);
        int opened = 0;
        int legacy = 0;
        for (ColumnFamilyStore store : keyspace.stores()) {
            List<SSTableReader> readers = new ArrayList<>();
            try {
                for (Descriptor d : ksFiles.list(store.metadata().name())) {
                    readers.add(SSTableReader.open(d, store.metadata(), partitioner, settings.indexInterval(),
                            store.keyCache(), settings.fileAccess()));
                    if (d.format() == SSTableFormat.CASSANDRA_06) legacy++;
                }
            } catch (IOException | RuntimeException e) {
                for (SSTableReader r : readers) r.release();
                throw e;
            }
            store.addSSTables(readers);
            TruncationRecords.Truncation truncation = ksFiles.truncation(store.metadata().name());
            if (truncation != null) store.truncatedAt(truncation.position());
            store.configureCaches(store.metadata().caches());
            opened += readers.size();
        }
        if (legacy > 0) {
            log.info("Keyspace {}: opened {} Cassandra 0.6 SSTable(s) in place, beside {} of Sibyl's; compaction"
                    + " rewrites them in Sibyl's format", keyspace.name(), legacy, opened - legacy);
        }
        return opened;
    }

    /**
     * Recognises every file of the keyspaces' directories at once, before any is loaded, so that a start refused
     * for files Sibyl does not recognise names every one of them, over all keyspaces, in one error. Optional:
     * {@link #load} checks a keyspace it was not given here on its own. Changes nothing on disk.
     *
     * @throws IOException naming each file neither Sibyl's nor a Cassandra 0.6 SSTable it reads, what it looks
     *                     like and what to do
     */
    public void inspect(Collection<KSMetaData> keyspaces) throws IOException {
        Map<String, SSTableFiles> found = new LinkedHashMap<>();
        for (KSMetaData ks : keyspaces) {
            Set<String> columnFamilies = new HashSet<>();
            for (CFMetaData cf : ks.columnFamilies()) columnFamilies.add(cf.name());
            found.put(ks.name(), SSTableFiles.inspect(settings.dataDirectories(), ks.name(), columnFamilies,
                    serviceFiles(ks.name())));
        }
        List<DataFileInventory> inventories = new ArrayList<>();
        for (SSTableFiles f : found.values()) inventories.add(f.inventory());
        DataFileInventory.refuseUnrecognised(inventories, (found.size() == 1 ? "keyspace " : "keyspaces ")
                + String.join(", ", found.keySet()));
        inspected.putAll(found);
    }

    private static Set<String> columnFamilies(Keyspace keyspace) {
        Set<String> names = new HashSet<>();
        for (ColumnFamilyStore store : keyspace.stores()) names.add(store.metadata().name());
        return names;
    }

    /** Files other parts of the node keep in the keyspace's directories, which start-up leaves alone. */
    private static Set<String> serviceFiles(String keyspace) {
        return keyspace.equals(SystemKeyspace.NAME) ? SYSTEM_SERVICE_FILES : Set.of();
    }

    /**
     * Opens the SSTables of the store's column family that appeared in its directories since
     * the node loaded them (bin/json2sstable output, files copied in) and adds them to the store,
     * whose compaction then considers them. One at a time, so two calls never add one twice.
     *
     * @return SSTables added
     * @throws IOException when one cannot be opened (damaged, another partitioner's); none is
     *                     added then, and a later call tries them again
     */
    @Override
    public synchronized int loadNewSSTables(Keyspace keyspace, ColumnFamilyStore store) throws IOException {
        SSTableFiles ksFiles = filesOf(keyspace.name());
        List<Descriptor> fresh = ksFiles.unclaimed(store.metadata().name());
        List<SSTableReader> readers = new ArrayList<>();
        for (Descriptor d : fresh) {
            try {
                readers.add(SSTableReader.open(d, store.metadata(), partitioner, settings.indexInterval(),
                        store.keyCache(), settings.fileAccess()));
            } catch (IOException | RuntimeException e) {
                for (SSTableReader r : readers) r.release();
                throw new IOException("cannot load sstable " + d + ": " + e.getMessage(), e);
            }
        }
        ksFiles.claim(fresh);
        if (readers.isEmpty()) return 0;
        store.addSSTables(readers);
        log.info("Loaded {} new sstable(s) of {}.{}: {}", readers.size(), keyspace.name(), store.metadata().name(), fresh);
        compactor.maybeCompact(store);
        return readers.size();
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
     * Starts background work once replay is done: deletes what start-up found left over (see
     * {@link #load}), flushes memtables replay filled past their limits, queues compaction checks, checks memtable ages and saves caches periodically.
     *
     * @param served the keyspaces served at each moment (a reload adds and removes some)
     */
    public void start(Supplier<Collection<Keyspace>> served) {
        // Every keyspace is loaded and the log replayed: the start is decided, and what start-up found to delete goes.
        for (SSTableFiles f : files.values()) f.cleanUp();
        savedCaches.start();
        for (Keyspace ks : served.get()) {
            for (ColumnFamilyStore store : ks.stores()) {
                flusher.afterWrite(ks, store);
                compactor.maybeCompact(store);
            }
        }
        // At most 10 s: MemtableFlushAfterMinutes is at least a minute, so a reload that shortens it is met in time.
        long period = Math.max(100, Math.min(10_000, settings.memtableLimits().flushAfter().toMillis() / 4));
        timer.scheduleWithFixedDelay(() -> {
            try {
                flusher.flushOld(served.get());
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
     * Empties the store, durably ({@link Truncator}); on the compaction thread, between compactions. The future
     * fails with a {@link TimeoutException} when the memtable cannot be flushed by {@code deadlineNanos}, and with
     * an {@link IOException} when the snapshot or the record cannot be written; the store is unchanged then.
     */
    @Override
    public CompletableFuture<Void> truncate(Keyspace keyspace, ColumnFamilyStore store, long deadlineNanos) {
        return compactor.alone(() -> {
            truncator.truncate(keyspace, store, deadlineNanos);
            return null;
        });
    }

    /**
     * Compacts all of the store's SSTables into one, purging tombstones older than GCGraceSeconds;
     * at once, even while the store's background compaction backs off after a failure.
     */
    @Override
    public CompletableFuture<Void> forceMajorCompaction(ColumnFamilyStore store) {
        return compactor.major(store);
    }

    /**
     * Snapshots the live SSTables of every store of {@code keyspaces} under one name (see
     * {@link Snapshots}); flushing first is the caller's choice.
     *
     * @param tag null or empty for none
     * @throws IllegalArgumentException for a tag that cannot be part of a directory name
     * @throws IOException              when the snapshot cannot be made (nothing of it is left)
     */
    public Snapshot snapshot(Collection<Keyspace> keyspaces, String tag) throws IOException {
        List<ColumnFamilyStore> stores = new ArrayList<>();
        for (Keyspace ks : keyspaces) stores.addAll(ks.stores());
        return snapshots.take(tag, stores);
    }

    @Override
    public List<Path> setAside(String tag, List<Descriptor> sstables) throws IOException {
        return snapshots.moveIn(tag, sstables);
    }

    /** Checks a snapshot tag before any work is done for the snapshot (a flush). */
    public static void checkSnapshotTag(String tag) {
        Snapshots.checkTag(tag);
    }

    /**
     * Deletes the snapshots tagged {@code tag} (all of them when null or empty) of every loaded
     * keyspace.
     *
     * @return the snapshot directories deleted
     */
    public List<Path> clearSnapshots(String tag) throws IOException {
        List<Path> directories = new ArrayList<>();
        for (SSTableFiles f : files.values()) directories.addAll(f.directories());
        return snapshots.clear(directories, tag);
    }

    /**
     * Rewrites the store's SSTables without the rows that fail their checksums, after a snapshot
     * of them (see {@link Compactor#scrub}).
     */
    public CompletableFuture<ScrubReport> scrub(ColumnFamilyStore store) {
        return compactor.scrub(store);
    }

    /**
     * Rewrites the store's Cassandra 0.6 SSTables in Sibyl's format at once, after a snapshot of them (see
     * {@link Compactor#upgrade}): nodetool upgradesstables.
     */
    public CompletableFuture<UpgradeReport> upgradeSSTables(ColumnFamilyStore store) {
        return compactor.upgrade(store).thenApply(UpgradeReport::of);
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
        // Folds queued and not run are dropped: their keys stay pending, where scans and a memtable's flush read
        // them through their merge (Memtable).
        memtableSorter.shutdownNow();
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
