package sibyl.service;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import sibyl.db.Cell;
import sibyl.db.ColumnFamilyStore;
import sibyl.db.ColumnSelection;
import sibyl.db.InvalidQueryException;
import sibyl.db.KSMetaData;
import sibyl.db.Keyspace;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowRange;
import sibyl.db.ResolvedMutation;
import sibyl.db.RowSlice;
import sibyl.db.SystemKeyspace;
import sibyl.db.WriteLog;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;
import sibyl.dht.Range;
import sibyl.dht.Token;
import sibyl.storage.CommitLog;
import sibyl.storage.ReplaySummary;
import sibyl.storage.StorageOptions;

/**
 * The storage core of this node, serving every configured keyspace from its own stores.
 * {@link #open} builds a durable one over a commit log; the constructor a memory-only one.
 */
public final class LocalStorageService implements StorageService, AutoCloseable {
    private final Partitioner partitioner;
    private final int indexInterval;
    private final Map<String, Keyspace> keyspaces = new LinkedHashMap<>();
    private final CommitLog commitLog; // null when memory-only
    private volatile ReplaySummary lastReplay; // set once by open, before the service is handed out

    /**
     * A memory-only store: nothing is logged, nothing survives a restart.
     *
     * @param keyspaces     the configured keyspaces; the {@code system} keyspace is added when absent
     * @param indexInterval how many keys one index sample stands for (IndexInterval, default 128)
     */
    public LocalStorageService(Partitioner partitioner, List<KSMetaData> keyspaces, int indexInterval) {
        this(partitioner, keyspaces, indexInterval, null);
    }

    private LocalStorageService(Partitioner partitioner, List<KSMetaData> keyspaces, int indexInterval,
                                CommitLog commitLog) {
        if (indexInterval <= 0) throw new IllegalArgumentException("IndexInterval must be positive: " + indexInterval);
        this.partitioner = partitioner;
        this.indexInterval = indexInterval;
        this.commitLog = commitLog;
        WriteLog log = commitLog == null ? WriteLog.NONE : commitLog;
        for (KSMetaData ks : keyspaces) {
            if (this.keyspaces.put(ks.name(), new Keyspace(ks, partitioner, log)) != null) {
                throw new IllegalArgumentException("keyspace " + ks.name() + " defined twice");
            }
        }
        this.keyspaces.computeIfAbsent(SystemKeyspace.NAME, n -> new Keyspace(SystemKeyspace.metadata(), partitioner, log));
    }

    /**
     * Opens the durable store: opens the commit log in the options' directory and replays what
     * it holds into the memtables, so the store serves everything written before the last stop
     * (or crash) from its first request on.
     *
     * @throws IOException when the commit log cannot be opened or read
     */
    public static LocalStorageService open(Partitioner partitioner, List<KSMetaData> keyspaces, StorageOptions options)
            throws IOException {
        CommitLog commitLog = CommitLog.open(options);
        try {
            LocalStorageService service = new LocalStorageService(partitioner, keyspaces, options.indexInterval(), commitLog);
            service.lastReplay = commitLog.recover(service::keyspace, service::replay);
            return service;
        } catch (IOException | RuntimeException | Error e) {
            commitLog.close();
            throw e;
        }
    }

    /** What the start-up replay did; empty for a memory-only store. */
    public Optional<ReplaySummary> replaySummary() {
        return Optional.ofNullable(lastReplay);
    }

    /** The commit log, for the flush to report to; empty for a memory-only store. */
    public Optional<CommitLog> commitLog() {
        return Optional.ofNullable(commitLog);
    }

    /** Syncs and closes the commit log; writes fail afterwards, reads go on working. */
    @Override
    public void close() {
        if (commitLog != null) commitLog.close();
    }

    private void replay(ResolvedMutation mutation) {
        keyspaceNamed(mutation.keyspace()).replay(mutation);
    }

    @Override
    public Partitioner partitioner() {
        return partitioner;
    }

    @Override
    public List<KSMetaData> keyspaces() {
        List<KSMetaData> all = new ArrayList<>();
        for (Keyspace ks : keyspaces.values()) all.add(ks.metadata());
        return all;
    }

    @Override
    public Optional<KSMetaData> keyspace(String name) {
        Keyspace ks = keyspaces.get(name);
        return ks == null ? Optional.empty() : Optional.of(ks.metadata());
    }

    @Override
    public void apply(RowMutation mutation) {
        keyspaceNamed(mutation.keyspace()).apply(mutation);
    }

    @Override
    public Optional<Cell> get(String keyspace, String key, QueryPath path) {
        return store(keyspace, path).get(partitioner.decorateKey(key), path);
    }

    @Override
    public List<Cell> getSlice(String keyspace, String key, QueryPath parent, ColumnSelection selection) {
        return store(keyspace, parent).getSlice(partitioner.decorateKey(key), parent, selection);
    }

    @Override
    public int getCount(String keyspace, String key, QueryPath parent) {
        return store(keyspace, parent).getCount(partitioner.decorateKey(key), parent);
    }

    @Override
    public List<RowSlice> getRangeSlice(String keyspace, QueryPath parent, ColumnSelection selection, RowRange range,
                                        int count) {
        return store(keyspace, parent).getRangeSlice(range, parent, selection, count);
    }

    @Override
    public List<DecoratedKey> keySamples(Range range) {
        List<DecoratedKey> samples = new ArrayList<>();
        for (Keyspace ks : keyspaces.values()) {
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

    /** The open keyspaces, {@code system} included, for management (nodetool's cfstats). */
    public Collection<Keyspace> openKeyspaces() {
        return Collections.unmodifiableCollection(keyspaces.values());
    }

    private Keyspace keyspaceNamed(String name) {
        Keyspace ks = keyspaces.get(name);
        if (ks == null) throw new InvalidQueryException("Keyspace " + name + " does not exist in this schema.");
        return ks;
    }

    private ColumnFamilyStore store(String keyspace, QueryPath path) {
        return keyspaceNamed(keyspace).store(path.columnFamily());
    }
}
