package sibyl.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.config.ConfigurationException;
import sibyl.cql.LocalCql;
import sibyl.config.ElementPath;
import sibyl.config.StorageConf;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.ColumnSelection;
import sibyl.db.CompareAndSet;
import sibyl.db.IndexQuery;
import sibyl.db.InvalidQueryException;
import sibyl.db.LogPosition;
import sibyl.db.KSMetaData;
import sibyl.db.QueryPath;
import sibyl.db.ResolvedMutation;
import sibyl.db.RowMutation;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.db.SystemKeyspace;
import sibyl.db.WriteFailedException;
import sibyl.db.WriteLog;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;
import sibyl.dht.Range;
import sibyl.dht.Token;
import sibyl.fs.ForeignFilesException;
import sibyl.service.AsyncFailures;
import sibyl.io.Descriptor;
import sibyl.io.SSTableReader;
import sibyl.service.Consistency;
import sibyl.service.CqlAnswer;
import sibyl.service.CqlPrepared;
import sibyl.service.Reconfigurable;
import sibyl.service.Schema;
import sibyl.service.SerialConsistency;
import sibyl.service.StorageHints;
import sibyl.service.StorageService;
import sibyl.service.StorageTimeoutException;

/**
 * The storage core of this node, serving every configured keyspace from its own stores.
 * {@link #open} builds a durable one over the log it is handed ({@link RecoverableLog}); the constructor a
 * memory-only one.
 */
public final class LocalStorageService implements StorageService, StorageHints, Reconfigurable, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LocalStorageService.class);
    /**
     * How long forceFlush and drain wait by default: a 64 MB memtable flushes in seconds, so
     * minutes mean flushes are failing (and being retried), which the caller should hear of.
     */
    public static final Duration DEFAULT_FLUSH_TIMEOUT = Duration.ofMinutes(2);

    private final Partitioner partitioner;
    private final int indexInterval;
    /** The keyspaces served now and their schema; replaced as a whole by a reload, under {@link #reconfiguring}. */
    private volatile SchemaChange.Catalog catalog;
    private final Object reconfiguring = new Object();
    /** Why writes are refused since nodetool drain, for keyspaces a reload adds after it; null before. */
    private volatile String drained;
    private final WriteLog writeLog;
    private final Persistence persistence;
    /** Runs the background folds of the memtables ({@link Memtable}), those of stores a reload adds included. */
    private final Executor memtableSorter;
    /** The time reads judge expiring columns by, for the stores a reload adds too. */
    private final Clock clock;
    /** CQL over Thrift, run as this store's reads and writes (docs/thrift-api-0.7.md §CQL). */
    private final LocalCql cql;
    /** The timestamp the last compare-and-set wrote at (microseconds). */
    private final AtomicLong lastCasTimestamp = new AtomicLong();
    private volatile LogReplay lastReplay; // set once by open, before the service is handed out
    private volatile Duration startUp = Duration.ZERO;
    private volatile int sstablesAtStartUp;

    /**
     * A memory-only store: nothing is logged, nothing survives a restart. It has no threads of its own: the
     * writer that completes a batch of keys new to a memtable folds them into ring order itself.
     *
     * @param keyspaces     the configured keyspaces; the {@code system} keyspace is added when absent
     * @param indexInterval how many keys one index sample stands for (IndexInterval, default 128)
     */
    public LocalStorageService(Partitioner partitioner, List<KSMetaData> keyspaces, int indexInterval) {
        this(partitioner, keyspaces, indexInterval, Clock.systemUTC());
    }

    /** A memory-only store whose reads judge expiring columns by {@code clock} (tests move it instead of sleeping). */
    public LocalStorageService(Partitioner partitioner, List<KSMetaData> keyspaces, int indexInterval, Clock clock) {
        this(partitioner, keyspaces, indexInterval, WriteLog.NONE, Persistence.NONE, Runnable::run, clock);
    }

    private LocalStorageService(Partitioner partitioner, List<KSMetaData> keyspaces, int indexInterval,
                                WriteLog writeLog, Persistence persistence, Executor memtableSorter, Clock clock) {
        if (indexInterval <= 0) throw new IllegalArgumentException("IndexInterval must be positive: " + indexInterval);
        this.partitioner = partitioner;
        this.indexInterval = indexInterval;
        this.writeLog = writeLog;
        this.persistence = persistence;
        this.memtableSorter = memtableSorter;
        this.clock = clock;
        List<Keyspace> open = new ArrayList<>();
        for (KSMetaData ks : keyspaces) open.add(new Keyspace(ks, partitioner, writeLog, persistence, memtableSorter, clock));
        if (keyspaces.stream().noneMatch(ks -> ks.name().equals(SystemKeyspace.NAME))) {
            open.add(new Keyspace(SystemKeyspace.metadata(), partitioner, writeLog, persistence, memtableSorter, clock));
        }
        this.catalog = SchemaChange.Catalog.of(open);
        this.cql = new LocalCql(this, () -> Math.multiplyExact(clock.millis(), 1000L));
    }

    @Override
    public CompletableFuture<CqlAnswer> executeCql(String keyspace, String statement, Consistency consistency) {
        return cql.execute(keyspace, statement, consistency);
    }

    @Override
    public CompletableFuture<CqlPrepared> prepareCql(String keyspace, String statement) {
        return cql.prepare(keyspace, statement);
    }

    @Override
    public CompletableFuture<CqlAnswer> executePreparedCql(int id, List<ByteBuffer> values, Consistency consistency) {
        return cql.executePrepared(id, values, consistency);
    }

    /**
     * Opens the durable store: removes leftovers of interrupted SSTable writes, opens every
     * SSTable, replays the log entries no SSTable holds yet into the memtables, fills the
     * caches (saved caches, PreloadRowCache), and only then starts flushing, compacting and
     * saving caches in the background.
     *
     * @param logOpener opens the log, once every data directory is inspected ({@link RecoverableLog.Opener})
     * @throws IOException when an SSTable or the log cannot be opened or read
     */
    public static LocalStorageService open(Partitioner partitioner, List<KSMetaData> keyspaces,
                                           RecoverableLog.Opener logOpener, EngineSettings settings)
            throws IOException {
        return open(partitioner, keyspaces, logOpener, settings, (ks, cf) -> LogPosition.NONE);
    }

    /**
     * As {@link #open(Partitioner, List, RecoverableLog.Opener, EngineSettings)}, where the log's entries of a column
     * family at or before {@code droppedAt}'s position for it are not replayed: they are of a column family of that
     * name dropped by API before this one was made (docs/configuration.md §Keyspaces made by API).
     */
    public static LocalStorageService open(Partitioner partitioner, List<KSMetaData> keyspaces,
                                           RecoverableLog.Opener logOpener, EngineSettings settings,
                                           RecoverableLog.FlushedUpTo droppedAt)
            throws IOException {
        long started = System.nanoTime();
        StorageEngine engine = new StorageEngine(settings, partitioner);
        RecoverableLog recoverable = null;
        LocalStorageService service = null;
        try {
            recoverable = openRecognised(engine, keyspaces, logOpener);
            service = new LocalStorageService(partitioner, keyspaces, settings.indexInterval(), recoverable.writes(),
                    engine, engine.memtableSorter(), settings.clock());
            int sstables = 0;
            for (Keyspace ks : service.openKeyspaces()) sstables += engine.load(ks);
            LocalStorageService s = service;
            // The configured keyspaces in the file's order: a Cassandra 0.6 commit log names column families by
            // numbers 0.6 derived from it.
            service.lastReplay = recoverable.recover(keyspaces,
                    (ks, cf) -> later(s.keyspaceNamed(ks).store(cf).flushedPosition(), droppedAt.upTo(ks, cf)),
                    service::replay);
            for (Keyspace ks : service.openKeyspaces()) engine.loadCaches(ks);
            engine.start(service::openKeyspaces);
            if (service.lastReplay.legacySegments() > 0) service.confirmLegacyReplay(recoverable);
            service.sstablesAtStartUp = sstables;
            service.startUp = Duration.ofNanos(System.nanoTime() - started);
            log.info("Storage opened in {} ms: {} sstables, {} commit log entries replayed", service.startUp.toMillis(),
                    sstables, service.lastReplay.entries());
            return service;
        } catch (IOException | RuntimeException | Error e) {
            engine.close(service == null ? List.of() : service.openKeyspaces());
            if (recoverable != null) recoverable.writes().close();
            throw e;
        }
    }

    /**
     * Recognises every file of the data directories (every keyspace's, the {@code system} keyspace's included) and
     * of the log's directory before anything is loaded or deleted, then opens the log. A start refused
     * for files Sibyl did not write and cannot read names all of them, in both kinds of directory, in one error.
     */
    private static RecoverableLog openRecognised(StorageEngine engine, List<KSMetaData> keyspaces,
                                                 RecoverableLog.Opener opener) throws IOException {
        List<KSMetaData> all = new ArrayList<>(keyspaces);
        if (all.stream().noneMatch(ks -> ks.name().equals(SystemKeyspace.NAME))) all.add(SystemKeyspace.metadata());
        ForeignFilesException data = null;
        try {
            engine.inspect(all);
        } catch (ForeignFilesException e) {
            data = e;
        }
        RecoverableLog opened;
        try {
            opened = opener.open();
        } catch (ForeignFilesException e) {
            throw data == null ? e : data.and(e);
        }
        if (data != null) {
            opened.writes().close();
            throw data;
        }
        return opened;
    }

    /**
     * After a replay of Cassandra 0.6 commit log segments, which are never deleted: flushes what they gave (it is
     * in no commit log of Sibyl's), then has the log list them as replayed, so that the next start does not apply
     * them again. Before the node serves, as 0.6 itself flushed after its replay. A crash before the list is
     * written replays them again at the next start, which changes nothing.
     */
    private void confirmLegacyReplay(RecoverableLog recoverable) throws IOException {
        try {
            for (Map.Entry<String, Set<String>> ks : lastReplay.legacyColumnFamilies().entrySet()) {
                forceFlush(ks.getKey(), ks.getValue().toArray(String[]::new));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while flushing what Cassandra 0.6's commit log replayed", e);
        }
        int listed = recoverable.confirmLegacyReplay();
        log.info("Flushed what {} Cassandra 0.6 commit log segment(s) replayed ({} entries) and listed {} of them as"
                + " replayed; they stay in the commit log directory for a rollback to 0.6, and are not replayed again",
                lastReplay.legacySegments(), lastReplay.legacyEntries(), listed);
    }

    /** How long {@link #open} took, SSTables and replay included; zero for a memory-only store. */
    public Duration startUpTime() {
        return startUp;
    }

    /** SSTables found at start-up. */
    public int sstablesAtStartUp() {
        return sstablesAtStartUp;
    }

    /** The durable engine; empty for a memory-only store. */
    public Optional<StorageEngine> engine() {
        return persistence instanceof StorageEngine engine ? Optional.of(engine) : Optional.empty();
    }

    /**
     * Flushes the memtables of the named column families of {@code keyspace} (all of them when
     * none is named) and returns once they are in SSTables, waiting at most
     * {@link #DEFAULT_FLUSH_TIMEOUT}. A memory-only store has nothing to do.
     *
     * @throws InvalidQueryException for an unknown keyspace or column family
     * @throws IOException           when a flush failed or did not finish in time (it is retried in the background)
     */
    public void forceFlush(String keyspace, String... columnFamilies) throws IOException, InterruptedException {
        forceFlush(DEFAULT_FLUSH_TIMEOUT, keyspace, columnFamilies);
    }

    /**
     * As {@link #forceFlush(String, String...)}, waiting at most {@code timeout}: when flushes
     * keep failing (a full disk) the caller learns so, with the last failure, instead of waiting
     * for ever. The flushes go on being retried in the background.
     */
    public void forceFlush(Duration timeout, String keyspace, String... columnFamilies)
            throws IOException, InterruptedException {
        flushBy(deadline(timeout), timeout, keyspace, columnFamilies);
    }

    private void flushBy(long deadline, Duration timeout, String keyspace, String... columnFamilies)
            throws IOException, InterruptedException {
        Keyspace ks = keyspaceNamed(keyspace);
        List<ColumnFamilyStore> stores = stores(keyspace, columnFamilies);
        List<CompletableFuture<Void>> flushes = new ArrayList<>();
        for (ColumnFamilyStore store : stores) flushes.add(persistence.forceFlush(ks, store, deadline));
        String what = "flush of keyspace " + keyspace;
        try {
            awaitUntil(flushes, what, deadline);
        } catch (TimeoutException e) {
            throw new IOException(what + " did not finish within " + timeout.toMillis() + " ms"
                    + persistence.lastFlushFailure().map(f -> "; the last flush failure: " + f).orElse("")
                    + (e.getMessage() == null ? "" : "; " + e.getMessage()), e);
        }
    }

    /** Compacts every column family of {@code keyspace} into one SSTable each, purging tombstones past GCGraceSeconds. */
    public void forceMajorCompaction(String keyspace) throws IOException, InterruptedException {
        Keyspace ks = keyspaceNamed(keyspace);
        List<CompletableFuture<Void>> compactions = new ArrayList<>();
        for (ColumnFamilyStore store : ks.stores()) compactions.add(persistence.forceMajorCompaction(store));
        await(compactions, "major compaction of keyspace " + keyspace);
    }

    /**
     * nodetool snapshot: flushes every memtable (waiting at most {@code timeout}), then hard-links
     * every live SSTable of every keyspace into {@code snapshots/<millis>-<tag>/} beside the
     * keyspace's SSTables. So the snapshot holds every write acknowledged before the call.
     *
     * @param tag null or empty for none
     * @throws IllegalArgumentException for a tag that cannot be part of a directory name
     * @throws IOException              when the flushes did not finish in time (a full disk) or a
     *                                  link could not be made; nothing of the snapshot is left
     */
    public Snapshot takeSnapshot(String tag, Duration timeout) throws IOException, InterruptedException {
        StorageEngine.checkSnapshotTag(tag);
        StorageEngine engine = engine().orElseThrow(
                () -> new IOException("this node keeps its data in memory only: it has no sstables to snapshot"));
        long deadline = deadline(timeout);
        try {
            for (Keyspace ks : openKeyspaces()) flushBy(deadline, timeout, ks.name());
        } catch (IOException e) {
            throw new IOException("snapshot not taken: " + e.getMessage(), e);
        }
        return engine.snapshot(openKeyspaces(), tag);
    }

    /**
     * nodetool clearsnapshot: deletes the snapshots tagged {@code tag}, or all of them when it is
     * null or empty.
     *
     * @return the snapshot directories deleted
     */
    public List<Path> clearSnapshot(String tag) throws IOException {
        StorageEngine.checkSnapshotTag(tag);
        Optional<StorageEngine> engine = engine();
        return engine.isEmpty() ? List.of() : engine.get().clearSnapshots(tag);
    }

    /**
     * nodetool scrub: rewrites the SSTables of the named column families of {@code keyspace} (all
     * of them when none is named) keeping every row whose checksums hold, after snapshotting
     * them; one column family after the other.
     *
     * @throws InvalidQueryException for an unknown keyspace or column family
     * @throws IOException           when a snapshot or a rewrite failed, saying how far it got
     */
    public List<ScrubReport> scrub(String keyspace, String... columnFamilies) throws IOException, InterruptedException {
        List<ColumnFamilyStore> stores = stores(keyspace, columnFamilies);
        List<ScrubReport> reports = new ArrayList<>();
        Optional<StorageEngine> engine = engine();
        if (engine.isEmpty()) return reports;
        for (ColumnFamilyStore store : stores) {
            try {
                reports.add(engine.get().scrub(store).get());
            } catch (ExecutionException e) {
                throw new IOException(reason(e.getCause()), e.getCause());
            }
        }
        return reports;
    }

    /** The stores of the named column families of {@code keyspace}, or of all of them when none is named. */
    private List<ColumnFamilyStore> stores(String keyspace, String... columnFamilies) {
        Keyspace ks = keyspaceNamed(keyspace);
        List<ColumnFamilyStore> stores = new ArrayList<>();
        if (columnFamilies.length == 0) stores.addAll(ks.stores());
        for (String cf : columnFamilies) stores.add(ks.store(cf));
        return stores;
    }

    /**
     * nodetool upgradesstables: rewrites the Cassandra 0.6 SSTables of the named column families of
     * {@code keyspace} (all of them when none is named) into SSTables of this node's format, one column family
     * after the other; each 0.6 SSTable is removed once what replaces it is on disk.
     *
     * @throws InvalidQueryException for an unknown keyspace or column family
     * @throws IOException           when a rewrite failed, saying why (the 0.6 SSTables stay in use)
     */
    public List<UpgradeReport> upgradeSSTables(String keyspace, String... columnFamilies) throws IOException,
            InterruptedException {
        List<ColumnFamilyStore> stores = stores(keyspace, columnFamilies);
        List<UpgradeReport> reports = new ArrayList<>();
        Optional<StorageEngine> engine = engine();
        for (ColumnFamilyStore store : stores) {
            if (engine.isEmpty()) {
                reports.add(new UpgradeReport(keyspace, store.metadata().name(), 0, 0, 0, null));
                continue;
            }
            try {
                reports.add(engine.get().upgradeSSTables(store).get());
            } catch (ExecutionException e) {
                throw new IOException(reason(e.getCause()), e.getCause());
            }
        }
        return reports;
    }

    /**
     * nodetool refresh: opens the SSTables of {@code keyspace.columnFamily} that were put into its
     * data directories while the node ran (bin/json2sstable) and serves them from now on; a
     * memory-only store has none.
     *
     * @return SSTables added
     * @throws InvalidQueryException for an unknown keyspace or column family
     * @throws IOException           when one cannot be opened; none is added then
     */
    public int loadNewSSTables(String keyspace, String columnFamily) throws IOException {
        Keyspace ks = keyspaceNamed(keyspace);
        return persistence.loadNewSSTables(ks, ks.store(columnFamily));
    }

    /**
     * Saves now the key and row caches that have a save period; a memory-only store has none.
     *
     * @return saved cache files written
     */
    public int saveCaches() {
        return persistence.saveCaches();
    }

    /**
     * For a clean shutdown: refuses every write from now on, then flushes every memtable, so the
     * commit log holds nothing a restart must replay, and saves the caches that have a save
     * period; waits at most {@link #DEFAULT_FLUSH_TIMEOUT} for the flushes.
     */
    public void drain() throws IOException, InterruptedException {
        drain(DEFAULT_FLUSH_TIMEOUT);
    }

    /**
     * As {@link #drain()}, waiting at most {@code timeout} for all the flushes together. When
     * they do not finish (flushes keep failing) writes stay refused and the error says why;
     * what was not flushed is still in the commit log.
     */
    public void drain(Duration timeout) throws IOException, InterruptedException {
        String refusal = "write failed: this node is drained (nodetool drain) and accepts no more writes;"
                + " restart it to write again";
        synchronized (reconfiguring) {
            drained = refusal;
            for (Keyspace ks : openKeyspaces()) ks.refuseWrites(refusal);
        }
        long deadline = deadline(timeout);
        try {
            for (Keyspace ks : openKeyspaces()) flushBy(deadline, timeout, ks.name());
        } catch (IOException e) {
            throw new IOException("drain failed, writes stay refused: " + e.getMessage(), e);
        }
        int caches = saveCaches();
        log.info("Drained: writes refused, every memtable flushed, {} saved caches written", caches);
    }

    private static long deadline(Duration timeout) {
        if (timeout.isNegative()) throw new IllegalArgumentException("timeout must not be negative: " + timeout);
        return System.nanoTime() + Math.min(timeout.toNanos(), Long.MAX_VALUE / 4);
    }

    private static void await(List<CompletableFuture<Void>> futures, String what) throws IOException, InterruptedException {
        try {
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get();
        } catch (ExecutionException e) {
            throw new IOException(what + " failed: " + reason(e.getCause()), e.getCause());
        }
    }

    /** The message alone when there is one: the JMX caller and the log want the reason, not a class name. */
    private static String reason(Throwable t) {
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }

    /** Waits for all until {@code deadline} (of {@link System#nanoTime}); a TimeoutException, from a future or the wait, says it ran out. */
    private static void awaitUntil(List<CompletableFuture<Void>> futures, String what, long deadline)
            throws IOException, InterruptedException, TimeoutException {
        try {
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
                    .get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TimeoutException t) throw t;
            throw new IOException(what + " failed: " + e.getCause(), e.getCause());
        }
    }

    /** What the start-up replay did; empty for a memory-only store. */
    public Optional<LogReplay> replaySummary() {
        return Optional.ofNullable(lastReplay);
    }

    /**
     * Stops flushing and compacting, closes the SSTables, then syncs and closes the log;
     * writes fail afterwards. Memtables not flushed are replayed from the log at the next start.
     */
    @Override
    public void close() {
        persistence.close(openKeyspaces());
        writeLog.close();
    }

    private void replay(ResolvedMutation mutation) {
        keyspaceNamed(mutation.keyspace()).replay(mutation);
    }

    /** Batch-mode commit log: every write waits for a sync. Periodic: only when flushes are backlogged. */
    @Override
    public boolean writesMayWait() {
        return writeLog.syncsBeforeAcknowledging() || persistence.flushBacklogged();
    }

    /** Reads find their rows in memory or the page cache; the front end notices those that turn slow. */
    @Override
    public boolean readsMayWait() {
        return false;
    }

    private static LogPosition later(LogPosition a, LogPosition b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /** The only replica there is: the front end checks levels against the ReplicationFactor. */
    @Override
    public boolean countsReplicas() {
        return false;
    }

    @Override
    public Partitioner partitioner() {
        return partitioner;
    }

    @Override
    public Schema schema() {
        return catalog.schema();
    }

    /** Every keyspace, {@code system} included, in configuration order. */
    public List<KSMetaData> keyspaces() {
        return schema().keyspaces();
    }

    public Optional<KSMetaData> keyspace(String name) {
        return schema().keyspace(name);
    }

    /**
     * Applies a reloaded configuration (docs/configuration.md §Reloading without a restart): keyspaces and
     * column families added (with what they find on disk) or removed (when they hold nothing), the caches and
     * GCGraceSeconds of those that stay, the memtable thresholds and GCGraceSeconds of the node. Planned and
     * checked in full first; a refusal changes nothing. One reload at a time.
     */
    @Override
    public void reconfigure(StorageConf conf, List<KSMetaData> keyspaces) throws ConfigurationException {
        synchronized (reconfiguring) {
            change(conf, keyspaces, List.of());
        }
    }

    /**
     * A drop by API (docs/configuration.md §Keyspaces made by API): the dropped column families are flushed, so
     * that what they hold is in SSTables, then leave the schema with it; their SSTables are then moved into a
     * snapshot tagged {@code dropped-<name>} of their keyspace directory, never deleted. Writes that reach them
     * between the flush and the drop are not kept, as in Cassandra 3.11.
     */
    @Override
    public LogPosition drop(StorageConf conf, List<KSMetaData> keyspaces, List<CFMetaData> dropped)
            throws ConfigurationException, IOException, InterruptedException {
        synchronized (reconfiguring) {
            for (CFMetaData cf : dropped) forceFlush(cf.keyspace(), cf.name());
            Dropped done = change(conf, keyspaces, dropped);
            IOException failed = null;
            for (Map.Entry<String, List<Descriptor>> e : done.sstables().entrySet()) {
                if (e.getValue().isEmpty()) continue;
                try {
                    persistence.setAside("dropped-" + e.getKey(), e.getValue());
                } catch (IOException io) {
                    log.error("Column family {} dropped, but its SSTables could not all be moved aside: {}", e.getKey(),
                            io.getMessage());
                    if (failed == null) failed = io;
                    else failed.addSuppressed(io);
                }
            }
            if (failed != null) throw failed;
            return done.at();
        }
    }

    /**
     * What a change that dropped column families leaves to do: where the log stood while none of them took
     * writes, and the SSTables each held (by name), to be set aside.
     */
    private record Dropped(LogPosition at, Map<String, List<Descriptor>> sstables) {
    }

    private Dropped change(StorageConf conf, List<KSMetaData> keyspaces, List<CFMetaData> dropping)
            throws ConfigurationException {
        SchemaChange change;
        try {
            change = SchemaChange.plan(conf.configFile(), catalog, keyspaces,
                    ks -> new Keyspace(ks, partitioner, writeLog, persistence, memtableSorter, clock),
                    cf -> new ColumnFamilyStore(cf, partitioner, memtableSorter, clock));
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(conf.configFile(), ElementPath.global("Keyspaces"), e.getMessage(), e);
        }
        String refusal = drained;
        if (refusal != null) for (Keyspace ks : change.created()) ks.refuseWrites(refusal);
        EngineSettings tuning = engine().isPresent() ? EngineSettings.from(conf) : null;
        Set<String> goingWithData = new HashSet<>();
        for (CFMetaData cf : dropping) goingWithData.add(cf.keyspace() + "/" + cf.name());
        change.prepare(persistence);
        change.lockAndCheck(goingWithData);
        LogPosition at = writeLog.position();
        Map<String, List<Descriptor>> setAside = new LinkedHashMap<>();
        for (ColumnFamilyStore store : change.removed()) {
            if (!goingWithData.contains(store.metadata().keyspace() + "/" + store.metadata().name())) continue;
            List<SSTableReader> live = store.acquireLiveSSTables();
            List<Descriptor> files = new ArrayList<>();
            for (SSTableReader r : live) {
                files.add(r.descriptor());
                r.release();
            }
            setAside.put(store.metadata().name(), files);
        }
        catalog = change.apply(persistence);
        if (tuning != null) persistence.retune(tuning);
        return new Dropped(at, setAside);
    }

    // ---- the seam's operations: answered at once, on the caller's thread, in a future made complete (the engine
    // is its own only replica, so it meets every consistency level with itself).

    @Override
    public CompletableFuture<Void> write(RowMutation mutation, Consistency consistency) {
        try {
            apply(mutation);
            return APPLIED;
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Under the row's lock ({@link Keyspace#compareAndSet}); the timestamp is the clock's microsecond, or one past
     * the last a cas of this node took when the clock has not passed it, so that it only grows.
     */
    @Override
    public CompletableFuture<CompareAndSet.Outcome> compareAndSet(CompareAndSet cas, SerialConsistency serial,
                                                                 Consistency commit) {
        return answered(() -> keyspaceNamed(cas.keyspace()).compareAndSet(cas, this::nextCasTimestamp));
    }

    private long nextCasTimestamp() {
        Instant now = clock.instant();
        long micros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
        return lastCasTimestamp.updateAndGet(last -> Math.max(micros, last + 1));
    }

    @Override
    public CompletableFuture<Optional<Cell>> readCell(String keyspace, String key, QueryPath path,
                                                      Consistency consistency) {
        return answered(() -> get(keyspace, key, path));
    }

    @Override
    public CompletableFuture<List<Cell>> readSlice(String keyspace, String key, QueryPath parent,
                                                   ColumnSelection selection, Consistency consistency) {
        return answered(() -> getSlice(keyspace, key, parent, selection));
    }

    @Override
    public CompletableFuture<Integer> count(String keyspace, String key, QueryPath parent, Consistency consistency) {
        return answered(() -> getCount(keyspace, key, parent));
    }

    @Override
    public CompletableFuture<List<RowSlice>> scan(String keyspace, QueryPath parent, ColumnSelection selection,
                                                  RowRange range, int count, Consistency consistency) {
        return answered(() -> getRangeSlice(keyspace, parent, selection, range, count));
    }

    @Override
    public CompletableFuture<List<RowSlice>> indexedScan(String keyspace, QueryPath parent, ColumnSelection selection,
                                                         IndexQuery query, RowRange range, int count,
                                                         Consistency consistency) {
        return answered(() -> store(keyspace, parent).getIndexedSlice(query, range, parent, selection, count));
    }

    /**
     * Waits for the memtable's flush at most this long, as Cassandra's truncate_request_timeout_in_ms does by
     * default.
     */
    public static final Duration TRUNCATE_TIMEOUT = Duration.ofSeconds(60);

    @Override
    public CompletableFuture<Void> truncate(String keyspace, String columnFamily) {
        Keyspace ks;
        ColumnFamilyStore store;
        try {
            ks = keyspaceNamed(keyspace);
            store = ks.store(columnFamily);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        String what = "truncate of " + keyspace + "." + columnFamily;
        return persistence.truncate(ks, store, deadline(TRUNCATE_TIMEOUT)).handle((done, failure) -> {
            if (failure == null) return null;
            Throwable cause = AsyncFailures.cause(failure);
            if (cause instanceof TimeoutException) {
                throw new StorageTimeoutException(what + " timed out: " + cause.getMessage(), cause);
            }
            throw new WriteFailedException(what + " failed: " + cause.getMessage(), cause);
        });
    }

    /**
     * The answer of every write applied: one future for all, as nothing completes it again and what a caller chains
     * on it runs at once. A write is the most frequent call; this spares it an object.
     */
    private static final CompletableFuture<Void> APPLIED = CompletableFuture.completedFuture(null);

    /** The answer of an operation run now, or its failure: the seam's operations never throw. */
    private static <T> CompletableFuture<T> answered(Supplier<T> operation) {
        try {
            return CompletableFuture.completedFuture(operation.get());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** This node alone is its ring: its token stands for it. */
    @Override
    public List<Token> ringTokens() {
        return List.of();
    }

    // ---- the same, answered directly: for the node's own reads (its saved token), tools and tests

    /** Applies a row mutation atomically and isolated per column family. */
    public void apply(RowMutation mutation) {
        keyspaceNamed(mutation.keyspace()).apply(mutation);
    }

    /** As {@link #readCell}. */
    public Optional<Cell> get(String keyspace, String key, QueryPath path) {
        return store(keyspace, path).get(partitioner.decorateKey(key), path);
    }

    /** As {@link #readSlice}. */
    public List<Cell> getSlice(String keyspace, String key, QueryPath parent, ColumnSelection selection) {
        return store(keyspace, parent).getSlice(partitioner.decorateKey(key), parent, selection);
    }

    /** As {@link #count}. */
    public int getCount(String keyspace, String key, QueryPath parent) {
        return store(keyspace, parent).getCount(partitioner.decorateKey(key), parent);
    }

    /** As {@link #scan}. */
    public List<RowSlice> getRangeSlice(String keyspace, QueryPath parent, ColumnSelection selection, RowRange range,
                                        int count) {
        return store(keyspace, parent).getRangeSlice(range, parent, selection, count);
    }

    /**
     * The sampled keys (every IndexInterval-th key of each column family of every keyspace)
     * whose tokens lie in {@code range}, in ring order from the range's start.
     */
    public List<DecoratedKey> keySamples(Range range) {
        List<DecoratedKey> samples = new ArrayList<>();
        for (Keyspace ks : openKeyspaces()) {
            for (ColumnFamilyStore store : ks.stores()) {
                for (DecoratedKey key : store.sampleKeys(indexInterval)) {
                    if (range.contains(key.token())) samples.add(key);
                }
            }
        }
        samples.sort(ringOrderFrom(range.left()));
        return samples;
    }

    @Override
    public List<Token> describeSplits(Token start, Token end, int keysPerSplit) {
        if (keysPerSplit <= 0) throw new IllegalArgumentException("keys_per_split must be positive: " + keysPerSplit);
        List<DecoratedKey> samples = keySamples(new Range(start, end));
        List<Token> tokens = new ArrayList<>();
        tokens.add(start);
        // As 0.6: as many splits as keysPerSplit-sized pieces the sampled keys stand for, cut at
        // evenly spaced samples when there are enough of them.
        int splits = (int) Math.min(Integer.MAX_VALUE, (long) samples.size() * indexInterval / keysPerSplit);
        if (splits > 0 && samples.size() >= splits) {
            int step = samples.size() / splits;
            for (int i = 1; i < splits; i++) tokens.add(samples.get(i * step).token());
        }
        tokens.add(end);
        return tokens;
    }

    /** Keys past {@code start} in token order, then those at or before it (the wrapped part). */
    private static Comparator<DecoratedKey> ringOrderFrom(Token start) {
        return Comparator.<DecoratedKey, Boolean>comparing(k -> k.token().compareTo(start) <= 0)
                .thenComparing(Comparator.naturalOrder());
    }

    /** The keyspaces served now, {@code system} included, for management (nodetool's cfstats). */
    public Collection<Keyspace> openKeyspaces() {
        return catalog.keyspaces().values();
    }

    private Keyspace keyspaceNamed(String name) {
        Keyspace ks = catalog.keyspaces().get(name);
        if (ks == null) throw new InvalidQueryException("Keyspace " + name + " does not exist in this schema.");
        return ks;
    }

    private ColumnFamilyStore store(String keyspace, QueryPath path) {
        return keyspaceNamed(keyspace).store(path.columnFamily());
    }
}
