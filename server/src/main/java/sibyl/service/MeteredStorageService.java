package sibyl.service;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.ColumnSelection;
import sibyl.db.KSMetaData;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;
import sibyl.dht.Range;
import sibyl.dht.Token;

/**
 * A backend with its requests counted and timed per column family in {@link RequestMetrics}: the
 * seam is where every backend's reads and writes pass, so the figures mean the same whichever
 * one serves them. A request counts once it has been served; one the backend refuses (an unknown
 * column family, a write that could not be made durable) is not counted. The latency is the
 * backend's whole answer: for a write, the commit log and the memtable; a write changing several
 * column families counts, with its latency, in each of them.
 *
 * <p>Every method of the seam, default ones included, is passed to the backend as called, so a
 * backend's own forms (those with a {@link Consistency}) are never replaced by the defaults.
 */
public final class MeteredStorageService implements StorageService {
    private final StorageService backend;
    private final RequestMetrics metrics;

    public MeteredStorageService(StorageService backend, RequestMetrics metrics) {
        this.backend = backend;
        this.metrics = metrics;
        // Every configured column family shows, with zeros, from the start.
        for (KSMetaData ks : backend.keyspaces()) {
            for (CFMetaData cf : ks.columnFamilies()) metrics.of(ks.name(), cf.name());
        }
    }

    @Override
    public Partitioner partitioner() {
        return backend.partitioner();
    }

    @Override
    public Schema schema() {
        return backend.schema();
    }

    @Override
    public List<KSMetaData> keyspaces() {
        return backend.keyspaces();
    }

    @Override
    public Optional<KSMetaData> keyspace(String name) {
        return backend.keyspace(name);
    }

    @Override
    public void apply(RowMutation mutation) {
        long start = System.nanoTime();
        backend.apply(mutation);
        wrote(mutation, start);
    }

    @Override
    public void apply(RowMutation mutation, Consistency consistency) {
        long start = System.nanoTime();
        backend.apply(mutation, consistency);
        wrote(mutation, start);
    }

    @Override
    public CompletableFuture<Void> applyAsync(RowMutation mutation, Consistency consistency) {
        long start = System.nanoTime();
        return backend.applyAsync(mutation, consistency).thenRun(() -> wrote(mutation, start));
    }

    private void wrote(RowMutation mutation, long start) {
        long nanos = System.nanoTime() - start;
        String sole = mutation.soleColumnFamily();
        if (sole != null) {
            // Most writes: no iterator over the changes, so no allocation.
            metrics.of(mutation.keyspace(), sole).writes().record(nanos);
        } else {
            for (String cf : mutation.changes().keySet()) metrics.of(mutation.keyspace(), cf).writes().record(nanos);
        }
    }

    @Override
    public boolean countsReplicas() {
        return backend.countsReplicas();
    }

    @Override
    public boolean writesMayWait() {
        return backend.writesMayWait();
    }

    @Override
    public boolean readsMayWait() {
        return backend.readsMayWait();
    }

    @Override
    public Optional<Cell> get(String keyspace, String key, QueryPath path) {
        long start = System.nanoTime();
        Optional<Cell> cell = backend.get(keyspace, key, path);
        read(keyspace, path, start);
        return cell;
    }

    @Override
    public Optional<Cell> get(String keyspace, String key, QueryPath path, Consistency consistency) {
        long start = System.nanoTime();
        Optional<Cell> cell = backend.get(keyspace, key, path, consistency);
        read(keyspace, path, start);
        return cell;
    }

    @Override
    public List<Cell> getSlice(String keyspace, String key, QueryPath parent, ColumnSelection selection) {
        long start = System.nanoTime();
        List<Cell> cells = backend.getSlice(keyspace, key, parent, selection);
        read(keyspace, parent, start);
        return cells;
    }

    @Override
    public List<Cell> getSlice(String keyspace, String key, QueryPath parent, ColumnSelection selection,
                               Consistency consistency) {
        long start = System.nanoTime();
        List<Cell> cells = backend.getSlice(keyspace, key, parent, selection, consistency);
        read(keyspace, parent, start);
        return cells;
    }

    @Override
    public CompletableFuture<Optional<Cell>> getAsync(String keyspace, String key, QueryPath path,
                                                      Consistency consistency) {
        long start = System.nanoTime();
        return backend.getAsync(keyspace, key, path, consistency).thenApply(cell -> {
            read(keyspace, path, start);
            return cell;
        });
    }

    @Override
    public CompletableFuture<List<Cell>> getSliceAsync(String keyspace, String key, QueryPath parent,
                                                       ColumnSelection selection, Consistency consistency) {
        long start = System.nanoTime();
        return backend.getSliceAsync(keyspace, key, parent, selection, consistency).thenApply(cells -> {
            read(keyspace, parent, start);
            return cells;
        });
    }

    @Override
    public int getCount(String keyspace, String key, QueryPath parent) {
        long start = System.nanoTime();
        int count = backend.getCount(keyspace, key, parent);
        read(keyspace, parent, start);
        return count;
    }

    @Override
    public int getCount(String keyspace, String key, QueryPath parent, Consistency consistency) {
        long start = System.nanoTime();
        int count = backend.getCount(keyspace, key, parent, consistency);
        read(keyspace, parent, start);
        return count;
    }

    private void read(String keyspace, QueryPath path, long start) {
        metrics.of(keyspace, path.columnFamily()).reads().record(System.nanoTime() - start);
    }

    @Override
    public List<RowSlice> getRangeSlice(String keyspace, QueryPath parent, ColumnSelection selection, RowRange range,
                                        int count) {
        long start = System.nanoTime();
        List<RowSlice> rows = backend.getRangeSlice(keyspace, parent, selection, range, count);
        scanned(keyspace, parent, start);
        return rows;
    }

    @Override
    public List<RowSlice> getRangeSlice(String keyspace, QueryPath parent, ColumnSelection selection, RowRange range,
                                        int count, Consistency consistency) {
        long start = System.nanoTime();
        List<RowSlice> rows = backend.getRangeSlice(keyspace, parent, selection, range, count, consistency);
        scanned(keyspace, parent, start);
        return rows;
    }

    private void scanned(String keyspace, QueryPath parent, long start) {
        metrics.of(keyspace, parent.columnFamily()).rangeScans().record(System.nanoTime() - start);
    }

    @Override
    public List<DecoratedKey> keySamples(Range range) {
        return backend.keySamples(range);
    }

    @Override
    public List<Token> ringTokens() {
        return backend.ringTokens();
    }

    @Override
    public List<Token> describeSplits(Token start, Token end, int keysPerSplit) {
        return backend.describeSplits(start, end, keysPerSplit);
    }
}
