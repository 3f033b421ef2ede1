package sibyl.service;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.ColumnSelection;
import sibyl.db.CompareAndSet;
import sibyl.db.KSMetaData;
import sibyl.db.IndexQuery;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.dht.Partitioner;
import sibyl.dht.Token;

/**
 * A backend with its requests counted and timed per column family in {@link RequestMetrics}: the
 * seam is where every backend's reads and writes pass, so the figures mean the same whichever
 * one serves them. A request counts once it has been served; one the backend refuses (an unknown
 * column family, a write that could not be made durable) is not counted. The latency is the
 * backend's whole answer: for a write, the commit log and the memtable; a write changing several
 * column families counts, with its latency, in each of them.
 *
 * <p>Each data operation is passed on and its answer handed to {@link #served}, which records it when it comes:
 * at once for an answer already there (no further object is made), later for one to come.
 */
public final class MeteredStorageService implements StorageService {
    private final StorageService backend;
    private final RequestMetrics metrics;

    public MeteredStorageService(StorageService backend, RequestMetrics metrics) {
        this.backend = backend;
        this.metrics = metrics;
        // Every configured column family shows, with zeros, from the start.
        for (KSMetaData ks : backend.schema().keyspaces()) {
            for (CFMetaData cf : ks.columnFamilies()) metrics.of(ks.name(), cf.name());
        }
    }

    /** Which of a column family's figures a request counts in. */
    private enum Kind {
        READ(ColumnFamilyRequests::reads),
        WRITE(ColumnFamilyRequests::writes),
        SCAN(ColumnFamilyRequests::rangeScans);

        private final Function<ColumnFamilyRequests, LatencyTracker> tracker;

        Kind(Function<ColumnFamilyRequests, LatencyTracker> tracker) {
            this.tracker = tracker;
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
    public CompletableFuture<Void> write(RowMutation mutation, Consistency consistency) {
        long start = System.nanoTime();
        // Most writes change one column family: no iterator over the changes, so no allocation.
        String sole = mutation.soleColumnFamily();
        return served(backend.write(mutation, consistency), start, Kind.WRITE, mutation.keyspace(), sole,
                sole == null ? mutation : null);
    }

    /** Counted as a write of its column family, whether it applied or not. */
    @Override
    public CompletableFuture<CompareAndSet.Outcome> compareAndSet(CompareAndSet cas, SerialConsistency serial,
                                                                 Consistency commit) {
        long start = System.nanoTime();
        return served(backend.compareAndSet(cas, serial, commit), start, Kind.WRITE, cas.keyspace(),
                cas.columnFamily(), null);
    }

    @Override
    public CompletableFuture<Optional<Cell>> readCell(String keyspace, String key, QueryPath path,
                                                      Consistency consistency) {
        long start = System.nanoTime();
        return served(backend.readCell(keyspace, key, path, consistency), start, Kind.READ, keyspace,
                path.columnFamily(), null);
    }

    @Override
    public CompletableFuture<List<Cell>> readSlice(String keyspace, String key, QueryPath parent,
                                                   ColumnSelection selection, Consistency consistency) {
        long start = System.nanoTime();
        return served(backend.readSlice(keyspace, key, parent, selection, consistency), start, Kind.READ, keyspace,
                parent.columnFamily(), null);
    }

    @Override
    public CompletableFuture<Integer> count(String keyspace, String key, QueryPath parent, Consistency consistency) {
        long start = System.nanoTime();
        return served(backend.count(keyspace, key, parent, consistency), start, Kind.READ, keyspace,
                parent.columnFamily(), null);
    }

    @Override
    public CompletableFuture<List<RowSlice>> scan(String keyspace, QueryPath parent, ColumnSelection selection,
                                                  RowRange range, int count, Consistency consistency) {
        long start = System.nanoTime();
        return served(backend.scan(keyspace, parent, selection, range, count, consistency), start, Kind.SCAN,
                keyspace, parent.columnFamily(), null);
    }

    @Override
    public CompletableFuture<List<RowSlice>> indexedScan(String keyspace, QueryPath parent, ColumnSelection selection,
                                                         IndexQuery query, RowRange range, int count,
                                                         Consistency consistency) {
        long start = System.nanoTime();
        return served(backend.indexedScan(keyspace, parent, selection, query, range, count, consistency), start,
                Kind.SCAN, keyspace, parent.columnFamily(), null);
    }

    /**
     * The backend's answer, recorded as {@code kind} in {@code columnFamily} of {@code keyspace} once it has come
     * and succeeded; in each column family of {@code several} instead, for a mutation of more than one.
     */
    private <T> CompletableFuture<T> served(CompletableFuture<T> answer, long start, Kind kind, String keyspace,
                                            String columnFamily, RowMutation several) {
        if (answer.isDone()) {
            if (!answer.isCompletedExceptionally()) record(kind, keyspace, columnFamily, several, start);
            return answer;
        }
        return answer.thenApply(value -> {
            record(kind, keyspace, columnFamily, several, start);
            return value;
        });
    }

    private void record(Kind kind, String keyspace, String columnFamily, RowMutation several, long start) {
        long nanos = System.nanoTime() - start;
        if (several == null) {
            kind.tracker.apply(metrics.of(keyspace, columnFamily)).record(nanos);
        } else {
            for (String cf : several.changes().keySet()) kind.tracker.apply(metrics.of(keyspace, cf)).record(nanos);
        }
    }

    /** A CQL statement names no column family of the schema to count it in: passed on, not counted. */
    @Override
    public CompletableFuture<CqlAnswer> executeCql(String keyspace, String statement, Consistency consistency) {
        return backend.executeCql(keyspace, statement, consistency);
    }

    @Override
    public CompletableFuture<CqlPrepared> prepareCql(String keyspace, String statement) {
        return backend.prepareCql(keyspace, statement);
    }

    @Override
    public CompletableFuture<CqlAnswer> executePreparedCql(int id, List<ByteBuffer> values, Consistency consistency) {
        return backend.executePreparedCql(id, values, consistency);
    }

    /** Not a read or a write of rows: not counted in the request metrics. */
    @Override
    public CompletableFuture<Void> truncate(String keyspace, String columnFamily) {
        return backend.truncate(keyspace, columnFamily);
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
