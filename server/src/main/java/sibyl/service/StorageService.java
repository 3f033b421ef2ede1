package sibyl.service;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import sibyl.db.Cell;
import sibyl.db.ColumnSelection;
import sibyl.db.CompareAndSet;
import sibyl.db.IndexQuery;
import sibyl.db.InvalidQueryException;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.dht.Partitioner;
import sibyl.dht.Token;

/**
 * The backend seam: row reads and mutations of the keyspaces a node serves, in db-layer types
 * only (no Thrift). The embedded storage core implements it ({@code sibyl.engine.LocalStorageService});
 * a backend over another store can implement it too. This package knows no implementation:
 * the node chooses one when it is built.
 *
 * <p>Results never contain tombstones, and a super column comes back only with its live
 * subcolumns and only if it has one (docs/semantics.md §Reads). Callers are expected to validate
 * requests first (names against comparators, path shapes); what slips through fails with
 * {@link sibyl.db.InvalidQueryException} carrying 0.6's message.
 *
 * <p>Each data operation takes a {@link Consistency}, which a store with one replica meets with itself and a
 * replicated store may fail with {@link UnavailableReplicasException} or {@link StorageTimeoutException}, and
 * answers with a future: a store that answers at once (the embedded engine) returns it completed, one that asks
 * another server completes it later, so that no thread waits meanwhile. A failure, whether found at once or
 * later, completes the future with the storage layer's exception; the operations never throw. What the front end
 * should expect of a store's answers (whether they may wait) is its {@link StorageHints}.
 */
public interface StorageService {
    Partitioner partitioner();

    /**
     * The keyspaces served now, {@code system} included. A reload of the configuration replaces
     * it as a whole; a caller that wants one consistent view for a whole call takes it once.
     */
    Schema schema();

    /** Applies a row mutation atomically and isolated per column family, once {@code consistency}'s replicas have. */
    CompletableFuture<Void> write(RowMutation mutation, Consistency consistency);

    /**
     * cas (docs/thrift-api-0.7.md §cas): compares and, when the condition holds, writes, linearizable per row
     * among the row's compare-and-sets: no write of the row comes between the compare and the set, and each
     * compare-and-set of the row writes at a timestamp the store chooses, later than any before it. The condition
     * is judged at {@code serial}; a set is acknowledged once {@code commit}'s replicas have it (durable as any
     * write is). The outcome of a failed one holds the columns the condition read.
     */
    CompletableFuture<CompareAndSet.Outcome> compareAndSet(CompareAndSet cas, SerialConsistency serial,
                                                          Consistency commit);

    /**
     * get: the live column (standard CF), subcolumn (super CF, path with super column and
     * column) or super column with its live subcolumns (path with super column only); empty
     * when there is none (NotFoundException for a Thrift caller).
     */
    CompletableFuture<Optional<Cell>> readCell(String keyspace, String key, QueryPath path, Consistency consistency);

    /**
     * get_slice: columns of a standard CF, super columns of a super CF ({@code parent} without
     * super column), or subcolumns of one super column; a missing row gives an empty list.
     */
    CompletableFuture<List<Cell>> readSlice(String keyspace, String key, QueryPath parent, ColumnSelection selection,
                                            Consistency consistency);

    /** get_count: the size of {@code readSlice} with {@link ColumnSelection#all()}. */
    CompletableFuture<Integer> count(String keyspace, String key, QueryPath parent, Consistency consistency);

    /**
     * get_range_slices: up to {@code count} (> 0) rows in ring order, each with the
     * {@code readSlice} result of {@code selection}; rows holding only tombstones or nothing
     * selected come back with an empty list.
     */
    CompletableFuture<List<RowSlice>> scan(String keyspace, QueryPath parent, ColumnSelection selection,
                                           RowRange range, int count, Consistency consistency);

    /**
     * truncate: every write made to the column family so far is gone, whatever its timestamp, and stays gone
     * (the embedded engine takes a snapshot {@code truncated-<CF>} of it first). Fails with
     * {@link StorageTimeoutException} when it cannot be done in time and with
     * {@link sibyl.db.WriteFailedException} when the node cannot make it durable; nothing is truncated then.
     */
    CompletableFuture<Void> truncate(String keyspace, String columnFamily);

    /**
     * Why a store that keeps no secondary index refuses an index query or definition (the cluster backend;
     * docs/differences.md §The 0.7+ dialect).
     */
    String INDEXES_NOT_SERVED = "secondary indexes (index_type of column_metadata, get_indexed_slices, row_filter) are"
            + " served by Sibyl's own engine only, not in cluster mode: the tables Sibyl keeps on the Cassandra 5"
            + " cluster carry no index that answers as 3.11's KEYS indexes do (docs/differences.md, \"The 0.7+ dialect\")";

    /**
     * get_indexed_slices and get_range_slices with a row_filter: up to {@code count} (> 0) rows of {@code range} in
     * ring order for which every expression of {@code query} holds, each with the {@code readSlice} result of
     * {@code selection}. A store without secondary indexes refuses it ({@link #INDEXES_NOT_SERVED}).
     */
    default CompletableFuture<List<RowSlice>> indexedScan(String keyspace, QueryPath parent, ColumnSelection selection,
                                                          IndexQuery query, RowRange range, int count,
                                                          Consistency consistency) {
        return CompletableFuture.failedFuture(new InvalidQueryException(INDEXES_NOT_SERVED));
    }

    /** Why a store that serves no CQL refuses a statement (docs/thrift-api-0.7.md §CQL). */
    String CQL_NOT_SERVED = "CQL over Thrift is not served by this node's store, which serves the Thrift calls"
            + " (docs/thrift-api-0.7.md, \"CQL\")";

    /**
     * Runs a CQL statement, its unqualified table names taken from {@code keyspace} (null: none, so the statement
     * must name one), at {@code consistency}. Fails with {@link sibyl.db.InvalidQueryException} for a statement the
     * store refuses, with its reason, as the other calls do; a store without CQL refuses all ({@link #CQL_NOT_SERVED}).
     */
    default CompletableFuture<CqlAnswer> executeCql(String keyspace, String statement, Consistency consistency) {
        return CompletableFuture.failedFuture(new InvalidQueryException(CQL_NOT_SERVED));
    }

    /** Prepares a CQL statement for {@link #executePreparedCql}, as {@link #executeCql} would run it. */
    default CompletableFuture<CqlPrepared> prepareCql(String keyspace, String statement) {
        return CompletableFuture.failedFuture(new InvalidQueryException(CQL_NOT_SERVED));
    }

    /** Runs the statement {@link #prepareCql} gave {@code id}, with {@code values} bound to its markers in order. */
    default CompletableFuture<CqlAnswer> executePreparedCql(int id, List<ByteBuffer> values, Consistency consistency) {
        return CompletableFuture.failedFuture(new InvalidQueryException(CQL_NOT_SERVED));
    }

    /**
     * The tokens that cut the ring of the store this node serves from, in ring order, when that ring is
     * not this node alone (a cluster's, each range of which every node of Sibyl in front of it serves).
     * Empty for a store that is its own ring: this node's token then stands for it.
     */
    List<Token> ringTokens();

    /**
     * describe_splits: {@code [start, t1, ..., end]} where the t_i are evenly spaced sampled
     * tokens of (start, end], about {@code keysPerSplit} keys apart.
     *
     * @throws IllegalArgumentException when keysPerSplit is not positive
     */
    List<Token> describeSplits(Token start, Token end, int keysPerSplit);
}
