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
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.apache.cassandra.thrift.AuthenticationException;
import org.apache.cassandra.thrift.AuthenticationRequest;
import org.apache.cassandra.thrift.AuthorizationException;
import org.apache.cassandra.thrift.Cassandra;
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
import sibyl.db.InvalidQueryException;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowSlice;
import sibyl.db.WriteFailedException;
import sibyl.dht.Partitioner;
import sibyl.dht.Token;
import sibyl.service.BoundedFanOut;
import sibyl.service.Consistency;
import sibyl.service.StorageService;
import sibyl.service.StorageTimeoutException;
import sibyl.service.UnavailableReplicasException;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;

/**
 * The 0.6 interface as one connection sees it. Describe calls are answered from the
 * configuration; data calls are validated as 0.6 validated them, converted, and handed to
 * the storage service. One instance per connection, holding that connection's login state.
 */
final class CassandraHandler implements Cassandra.Iface {
    /**
     * How many rows of one call (multiget, a batch_mutate of many keys) a store that asks another server is asked
     * for at once: enough that a call of many rows takes a few round trips rather than one per row, few enough
     * that one call does not flood the cluster's coordinators.
     */
    static final int ROWS_IN_FLIGHT = 16;

    private final SchemaViews views;
    private final Supplier<NodeDescription> node;
    private final Authenticator authenticator;
    private final ConnectionSession session;
    private final StorageService storage;
    private final Executor background;
    private final UnacknowledgedWrites unacknowledged;
    private final long rpcTimeoutMillis;
    private final AuthRefusals refusals;

    /**
     * @param views the schema as each call sees it: taken once at the start of a call
     * @param node  what the node says of itself now (a reload changes the configuration text)
     * @param background     applies the ZERO writes of calls run on a worker
     * @param unacknowledged the ZERO writes of calls started on a network thread (shared by all connections)
     */
    CassandraHandler(SchemaViews views, Supplier<NodeDescription> node, Authenticator authenticator,
                     ConnectionSession session, StorageService storage, Executor background,
                     UnacknowledgedWrites unacknowledged, long rpcTimeoutMillis, AuthRefusals refusals) {
        this.views = views;
        this.node = node;
        this.authenticator = authenticator;
        this.session = session;
        this.storage = storage;
        this.background = background;
        this.unacknowledged = unacknowledged;
        this.rpcTimeoutMillis = rpcTimeoutMillis;
        this.refusals = refusals;
    }

    // --- login

    @Override
    public void login(String keyspace, AuthenticationRequest request)
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

    @Override
    public String get_string_property(String property) {
        NodeDescription node = this.node.get();
        return switch (property) {
            case "cluster name" -> node.clusterName();
            case "config file" -> node.configText() == null ? "file not found!" : node.configText();
            case "token map" -> node.tokenMapJson(ringTokens());
            case "version" -> cassandraConstants.VERSION;
            default -> "?";
        };
    }

    @Override
    public List<String> get_string_list_property(String property) {
        return "keyspaces".equals(property) ? views.current().description().keyspaceNameList() : new ArrayList<>();
    }

    @Override
    public Set<String> describe_keyspaces() {
        return views.current().description().keyspaceNames();
    }

    @Override
    public String describe_cluster_name() {
        return node.get().clusterName();
    }

    @Override
    public String describe_version() {
        return cassandraConstants.VERSION;
    }

    @Override
    public String describe_partitioner() {
        return node.get().partitioner();
    }

    @Override
    public List<TokenRange> describe_ring(String keyspace) throws InvalidRequestException {
        if (SchemaDescription.isSystem(keyspace) || views.current().description().keyspace(keyspace) == null) {
            throw new InvalidRequestException("There is no ring for the keyspace: " + keyspace);
        }
        return node.get().ring(ringTokens());
    }

    /** The tokens of the store's ring, when it has one of its own (cluster mode), in the partitioner's wire form. */
    private List<String> ringTokens() {
        List<Token> tokens = storage.ringTokens();
        if (tokens.isEmpty()) return List.of();
        Partitioner partitioner = storage.partitioner();
        List<String> strings = new ArrayList<>(tokens.size());
        for (Token t : tokens) strings.add(partitioner.toString(t));
        return strings;
    }

    @Override
    public Map<String, Map<String, String>> describe_keyspace(String keyspace) throws NotFoundException {
        Map<String, Map<String, String>> cfs = views.current().description().keyspace(keyspace);
        if (cfs == null) throw new NotFoundException();
        return cfs;
    }

    @Override
    public List<String> describe_splits(String startToken, String endToken, int keysPerSplit)
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

    // --- data calls. Each checks in 0.6's order (login, request shape, keys, consistency
    // level), then the keyspace access of the logged-in user, then runs against storage.

    @Override
    public ColumnOrSuperColumn get(String keyspace, String key, ColumnPath path, ConsistencyLevel cl)
            throws InvalidRequestException, NotFoundException, UnavailableException, TimedOutException {
        Deadline deadline = startCall();
        QueryPath query = checkGet(keyspace, List.of(key), path, cl);
        Optional<Cell> cell = storage(() -> storage.get(keyspace, key, query, level(cl)));
        return found(cell, deadline);
    }

    /** As {@link #get}, answered when the store has: the call's own exceptions fail the future. */
    CompletableFuture<ColumnOrSuperColumn> getAsync(String keyspace, String key, ColumnPath path,
                                                    ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException {
        Deadline deadline = startCall();
        QueryPath query = checkGet(keyspace, List.of(key), path, cl);
        return StorageFailures.after(storage.getAsync(keyspace, key, query, level(cl)),
                cell -> found(cell, deadline));
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

    @Override
    public List<ColumnOrSuperColumn> get_slice(String keyspace, String key, ColumnParent parent,
                                               SlicePredicate predicate, ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException, TimedOutException {
        Deadline deadline = startCall();
        SliceQuery query = checkSlice(keyspace, List.of(key), parent, predicate, cl);
        List<Cell> cells = storage(() -> storage.getSlice(keyspace, key, query.parent(), query.selection(),
                level(cl)));
        deadline.check();
        return ThriftConversion.coscs(cells);
    }

    /** As {@link #get_slice}, answered when the store has: the call's own exceptions fail the future. */
    CompletableFuture<List<ColumnOrSuperColumn>> getSliceAsync(String keyspace, String key, ColumnParent parent,
                                                               SlicePredicate predicate, ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException {
        Deadline deadline = startCall();
        SliceQuery query = checkSlice(keyspace, List.of(key), parent, predicate, cl);
        return StorageFailures.after(storage.getSliceAsync(keyspace, key, query.parent(), query.selection(),
                level(cl)), cells -> {
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

    @Override
    public Map<String, ColumnOrSuperColumn> multiget(String keyspace, List<String> keys, ColumnPath path,
                                                     ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException, TimedOutException {
        Deadline deadline = startCall();
        QueryPath query = checkGet(keyspace, keys, path, cl);
        Map<String, ColumnOrSuperColumn> result = new HashMap<>();
        for (String key : keys) {
            deadline.check(); // per key, as 0.6 waited for each with what was left of the timeout
            Optional<Cell> cell = storage(() -> storage.get(keyspace, key, query, level(cl)));
            result.put(key, entry(cell));
        }
        deadline.check();
        return result;
    }

    /**
     * As {@link #multiget}, answered when the store has: the keys are read {@value #ROWS_IN_FLIGHT} at a time, as
     * 0.6 sent the reads of all keys before waiting for any.
     */
    CompletableFuture<Map<String, ColumnOrSuperColumn>> multigetAsync(String keyspace, List<String> keys,
                                                                      ColumnPath path, ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException {
        Deadline deadline = startCall();
        QueryPath query = checkGet(keyspace, keys, path, cl);
        List<String> distinct = List.copyOf(new LinkedHashSet<>(keys));
        return StorageFailures.after(BoundedFanOut.run(distinct.size(), ROWS_IN_FLIGHT,
                i -> unlessPast(deadline, () -> storage.getAsync(keyspace, distinct.get(i), query, level(cl)))), cells -> {
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

    @Override
    public Map<String, List<ColumnOrSuperColumn>> multiget_slice(String keyspace, List<String> keys,
                                                                 ColumnParent parent, SlicePredicate predicate,
                                                                 ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException, TimedOutException {
        Deadline deadline = startCall();
        SliceQuery query = checkSlice(keyspace, keys, parent, predicate, cl);
        Map<String, List<ColumnOrSuperColumn>> result = new HashMap<>();
        for (String key : keys) {
            if (result.containsKey(key)) continue;
            deadline.check(); // per key, as 0.6 waited for each with what was left of the timeout
            result.put(key, ThriftConversion.coscs(storage(() -> storage.getSlice(keyspace, key, query.parent(),
                    query.selection(), level(cl)))));
        }
        deadline.check();
        return result;
    }

    /** As {@link #multiget_slice}, answered when the store has; the keys are read as {@link #multigetAsync} does. */
    CompletableFuture<Map<String, List<ColumnOrSuperColumn>>> multigetSliceAsync(
            String keyspace, List<String> keys, ColumnParent parent, SlicePredicate predicate, ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException {
        Deadline deadline = startCall();
        SliceQuery query = checkSlice(keyspace, keys, parent, predicate, cl);
        List<String> distinct = List.copyOf(new LinkedHashSet<>(keys));
        return StorageFailures.after(BoundedFanOut.run(distinct.size(), ROWS_IN_FLIGHT,
                i -> unlessPast(deadline, () -> storage.getSliceAsync(keyspace, distinct.get(i), query.parent(),
                        query.selection(), level(cl)))),
                slices -> {
                    deadline.check();
                    Map<String, List<ColumnOrSuperColumn>> result = new HashMap<>();
                    for (int i = 0; i < distinct.size(); i++) {
                        result.put(distinct.get(i), ThriftConversion.coscs(slices.get(i)));
                    }
                    return result;
                });
    }

    @Override
    public int get_count(String keyspace, String key, ColumnParent parent, ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException, TimedOutException {
        Deadline deadline = startCall();
        ThriftValidation validation = views.current().validation();
        validation.validateColumnParent(keyspace, parent);
        validation.validateKey(key);
        checkRead(validation, keyspace, cl);
        int count = storage(() -> storage.getCount(keyspace, key, ThriftConversion.parent(parent), level(cl)));
        deadline.check();
        return count;
    }

    @Override
    public List<KeySlice> get_range_slice(String keyspace, ColumnParent parent, SlicePredicate predicate,
                                          String startKey, String finishKey, int rowCount, ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException, TimedOutException {
        KeyRange range = new KeyRange(rowCount);
        range.setStart_key(startKey);
        range.setEnd_key(finishKey);
        return get_range_slices(keyspace, parent, predicate, range, cl);
    }

    @Override
    public List<KeySlice> get_range_slices(String keyspace, ColumnParent parent, SlicePredicate predicate,
                                           KeyRange range, ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException, TimedOutException {
        Deadline deadline = startCall();
        ThriftValidation validation = views.current().validation();
        CFMetaData cf = validation.validateColumnParent(keyspace, parent);
        validation.validatePredicate(cf, parent, predicate);
        validation.validateKeyRange(range);
        checkRead(validation, keyspace, cl);
        List<RowSlice> rows = storage(() -> storage.getRangeSlice(keyspace, ThriftConversion.parent(parent),
                ThriftConversion.selection(predicate), ThriftConversion.rowRange(range, storage.partitioner()),
                range.getCount(), level(cl)));
        deadline.check();
        return ThriftConversion.keySlices(rows);
    }

    @Override
    public void insert(String keyspace, String key, ColumnPath path, ByteBuffer value, long timestamp,
                       ConsistencyLevel cl) throws InvalidRequestException, UnavailableException, TimedOutException,
            TApplicationException {
        Deadline deadline = startCall();
        apply(checkInsert(keyspace, key, path, value, timestamp, cl), cl, deadline);
    }

    /** As {@link #insert}, acknowledged when the store has: the call's own exceptions fail the future. */
    CompletableFuture<Void> insertAsync(String keyspace, String key, ColumnPath path, ByteBuffer value,
                                        long timestamp, ConsistencyLevel cl) throws InvalidRequestException {
        Deadline deadline = startCall();
        return applyAsync(checkInsert(keyspace, key, path, value, timestamp, cl), cl, deadline);
    }

    private List<RowMutation> checkInsert(String keyspace, String key, ColumnPath path, ByteBuffer value,
                                          long timestamp, ConsistencyLevel cl) throws InvalidRequestException {
        ThriftValidation validation = views.current().validation();
        validation.validateKey(key);
        validation.validateInsertPath(keyspace, path);
        validation.validateWriteConsistency(cl);
        authorize(keyspace);
        byte[] bytes = new byte[value.remaining()];
        value.duplicate().get(bytes);
        RowMutation.Builder m = RowMutation.builder(keyspace, key);
        ThriftConversion.addInsert(m, path, bytes, timestamp);
        return List.of(m.build());
    }

    @Override
    public void batch_insert(String keyspace, String key, Map<String, List<ColumnOrSuperColumn>> cfmap,
                             ConsistencyLevel cl) throws InvalidRequestException, UnavailableException, TimedOutException,
            TApplicationException {
        Deadline deadline = startCall();
        apply(checkBatchInsert(keyspace, key, cfmap, cl), cl, deadline);
    }

    /** As {@link #batch_insert}, acknowledged when the store has: the call's own exceptions fail the future. */
    CompletableFuture<Void> batchInsertAsync(String keyspace, String key,
                                             Map<String, List<ColumnOrSuperColumn>> cfmap, ConsistencyLevel cl)
            throws InvalidRequestException {
        Deadline deadline = startCall();
        return applyAsync(checkBatchInsert(keyspace, key, cfmap, cl), cl, deadline);
    }

    private List<RowMutation> checkBatchInsert(String keyspace, String key,
                                               Map<String, List<ColumnOrSuperColumn>> cfmap, ConsistencyLevel cl)
            throws InvalidRequestException {
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
        return List.of(m.build());
    }

    @Override
    public void remove(String keyspace, String key, ColumnPath path, long timestamp, ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException, TimedOutException,
            TApplicationException {
        Deadline deadline = startCall();
        apply(checkRemove(keyspace, key, path, timestamp, cl), cl, deadline);
    }

    /** As {@link #remove}, acknowledged when the store has: the call's own exceptions fail the future. */
    CompletableFuture<Void> removeAsync(String keyspace, String key, ColumnPath path, long timestamp,
                                        ConsistencyLevel cl) throws InvalidRequestException {
        Deadline deadline = startCall();
        return applyAsync(checkRemove(keyspace, key, path, timestamp, cl), cl, deadline);
    }

    private List<RowMutation> checkRemove(String keyspace, String key, ColumnPath path, long timestamp,
                                          ConsistencyLevel cl) throws InvalidRequestException {
        ThriftValidation validation = views.current().validation();
        validation.validateKey(key);
        validation.validateRemovePath(keyspace, path);
        validation.validateWriteConsistency(cl);
        authorize(keyspace);
        RowMutation.Builder m = RowMutation.builder(keyspace, key);
        ThriftConversion.addRemoval(m, path, timestamp);
        return List.of(m.build());
    }

    @Override
    public void batch_mutate(String keyspace, Map<String, Map<String, List<Mutation>>> mutationMap,
                             ConsistencyLevel cl) throws InvalidRequestException, UnavailableException, TimedOutException,
            TApplicationException {
        Deadline deadline = startCall();
        apply(checkBatchMutate(keyspace, mutationMap, cl), cl, deadline);
    }

    /**
     * As {@link #batch_mutate}, acknowledged when the store has: the rows are written {@value #ROWS_IN_FLIGHT} at
     * a time, as 0.6 sent the writes of all rows before waiting for any; the call's own exceptions fail the future.
     */
    CompletableFuture<Void> batchMutateAsync(String keyspace, Map<String, Map<String, List<Mutation>>> mutationMap,
                                             ConsistencyLevel cl) throws InvalidRequestException {
        Deadline deadline = startCall();
        return applyAsync(checkBatchMutate(keyspace, mutationMap, cl), cl, deadline);
    }

    private List<RowMutation> checkBatchMutate(String keyspace, Map<String, Map<String, List<Mutation>>> mutationMap,
                                               ConsistencyLevel cl) throws InvalidRequestException {
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
        return mutations;
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
        if (!storage.countsReplicas()) ReplicaCount.checkRead(cl, validation.keyspace(keyspace).replicationFactor());
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
     * Applies validated mutations. ZERO acknowledges before applying, as in 0.6; every other
     * level waits for this node, the only replica there is.
     *
     * <p>A write the node could not make durable (commit log unwritable: disk full, I/O error)
     * reaches the client as a TApplicationException (INTERNAL_ERROR) saying so and why: the
     * request was fine, the server failed, and 0.6's data calls declare nothing closer.
     */
    private void apply(List<RowMutation> mutations, ConsistencyLevel cl, Deadline deadline)
            throws InvalidRequestException, UnavailableException, TimedOutException, TApplicationException {
        if (cl == ConsistencyLevel.ZERO) {
            for (RowMutation m : mutations) background.execute(() -> applyUnacknowledged(m));
            return;
        }
        int applied = 0;
        for (RowMutation m : mutations) {
            deadline.check(); // per row, as 0.6 waited for each with what was left of the timeout
            try {
                storage(() -> {
                    storage.apply(m, level(cl));
                    return null;
                });
            } catch (WriteFailedException e) {
                String partly = applied == 0 ? "" : "; the first " + applied + " of the " + mutations.size()
                        + " rows of this batch were written";
                throw new TApplicationException(TApplicationException.INTERNAL_ERROR, e.getMessage() + partly);
            }
            applied++;
        }
        deadline.check();
    }

    /**
     * As {@link #apply}, with the rows written {@value #ROWS_IN_FLIGHT} at a time; ZERO writes started at once and
     * held by no thread ({@link UnacknowledgedWrites}), as this runs on a network thread.
     */
    private CompletableFuture<Void> applyAsync(List<RowMutation> mutations, ConsistencyLevel cl, Deadline deadline) {
        if (cl == ConsistencyLevel.ZERO) {
            CompletableFuture<?>[] writes = new CompletableFuture<?>[mutations.size()];
            for (int i = 0; i < writes.length; i++) {
                RowMutation m = mutations.get(i);
                writes[i] = unacknowledged.start(m, () -> storage.applyAsync(m, Consistency.ZERO));
            }
            return CompletableFuture.allOf(writes);
        }
        return StorageFailures.after(BoundedFanOut.run(mutations.size(), ROWS_IN_FLIGHT,
                i -> unlessPast(deadline, () -> storage.applyAsync(mutations.get(i), level(cl)))), applied -> {
                    deadline.check();
                    return null;
                });
    }

    /**
     * Starts one row's request of a call of several rows unless the call is already past its deadline, as the
     * synchronous forms check it before each row: a call that is late starts no further request.
     */
    private static <T> CompletableFuture<T> unlessPast(Deadline deadline, Supplier<CompletableFuture<T>> request) {
        if (deadline.passed()) {
            return CompletableFuture.failedFuture(new StorageTimeoutException("past RpcTimeoutInMillis", null));
        }
        return request.get();
    }

    /** A ZERO write: already acknowledged, so a failure can only be logged. */
    private void applyUnacknowledged(RowMutation m) {
        try {
            storage.apply(m, Consistency.ZERO);
        } catch (WriteFailedException | InvalidQueryException | UnavailableReplicasException
                 | StorageTimeoutException e) {
            UnacknowledgedWrites.lost(m, e);
        }
    }

    /**
     * Runs a storage call, turning a request the store refuses, too few replicas, too slow ones or damaged data
     * into the client's exception ({@link StorageFailures}); a write that could not be made durable passes as it
     * is, for {@link #apply} to say how much of a batch was written.
     */
    private static <T> T storage(Supplier<T> call)
            throws InvalidRequestException, UnavailableException, TimedOutException {
        try {
            return call.get();
        } catch (RuntimeException e) {
            TException client = StorageFailures.toThrift(e);
            if (client instanceof InvalidRequestException ire) throw ire;
            if (client instanceof UnavailableException ue) throw ue;
            if (client instanceof TimedOutException te) throw te;
            throw e;
        }
    }

    /** The storage layer's name for a validated (non-null) consistency level. */
    private static Consistency level(ConsistencyLevel cl) {
        return Consistency.valueOf(cl.name());
    }

}
