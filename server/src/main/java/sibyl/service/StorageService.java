package sibyl.service;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
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
 * <p>Each call has a form with a {@link Consistency}; a store with one replica ignores it (the
 * default methods), a replicated store may fail it with {@link UnavailableReplicasException} or
 * {@link StorageTimeoutException}.
 */
public interface StorageService {
    Partitioner partitioner();

    /**
     * The keyspaces served now, {@code system} included. A reload of the configuration replaces
     * it as a whole; a caller that wants one consistent view for a whole call takes it once.
     */
    Schema schema();

    /** Every keyspace, {@code system} included, in configuration order. */
    default List<KSMetaData> keyspaces() {
        return schema().keyspaces();
    }

    default Optional<KSMetaData> keyspace(String name) {
        return schema().keyspace(name);
    }

    /** Applies a row mutation atomically and isolated per column family. */
    void apply(RowMutation mutation);

    /** Applies a row mutation once {@code consistency}'s replicas have. */
    default void apply(RowMutation mutation, Consistency consistency) {
        apply(mutation);
    }

    /**
     * Whether the store judges consistency levels against its own replicas ({@link UnavailableReplicasException});
     * false for a store that is its own only replica, whose callers check levels against the ReplicationFactor.
     */
    default boolean countsReplicas() {
        return false;
    }

    /**
     * Whether {@link #apply} may wait now, for a disk sync, a flush or another server, rather than return in
     * microseconds; the front end runs quick calls on its network threads (see sibyl.transport.CallPlacement).
     * True unless the store knows better.
     */
    default boolean writesMayWait() {
        return true;
    }

    /**
     * Whether a read (get, get_slice, get_count and their multi-key forms) may wait for another server, rather
     * than find its row in memory or the page cache; the front end never runs such reads on its network threads,
     * where one waiting read would hold up every connection of that thread. False unless the store says so: a
     * store on local disk leaves it to the front end to notice reads that have turned slow.
     */
    default boolean readsMayWait() {
        return false;
    }

    /**
     * get: the live column (standard CF), subcolumn (super CF, path with super column and
     * column) or super column with its live subcolumns (path with super column only); empty
     * when there is none (NotFoundException for a Thrift caller).
     */
    Optional<Cell> get(String keyspace, String key, QueryPath path);

    default Optional<Cell> get(String keyspace, String key, QueryPath path, Consistency consistency) {
        return get(keyspace, key, path);
    }

    /**
     * get_slice: columns of a standard CF, super columns of a super CF ({@code parent} without
     * super column), or subcolumns of one super column; a missing row gives an empty list.
     */
    List<Cell> getSlice(String keyspace, String key, QueryPath parent, ColumnSelection selection);

    default List<Cell> getSlice(String keyspace, String key, QueryPath parent, ColumnSelection selection,
                                Consistency consistency) {
        return getSlice(keyspace, key, parent, selection);
    }

    // ---- asynchronous forms, for a store that asks another server (readsMayWait): the front end starts the
    // call on its network thread and answers it when the future completes, holding no thread while it waits.
    // A failure, whether found at once or later, completes the future with the exception the synchronous
    // form throws. The defaults run the synchronous form at once.

    /** As {@link #apply(RowMutation, Consistency)}, finishing later. */
    default CompletableFuture<Void> applyAsync(RowMutation mutation, Consistency consistency) {
        try {
            apply(mutation, consistency);
            return CompletableFuture.completedFuture(null);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** As {@link #get(String, String, QueryPath, Consistency)}, finishing later. */
    default CompletableFuture<Optional<Cell>> getAsync(String keyspace, String key, QueryPath path,
                                                       Consistency consistency) {
        try {
            return CompletableFuture.completedFuture(get(keyspace, key, path, consistency));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** As {@link #getSlice(String, String, QueryPath, ColumnSelection, Consistency)}, finishing later. */
    default CompletableFuture<List<Cell>> getSliceAsync(String keyspace, String key, QueryPath parent,
                                                        ColumnSelection selection, Consistency consistency) {
        try {
            return CompletableFuture.completedFuture(getSlice(keyspace, key, parent, selection, consistency));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** get_count: the size of {@code getSlice} with {@link ColumnSelection#all()}. */
    int getCount(String keyspace, String key, QueryPath parent);

    default int getCount(String keyspace, String key, QueryPath parent, Consistency consistency) {
        return getCount(keyspace, key, parent);
    }

    /**
     * get_range_slices: up to {@code count} (> 0) rows in ring order, each with the
     * {@code getSlice} result of {@code selection}; rows holding only tombstones or nothing
     * selected come back with an empty list.
     */
    List<RowSlice> getRangeSlice(String keyspace, QueryPath parent, ColumnSelection selection, RowRange range,
                                 int count);

    default List<RowSlice> getRangeSlice(String keyspace, QueryPath parent, ColumnSelection selection,
                                         RowRange range, int count, Consistency consistency) {
        return getRangeSlice(keyspace, parent, selection, range, count);
    }

    /**
     * The sampled keys (every IndexInterval-th key of each column family of every keyspace)
     * whose tokens lie in {@code range}, in ring order from the range's start.
     */
    List<DecoratedKey> keySamples(Range range);

    /**
     * The tokens that cut the ring of the store this node serves from, in ring order, when that ring is
     * not this node alone (a cluster's, each range of which every node of Sibyl in front of it serves).
     * Empty for a store that is its own ring: this node's token then stands for it.
     */
    default List<Token> ringTokens() {
        return List.of();
    }

    /**
     * describe_splits: {@code [start, t1, ..., end]} where the t_i are evenly spaced sampled
     * tokens of (start, end], about {@code keysPerSplit} keys apart.
     *
     * @throws IllegalArgumentException when keysPerSplit is not positive
     */
    List<Token> describeSplits(Token start, Token end, int keysPerSplit);
}
