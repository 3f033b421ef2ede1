package sibyl.thrift;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.cassandra.thrift.AuthenticationException;
import org.apache.cassandra.thrift.AuthenticationRequest;
import org.apache.cassandra.thrift.AuthorizationException;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.InvalidRequestException;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.NotFoundException;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.TimedOutException;
import org.apache.cassandra.thrift.TokenRange;
import org.apache.cassandra.thrift.UnavailableException;
import org.apache.cassandra.thrift.cassandraConstants;
import sibyl.auth.AuthenticationFailure;
import sibyl.auth.AuthorizationFailure;
import sibyl.auth.Authenticator;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.ColumnSelection;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.dht.Partitioner;
import sibyl.dht.Token;
import sibyl.service.Consistency;
import sibyl.service.StorageHints;
import sibyl.service.StorageService;
import org.apache.thrift.TApplicationException;

/**
 * The 0.6 interface as one connection sees it. Describe calls are answered from the
 * configuration; data calls are validated as 0.6 validated them, converted, and handed to
 * the storage service, and answer with a future ({@link CassandraCalls} waits for it or answers it when it
 * completes). One instance per connection, holding that connection's login state.
 */
final class CassandraHandler {
    /**
     * How many rows of one call (multiget, a batch_mutate of many keys) a store that asks another server is asked
     * for at once: enough that a call of many rows takes a few round trips rather than one per row, few enough
     * that one call does not flood the cluster's coordinators.
     */
    static final int ROWS_IN_FLIGHT = RowRequests.ROWS_IN_FLIGHT;

    /** How the writes at consistency level ZERO of a call are started: acknowledged before they are applied. */
    @FunctionalInterface
    interface ZeroWrites {
        /**
         * Starts applying {@code mutation}; a failure can only be logged.
         *
         * @return completes when the call may be answered (never exceptionally)
         */
        CompletableFuture<Void> start(RowMutation mutation);
    }

    private final SchemaViews views;
    private final Supplier<NodeDescription> node;
    private final Authenticator authenticator;
    private final ConnectionSession session;
    private final StorageService storage;
    private final StorageHints hints;
    private final ZeroWrites zeroWrites;
    private final long rpcTimeoutMillis;
    private final AuthRefusals refusals;

    /**
     * @param views the schema as each call sees it: taken once at the start of a call
     * @param node  what the node says of itself now (a reload changes the configuration text)
     * @param zeroWrites starts the ZERO writes (shared by all connections)
     */
    CassandraHandler(SchemaViews views, Supplier<NodeDescription> node, Authenticator authenticator,
                     ConnectionSession session, StorageService storage, StorageHints hints, ZeroWrites zeroWrites,
                     long rpcTimeoutMillis, AuthRefusals refusals) {
        this.views = views;
        this.node = node;
        this.authenticator = authenticator;
        this.session = session;
        this.storage = storage;
        this.hints = hints;
        this.zeroWrites = zeroWrites;
        this.rpcTimeoutMillis = rpcTimeoutMillis;
        this.refusals = refusals;
    }

    // --- login

    void login(String keyspace, AuthenticationRequest request)
            throws AuthenticationException, AuthorizationException {
        try {
            String user = authenticator.login(keyspace, request.getCredentials());
            session.loggedIn(user, keyspace);
        } catch (AuthenticationFailure e) {
            refusals.badCredentialsRefused();
            throw new AuthenticationException(e.getMessage());
        } catch (AuthorizationFailure e) {
            refusals.noAccessRefused();
            throw new AuthorizationException(e.getMessage());
        }
    }

    // --- describe calls: no login needed, as in 0.6

    String get_string_property(String property) {
        NodeDescription node = this.node.get();
        return switch (property) {
            case "cluster name" -> node.clusterName();
            case "config file" -> node.configText() == null ? "file not found!" : node.configText();
            case "token map" -> node.tokenMapJson(ringTokens());
            case "version" -> cassandraConstants.VERSION;
            default -> "?";
        };
    }

    List<String> get_string_list_property(String property) {
        return "keyspaces".equals(property) ? views.current().description().keyspaceNameList() : new ArrayList<>();
    }

    Set<String> describe_keyspaces() {
        return views.current().description().keyspaceNames();
    }

    String describe_cluster_name() {
        return node.get().clusterName();
    }

    String describe_version() {
        return cassandraConstants.VERSION;
    }

    String describe_partitioner() {
        return node.get().partitioner();
    }

    List<TokenRange> describe_ring(String keyspace) throws InvalidRequestException {
        if (SchemaDescription.isSystem(keyspace) || views.current().description().keyspace(keyspace) == null) {
            throw new InvalidRequestException("There is no ring for the keyspace: " + keyspace);
        }
        return node.get().ring(ringTokens());
    }

    private List<String> ringTokens() {
        return NodeDescription.ringTokens(storage);
    }

    Map<String, Map<String, String>> describe_keyspace(String keyspace) throws NotFoundException {
        Map<String, Map<String, String>> cfs = views.current().description().keyspace(keyspace);
        if (cfs == null) throw new NotFoundException();
        return cfs;
    }

    List<String> describe_splits(String startToken, String endToken, int keysPerSplit)
            throws TApplicationException {
        // 0.6 declares no exception here, so a bad argument can only reach the client as an
        // application exception; ours says what was wrong instead of 0.6's division by zero.
        if (keysPerSplit <= 0) {
            throw new TApplicationException(TApplicationException.PROTOCOL_ERROR,
                    "keys_per_split must be positive, not " + keysPerSplit);
        }
        Partitioner partitioner = storage.partitioner();
        Token start;
        Token end;
        try {
            start = partitioner.fromString(startToken);
            end = partitioner.fromString(endToken);
        } catch (IllegalArgumentException e) {
            throw new TApplicationException(TApplicationException.PROTOCOL_ERROR, "bad token: " + e.getMessage());
        }
        List<String> splits = new ArrayList<>();
        for (Token t : storage.describeSplits(start, end, keysPerSplit)) splits.add(partitioner.toString(t));
        return splits;
    }

    // --- data calls. Each checks in 0.6's order (login, request shape, keys, consistency level), then the keyspace
    // access of the logged-in user, then asks the store. A refusal of those checks is thrown; everything after
    // (the store's answer, its failure as the client's exception, the deadline) comes in the returned future,
    // which the processor waits for or answers when it completes (CassandraCalls).

    CompletableFuture<ColumnOrSuperColumn> get(String keyspace, String key, ColumnPath path, ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException {
        Deadline deadline = startCall();
        QueryPath query = checkGet(keyspace, List.of(key), path, cl);
        return StorageFailures.after(storage.readCell(keyspace, key, query, level(cl)), cell -> found(cell, deadline));
    }

    private QueryPath checkGet(String keyspace, List<String> keys, ColumnPath path, ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException {
        ThriftValidation validation = views.current().validation();
        validation.validateColumnPath(keyspace, path);
        for (String key : keys) validation.validateKey(key);
        checkRead(validation, keyspace, cl);
        return ThriftConversion.path(path);
    }

    private static ColumnOrSuperColumn found(Optional<Cell> cell, Deadline deadline)
            throws NotFoundException, TimedOutException {
        deadline.check();
        if (cell.isEmpty()) throw new NotFoundException();
        return ThriftConversion.cosc(cell.get());
    }

    CompletableFuture<List<ColumnOrSuperColumn>> get_slice(String keyspace, String key, ColumnParent parent,
                                                           SlicePredicate predicate, ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException {
        Deadline deadline = startCall();
        SliceQuery query = checkSlice(keyspace, List.of(key), parent, predicate, cl);
        return StorageFailures.after(storage.readSlice(keyspace, key, query.parent(), query.selection(), level(cl)),
                cells -> {
                    deadline.check();
                    return ThriftConversion.coscs(cells);
                });
    }

    /** A slice's column family (and super column) and predicate, converted once checked. */
    private record SliceQuery(QueryPath parent, ColumnSelection selection) {
    }

    private SliceQuery checkSlice(String keyspace, List<String> keys, ColumnParent parent, SlicePredicate predicate,
                                  ConsistencyLevel cl) throws InvalidRequestException, UnavailableException {
        ThriftValidation validation = views.current().validation();
        CFMetaData cf = validation.validateColumnParent(keyspace, parent);
        validation.validatePredicate(cf, parent, predicate);
        for (String key : keys) validation.validateKey(key);
        checkRead(validation, keyspace, cl);
        return new SliceQuery(ThriftConversion.parent(parent), ThriftConversion.selection(predicate));
    }

    /**
     * The keys are read {@value #ROWS_IN_FLIGHT} at a time, as 0.6 sent the reads of all keys before waiting for
     * any; a store that answers at once reads them one after the other.
     */
    CompletableFuture<Map<String, ColumnOrSuperColumn>> multiget(String keyspace, List<String> keys, ColumnPath path,
                                                                 ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException {
        Deadline deadline = startCall();
        QueryPath query = checkGet(keyspace, keys, path, cl);
        List<String> distinct = List.copyOf(new LinkedHashSet<>(keys));
        Consistency level = level(cl);
        return StorageFailures.after(RowRequests.eachRow(distinct.size(), deadline,
                i -> storage.readCell(keyspace, distinct.get(i), query, level)), cells -> {
                    deadline.check();
                    Map<String, ColumnOrSuperColumn> result = new HashMap<>();
                    for (int i = 0; i < distinct.size(); i++) result.put(distinct.get(i), entry(cells.get(i)));
                    return result;
                });
    }

    /** 0.6 answers a missing column with an entry that has neither field set. */
    private static ColumnOrSuperColumn entry(Optional<Cell> cell) {
        return cell.map(ThriftConversion::cosc).orElseGet(ColumnOrSuperColumn::new);
    }

    /** The keys are read as {@link #multiget} reads them. */
    CompletableFuture<Map<String, List<ColumnOrSuperColumn>>> multiget_slice(
            String keyspace, List<String> keys, ColumnParent parent, SlicePredicate predicate, ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException {
        Deadline deadline = startCall();
        SliceQuery query = checkSlice(keyspace, keys, parent, predicate, cl);
        List<String> distinct = List.copyOf(new LinkedHashSet<>(keys));
        Consistency level = level(cl);
        return StorageFailures.after(RowRequests.eachRow(distinct.size(), deadline,
                i -> storage.readSlice(keyspace, distinct.get(i), query.parent(), query.selection(), level)),
                slices -> {
                    deadline.check();
                    Map<String, List<ColumnOrSuperColumn>> result = new HashMap<>();
                    for (int i = 0; i < distinct.size(); i++) {
                        result.put(distinct.get(i), ThriftConversion.coscs(slices.get(i)));
                    }
                    return result;
                });
    }

    CompletableFuture<Integer> get_count(String keyspace, String key, ColumnParent parent, ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException {
        Deadline deadline = startCall();
        ThriftValidation validation = views.current().validation();
        validation.validateColumnParent(keyspace, parent);
        validation.validateKey(key);
        checkRead(validation, keyspace, cl);
        return StorageFailures.after(storage.count(keyspace, key, ThriftConversion.parent(parent), level(cl)),
                count -> {
                    deadline.check();
                    return count;
                });
    }

    CompletableFuture<List<KeySlice>> get_range_slice(String keyspace, ColumnParent parent, SlicePredicate predicate,
                                                      String startKey, String finishKey, int rowCount,
                                                      ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException {
        KeyRange range = new KeyRange(rowCount);
        range.setStart_key(startKey);
        range.setEnd_key(finishKey);
        return get_range_slices(keyspace, parent, predicate, range, cl);
    }

    CompletableFuture<List<KeySlice>> get_range_slices(String keyspace, ColumnParent parent, SlicePredicate predicate,
                                                       KeyRange range, ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException {
        Deadline deadline = startCall();
        ThriftValidation validation = views.current().validation();
        CFMetaData cf = validation.validateColumnParent(keyspace, parent);
        validation.validatePredicate(cf, parent, predicate);
        validation.validateKeyRange(range);
        checkRead(validation, keyspace, cl);
        return StorageFailures.after(storage.scan(keyspace, ThriftConversion.parent(parent),
                ThriftConversion.selection(predicate), ThriftConversion.rowRange(range, storage.partitioner()),
                range.getCount(), level(cl)), rows -> {
                    deadline.check();
                    return ThriftConversion.keySlices(rows);
                });
    }

    CompletableFuture<Void> insert(String keyspace, String key, ColumnPath path, ByteBuffer value, long timestamp,
                                   ConsistencyLevel cl) throws InvalidRequestException {
        Deadline deadline = startCall();
        ThriftValidation validation = views.current().validation();
        validation.validateKey(key);
        validation.validateInsertPath(keyspace, path);
        validation.validateWriteConsistency(cl);
        authorize(keyspace);
        byte[] bytes = new byte[value.remaining()];
        value.duplicate().get(bytes);
        RowMutation.Builder m = RowMutation.builder(keyspace, key);
        ThriftConversion.addInsert(m, path, bytes, timestamp);
        return write(List.of(m.build()), cl, deadline);
    }

    CompletableFuture<Void> batch_insert(String keyspace, String key, Map<String, List<ColumnOrSuperColumn>> cfmap,
                                         ConsistencyLevel cl) throws InvalidRequestException {
        Deadline deadline = startCall();
        ThriftValidation validation = views.current().validation();
        validation.validateKey(key);
        RowMutation.Builder m = RowMutation.builder(keyspace, key);
        for (Map.Entry<String, List<ColumnOrSuperColumn>> e : cfmap.entrySet()) {
            CFMetaData known = validation.knownColumnFamily(keyspace, e.getKey());
            for (ColumnOrSuperColumn cosc : e.getValue()) {
                validation.validateColumnOrSuperColumn(keyspace, e.getKey(), known, cosc);
                ThriftConversion.addWrite(m, e.getKey(), cosc);
            }
        }
        validation.validateWriteConsistency(cl);
        authorize(keyspace);
        return write(List.of(m.build()), cl, deadline);
    }

    CompletableFuture<Void> remove(String keyspace, String key, ColumnPath path, long timestamp, ConsistencyLevel cl)
            throws InvalidRequestException {
        Deadline deadline = startCall();
        ThriftValidation validation = views.current().validation();
        validation.validateKey(key);
        validation.validateRemovePath(keyspace, path);
        validation.validateWriteConsistency(cl);
        authorize(keyspace);
        RowMutation.Builder m = RowMutation.builder(keyspace, key);
        ThriftConversion.addRemoval(m, path, timestamp);
        return write(List.of(m.build()), cl, deadline);
    }

    /** The rows are written as {@link #write} writes them. */
    CompletableFuture<Void> batch_mutate(String keyspace, Map<String, Map<String, List<Mutation>>> mutationMap,
                                         ConsistencyLevel cl) throws InvalidRequestException {
        Deadline deadline = startCall();
        ThriftValidation validation = views.current().validation();
        // Everything is validated before anything is applied; each key is one atomic row mutation.
        List<RowMutation> mutations = new ArrayList<>(mutationMap.size());
        for (Map.Entry<String, Map<String, List<Mutation>>> row : mutationMap.entrySet()) {
            validation.validateKey(row.getKey());
            RowMutation.Builder m = RowMutation.builder(keyspace, row.getKey());
            for (Map.Entry<String, List<Mutation>> cfEntry : row.getValue().entrySet()) {
                String cfName = cfEntry.getKey();
                CFMetaData known = validation.knownColumnFamily(keyspace, cfName);
                for (Mutation mutation : cfEntry.getValue()) {
                    validation.validateMutation(keyspace, cfName, known, mutation);
                    if (mutation.isSetColumn_or_supercolumn()) {
                        ThriftConversion.addWrite(m, cfName, mutation.getColumn_or_supercolumn());
                    } else {
                        ThriftConversion.addDeletion(m, known, mutation.getDeletion());
                    }
                }
            }
            mutations.add(m.build());
        }
        validation.validateWriteConsistency(cl);
        if (!mutations.isEmpty()) authorize(keyspace);
        return write(mutations, cl, deadline);
    }

    // ---- shared steps of the data calls

    /** The first check of every data call: is this connection logged in? */
    private Deadline startCall() throws InvalidRequestException {
        String problem = session.loginProblem();
        if (problem != null) {
            refusals.notLoggedInRefused();
            throw new InvalidRequestException(problem);
        }
        return new Deadline(rpcTimeoutMillis);
    }

    private void checkRead(ThriftValidation validation, String keyspace, ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException {
        validation.validateReadConsistency(cl);
        authorize(keyspace);
        if (!hints.countsReplicas()) ReplicaCount.checkRead(cl, validation.keyspace(keyspace).replicationFactor());
    }

    private void authorize(String keyspace) throws InvalidRequestException {
        try {
            session.authorize(keyspace);
        } catch (AuthorizationFailure e) {
            refusals.noAccessRefused();
            // The 0.6 data calls declare no AuthorizationException; IRE is what a client can receive.
            throw new InvalidRequestException(e.getMessage());
        }
    }

    /**
     * Applies validated mutations ({@link RowRequests#write}). ZERO acknowledges before applying, as in 0.6
     * ({@link ZeroWrites}); every other level waits for the store.
     */
    private CompletableFuture<Void> write(List<RowMutation> mutations, ConsistencyLevel cl, Deadline deadline) {
        if (cl == ConsistencyLevel.ZERO) {
            if (mutations.size() == 1) return zeroWrites.start(mutations.get(0));
            CompletableFuture<?>[] writes = new CompletableFuture<?>[mutations.size()];
            for (int i = 0; i < writes.length; i++) writes[i] = zeroWrites.start(mutations.get(i));
            return CompletableFuture.allOf(writes);
        }
        return RowRequests.write(storage, mutations, level(cl), deadline, StorageFailures.V06);
    }

    /** The storage layer's name for a validated (non-null) consistency level. */
    private static Consistency level(ConsistencyLevel cl) {
        return Consistency.valueOf(cl.name());
    }

}
