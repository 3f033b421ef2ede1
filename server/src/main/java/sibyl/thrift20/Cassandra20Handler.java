package sibyl.thrift20;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import sibyl.auth.AuthenticationFailure;
import sibyl.auth.AuthorizationFailure;
import sibyl.auth.Authenticator;
import sibyl.db.CFMetaData;
import sibyl.db.ColumnSelection;
import sibyl.db.CompareAndSet;
import sibyl.db.IndexQuery;
import sibyl.db.KSMetaData;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowRange;
import sibyl.db.SystemKeyspace;
import sibyl.dht.BinaryKeys;
import sibyl.dht.Token;
import sibyl.iface.v20.AuthenticationException;
import sibyl.iface.v20.AuthenticationRequest;
import sibyl.iface.v20.AuthorizationException;
import sibyl.iface.v20.CASResult;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.CfSplit;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.Compression;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.CounterColumn;
import sibyl.iface.v20.CqlPreparedResult;
import sibyl.iface.v20.CqlResult;
import sibyl.iface.v20.CqlResultType;
import sibyl.iface.v20.EndpointDetails;
import sibyl.iface.v20.IndexClause;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.KeySlice;
import sibyl.iface.v20.KsDef;
import sibyl.iface.v20.MultiSliceRequest;
import sibyl.iface.v20.Mutation;
import sibyl.iface.v20.NotFoundException;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.TokenRange;
import sibyl.iface.v20.UnavailableException;
import sibyl.service.Consistency;
import sibyl.service.SchemaEditor;
import sibyl.service.SchemaRefusedException;
import sibyl.service.SerialConsistency;
import sibyl.service.StorageService;
import sibyl.thrift.ClientExceptions;
import sibyl.thrift.ConnectionSession;
import sibyl.thrift.Deadline;
import sibyl.thrift.NodeDescription;
import sibyl.thrift.ReplicaCount;
import sibyl.thrift.RowRequests;
import sibyl.thrift.SchemaCache;
import sibyl.thrift.StorageFailures;
import sibyl.thrift.ThriftConversion;

/**
 * The 0.7+ dialect (API 20.1.0) as one connection sees it: its keyspace (set_keyspace) and its login. Describe
 * calls are answered from the schema and the node's description; data calls are checked as Cassandra 3.11 checks
 * them ({@link RequestChecks}), converted, and handed to the storage service, answering with a future
 * ({@link sibyl.thrift.ThriftCalls} waits for it or answers it when it completes). Row keys are bytes here and
 * text in the store ({@link BinaryKeys}).
 */
final class Cassandra20Handler {
    /** 3.11 names its default snitch; Sibyl's nodes are one datacenter and one rack. */
    static final String SNITCH = "org.apache.cassandra.locator.SimpleSnitch";
    private static final String DATACENTER = "datacenter1";
    private static final String RACK = "rack1";
    private static final ClientExceptions DIALECT = V20Exceptions.DIALECT;
    private static final SecureRandom RANDOM = new SecureRandom();
    /** How the columns of a paged slice come back: in the comparator's order. */
    private static final SlicePredicate FORWARD = new SlicePredicate();

    private final SchemaCache<SchemaView> views;
    private final Supplier<NodeDescription> node;
    private final Authenticator authenticator;
    private final StorageService storage;
    private final HandlerContext shared;
    private final ConnectionSession session;
    /** The keyspace of set_keyspace; null until then. Calls are one at a time, but not on one thread. */
    private volatile String keyspace;

    Cassandra20Handler(HandlerContext shared, ConnectionSession session) {
        this.shared = shared;
        this.views = shared.views();
        this.node = shared.node();
        this.authenticator = shared.authenticator();
        this.storage = shared.storage();
        this.session = session;
    }

    // --- the connection's state

    /**
     * Checks the credentials, and the access to the keyspace the connection has set if it has one; a keyspace
     * set later is authorized at its first data call, as 3.11 checks permissions as tables are used.
     */
    void login(AuthenticationRequest request) throws AuthenticationException, AuthorizationException {
        String ks = keyspace;
        try {
            if (ks == null) {
                session.loggedIn(authenticator.authenticate(request.getCredentials()));
            } else {
                session.loggedIn(authenticator.login(ks, request.getCredentials()), ks);
            }
        } catch (AuthenticationFailure e) {
            shared.refusals().badCredentialsRefused();
            throw new AuthenticationException(e.getMessage());
        } catch (AuthorizationFailure e) {
            shared.refusals().noAccessRefused();
            throw new AuthorizationException(e.getMessage());
        }
    }

    void set_keyspace(String name) throws InvalidRequestException {
        if (!views.current().checks().exists(name)) {
            throw new InvalidRequestException("Keyspace '" + name + "' does not exist");
        }
        keyspace = name;
    }

    /** 3.11 accepts any version here, and so does Sibyl, which serves CQL 3 only. */
    void set_cql_version(String version) {
    }

    // --- CQL over Thrift (docs/thrift-api-0.7.md §CQL)

    /** Cassandra 3.0 removed CQL 2; its three calls answer as 3.11's do. */
    static InvalidRequestException cql2Removed() {
        return new InvalidRequestException("CQL2 has been removed in Cassandra 3.0. Please use CQL3 instead");
    }

    /** A statement: USE sets the connection's keyspace here; any other runs in the store. */
    CompletableFuture<CqlResult> execute_cql3_query(ByteBuffer query, Compression compression, ConsistencyLevel cl)
            throws InvalidRequestException {
        String statement = CqlQueries.text(query, compression);
        cqlAllowed();
        Optional<String> used = CqlQueries.usedKeyspace(statement);
        if (used.isPresent()) {
            set_keyspace(used.get());
            return CompletableFuture.completedFuture(new CqlResult(CqlResultType.VOID));
        }
        Consistency level = ConsistencyMapping.forWrite(cl);
        return StorageFailures.after(storage.executeCql(keyspace, statement, level), DIALECT, CqlResults::of);
    }

    CompletableFuture<CqlPreparedResult> prepare_cql3_query(ByteBuffer query, Compression compression)
            throws InvalidRequestException {
        String statement = CqlQueries.text(query, compression);
        cqlAllowed();
        if (CqlQueries.usedKeyspace(statement).isPresent()) {
            throw new InvalidRequestException("Sibyl does not prepare USE: send it with execute_cql3_query");
        }
        return StorageFailures.after(storage.prepareCql(keyspace, statement), DIALECT, CqlResults::of);
    }

    CompletableFuture<CqlResult> execute_prepared_cql3_query(int itemId, List<ByteBuffer> values, ConsistencyLevel cl)
            throws InvalidRequestException {
        cqlAllowed();
        Consistency level = ConsistencyMapping.forWrite(cl);
        return StorageFailures.after(storage.executePreparedCql(itemId, values, level), DIALECT, CqlResults::of);
    }

    /**
     * CQL runs where the statement says, in any keyspace, which an authenticator's access rules cannot be checked
     * against: under one that asks for a login, CQL is refused rather than let past them.
     */
    private void cqlAllowed() throws InvalidRequestException {
        if (shared.authenticator().requiresLogin()) {
            throw new InvalidRequestException("Sibyl serves CQL over Thrift only under AllowAllAuthenticator: it"
                    + " cannot check a statement's keyspaces against the authenticator's access rules");
        }
    }

    /** Sibyl traces nothing; the session id 3.11 would trace the next query under is still a time-based UUID. */
    ByteBuffer trace_next_query() {
        return ByteBuffer.wrap(TimeUuids.next(RANDOM));
    }

    // --- describe calls: no login needed, as in the 0.6 interface

    List<KsDef> describe_keyspaces() {
        return views.current().definitions().all();
    }

    KsDef describe_keyspace(String name) throws NotFoundException {
        KsDef ks = views.current().definitions().keyspace(name);
        if (ks == null) throw new NotFoundException();
        return ks;
    }

    /** What the node says of itself now: its name, partitioner and ring (a reload changes the configuration). */
    NodeDescription node() {
        return node.get();
    }

    /** What describe_version answers: ThriftApiVersion, 20.1.0 unless set. */
    String apiVersion() {
        return shared.apiVersion();
    }

    Map<String, List<String>> describe_schema_versions() {
        return Map.of(views.current().definitions().version(), node.get().ringEndpoints());
    }

    /** This node's ring is one datacenter, so describe_local_ring answers the same. */
    List<TokenRange> describe_ring(String name) throws InvalidRequestException {
        if (name == null || "system".equals(name) || !views.current().checks().exists(name)) {
            throw new InvalidRequestException("There is no ring for the keyspace: " + name);
        }
        List<TokenRange> ranges = new ArrayList<>();
        for (NodeDescription.RingRange r : node.get().ranges(NodeDescription.ringTokens(storage))) {
            List<EndpointDetails> details = new ArrayList<>();
            for (String endpoint : r.endpoints()) {
                details.add(new EndpointDetails(endpoint, DATACENTER).setRack(RACK));
            }
            ranges.add(new TokenRange(r.start(), r.end(), r.endpoints()).setRpc_endpoints(r.endpoints())
                    .setEndpoint_details(details));
        }
        return ranges;
    }

    Map<String, String> describe_token_map() {
        return node.get().tokenMap(NodeDescription.ringTokens(storage));
    }

    List<String> describe_splits(String cfName, String startToken, String endToken, int keysPerSplit)
            throws InvalidRequestException {
        List<String> splits = new ArrayList<>();
        for (Token t : splits(cfName, startToken, endToken, keysPerSplit)) {
            splits.add(storage.partitioner().toString(t));
        }
        return splits;
    }

    /** Each split's row count is the keys per split asked for: the store samples keys that far apart. */
    List<CfSplit> describe_splits_ex(String cfName, String startToken, String endToken, int keysPerSplit)
            throws InvalidRequestException {
        List<String> bounds = describe_splits(cfName, startToken, endToken, keysPerSplit);
        List<CfSplit> splits = new ArrayList<>();
        for (int i = 0; i + 1 < bounds.size(); i++) {
            splits.add(new CfSplit(bounds.get(i), bounds.get(i + 1), keysPerSplit));
        }
        return splits;
    }

    private List<Token> splits(String cfName, String startToken, String endToken, int keysPerSplit)
            throws InvalidRequestException {
        RequestChecks checks = views.current().checks();
        checks.table(currentKeyspace(), cfName);
        if (keysPerSplit <= 0) {
            throw new InvalidRequestException("keys_per_split must be positive, not " + keysPerSplit);
        }
        return storage.describeSplits(checks.token("start", startToken), checks.token("end", endToken),
                keysPerSplit);
    }

    // --- data calls. Each checks in 3.11's order: the session's keyspace, its login and access to the keyspace,
    // the request's shape, the keys, the consistency level. A refusal of those checks is thrown; the store's
    // answer, its failure as the client's exception, and the deadline come in the returned future.

    CompletableFuture<ColumnOrSuperColumn> get(ByteBuffer key, ColumnPath path, ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException {
        Call call = startCall();
        CFMetaData cf = call.checks.columnPath(call.keyspace, path);
        String row = RequestChecks.key(cf, key);
        Consistency level = read(call, cl);
        return StorageFailures.after(storage.readCell(call.keyspace, row, Conversion.path(path), level), DIALECT,
                cell -> {
                    call.deadline.check(DIALECT);
                    if (cell.isEmpty()) throw new NotFoundException();
                    return Conversion.cosc(cell.get());
                });
    }

    CompletableFuture<List<ColumnOrSuperColumn>> get_slice(ByteBuffer key, ColumnParent parent,
                                                           SlicePredicate predicate, ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException {
        return multiget_slice(List.of(key), parent, predicate, cl).thenApply(rows -> rows.values().iterator().next());
    }

    /** A slice range that runs backwards counts nothing here, where get_slice refuses it ({@link RequestChecks}). */
    CompletableFuture<Integer> get_count(ByteBuffer key, ColumnParent parent, SlicePredicate predicate,
                                         ConsistencyLevel cl) throws InvalidRequestException, UnavailableException {
        Call call = startCall();
        CFMetaData cf = call.checks.columnParent(call.keyspace, parent);
        if (RequestChecks.countsNothing(cf, parent, predicate)) {
            RequestChecks.key(cf, key);
            read(call, cl);
            return CompletableFuture.completedFuture(0);
        }
        return get_slice(key, parent, predicate, cl).thenApply(List::size);
    }

    /** The keys are read {@value RowRequests#ROWS_IN_FLIGHT} at a time ({@link RowRequests#eachRow}). */
    CompletableFuture<Map<ByteBuffer, List<ColumnOrSuperColumn>>> multiget_slice(
            List<ByteBuffer> keys, ColumnParent parent, SlicePredicate predicate, ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException {
        Call call = startCall();
        CFMetaData cf = call.checks.columnParent(call.keyspace, parent);
        call.checks.predicate(cf, parent, predicate);
        List<String> rows = distinctKeys(cf, keys);
        Consistency level = read(call, cl);
        QueryPath query = Conversion.parent(parent);
        ColumnSelection selection = Conversion.selection(predicate);
        return StorageFailures.after(RowRequests.eachRow(rows.size(), call.deadline,
                i -> storage.readSlice(call.keyspace, rows.get(i), query, selection, level)), DIALECT, slices -> {
                    call.deadline.check(DIALECT);
                    Map<ByteBuffer, List<ColumnOrSuperColumn>> result = new HashMap<>();
                    for (int i = 0; i < rows.size(); i++) {
                        result.put(BinaryKeys.encodeBuffer(rows.get(i)), Conversion.coscs(slices.get(i), predicate));
                    }
                    return result;
                });
    }

    CompletableFuture<Map<ByteBuffer, Integer>> multiget_count(List<ByteBuffer> keys, ColumnParent parent,
                                                               SlicePredicate predicate, ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException {
        return multiget_slice(keys, parent, predicate, cl).thenApply(rows -> {
            Map<ByteBuffer, Integer> counts = new HashMap<>();
            for (Map.Entry<ByteBuffer, List<ColumnOrSuperColumn>> e : rows.entrySet()) {
                counts.put(e.getKey(), e.getValue().size());
            }
            return counts;
        });
    }

    private static List<String> distinctKeys(CFMetaData cf, List<ByteBuffer> keys) throws InvalidRequestException {
        LinkedHashSet<String> rows = new LinkedHashSet<>();
        for (ByteBuffer key : keys) rows.add(RequestChecks.key(cf, key));
        return List.copyOf(rows);
    }

    CompletableFuture<List<KeySlice>> get_range_slices(ColumnParent parent, SlicePredicate predicate, KeyRange range,
                                                       ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException {
        Call call = startCall();
        CFMetaData cf = call.checks.columnParent(call.keyspace, parent);
        call.checks.predicate(cf, parent, predicate);
        call.checks.keyRange(range);
        boolean filtered = range.isSetRow_filter() && !range.getRow_filter().isEmpty();
        if (filtered) indexQueryServed();
        IndexQuery filter = filtered ? IndexClauses.rowFilter(cf, range.getRow_filter()) : null;
        Consistency level = read(call, cl);
        RowRange rows = rows(call, range);
        return StorageFailures.after(filtered
                ? storage.indexedScan(call.keyspace, Conversion.parent(parent), Conversion.selection(predicate), filter,
                        rows, range.getCount(), level)
                : storage.scan(call.keyspace, Conversion.parent(parent), Conversion.selection(predicate), rows,
                        range.getCount(), level), DIALECT, found -> {
                    call.deadline.check(DIALECT);
                    return Conversion.keySlices(found, predicate);
                });
    }

    /**
     * The rows from {@code clause.start_key} on, in ring order, whose columns satisfy the clause's expressions (one
     * EQ on an indexed column), each with what {@code predicate} selects; a row it selects nothing of is left out
     * as 3.11 leaves it, but where the predicate names only columns of column_metadata (docs/thrift-api-0.7.md
     * §Secondary indexes).
     */
    CompletableFuture<List<KeySlice>> get_indexed_slices(ColumnParent parent, IndexClause clause, SlicePredicate predicate,
                                                         ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException {
        Call call = startCall();
        CFMetaData cf = call.checks.columnParent(call.keyspace, parent);
        call.checks.predicate(cf, parent, predicate);
        // Before the clause's checks: in cluster mode no clause can be served, and its why says so.
        indexQueryServed();
        IndexQuery query = IndexClauses.indexClause(cf, clause);
        Consistency level = read(call, cl);
        if (clause.getCount() <= 0) return CompletableFuture.completedFuture(List.of());
        RowRange rows = RowRange.keys(clause.start_key == null ? "" : BinaryKeys.decode(clause.start_key), "");
        return StorageFailures.after(storage.indexedScan(call.keyspace, Conversion.parent(parent),
                Conversion.selection(predicate), query, rows, clause.getCount(), level), DIALECT, found -> {
                    call.deadline.check(DIALECT);
                    List<KeySlice> slices = new ArrayList<>();
                    // As 3.11: a row the predicate selects nothing of is left out, unless the predicate is a list of
                    // names that column_metadata all defines.
                    boolean keepEmpty = predicate.isSetColumn_names()
                            && cf.validators().columns().keySet().containsAll(predicate.getColumn_names());
                    for (KeySlice slice : Conversion.keySlices(found, predicate)) {
                        if (!slice.getColumns().isEmpty() || keepEmpty) slices.add(slice);
                    }
                    return slices;
                });
    }

    /** Refuses an index query where the store keeps no index (cluster mode), saying why. */
    private void indexQueryServed() throws InvalidRequestException {
        if (!shared.hints().keepsIndexes()) throw new InvalidRequestException(StorageService.INDEXES_NOT_SERVED);
    }

    /**
     * Refuses a definition with indexes where the store keeps none (cluster mode), and an index whose name another
     * column family of the keyspace gives one of its own, as 3.11 does.
     */
    private void indexesServed(CFMetaData cf) throws InvalidRequestException {
        if (cf.indexes().isEmpty()) return;
        indexQueryServed();
        Optional<KSMetaData> ks = views.current().schema().keyspace(cf.keyspace());
        if (ks.isPresent()) IndexDefs.unique(cf, ks.get().columnFamilies());
    }

    /** The columns of one row in any of several slices ({@link MultiSlice}). */
    CompletableFuture<List<ColumnOrSuperColumn>> get_multi_slice(MultiSliceRequest request)
            throws InvalidRequestException, UnavailableException {
        Call call = startCall();
        CFMetaData cf = call.checks.multiSlice(call.keyspace, request);
        String row = RequestChecks.key(request.key);
        Consistency level = read(call, request.consistency_level);
        return StorageFailures.after(MultiSlice.read(storage, call.keyspace, row, cf.comparator(), request, level),
                DIALECT, cells -> {
                    call.deadline.check(DIALECT);
                    return Conversion.coscs(cells, FORWARD);
                });
    }

    /** The rows of a key range from a start column on, {@code range.count} columns in all ({@link PagedSlice}). */
    CompletableFuture<List<KeySlice>> get_paged_slice(String cfName, KeyRange range, ByteBuffer startColumn,
                                                      ConsistencyLevel cl)
            throws InvalidRequestException, UnavailableException {
        Call call = startCall();
        CFMetaData cf = call.checks.table(call.keyspace, cfName);
        call.checks.keyRange(range);
        Consistency level = read(call, cl);
        RowRange rows = rows(call, range);
        String startKey = rows instanceof RowRange.Keys keys ? keys.startKey() : null;
        byte[] from = startColumn == null ? new byte[0] : ThriftConversion.bytes(startColumn);
        return StorageFailures.after(PagedSlice.read(storage, call.keyspace, new QueryPath(cf.name(), null, null),
                rows, startKey, from, range.getCount(), level), DIALECT, found -> {
                    call.deadline.check(DIALECT);
                    return Conversion.keySlices(found, FORWARD);
                });
    }

    CompletableFuture<Void> insert(ByteBuffer key, ColumnParent parent, Column column, ConsistencyLevel cl)
            throws InvalidRequestException {
        Call call = startCall();
        RequestChecks.ofKind(call.checks.table(call.keyspace, parent.getColumn_family()), false);
        CFMetaData cf = call.checks.columnParent(call.keyspace, parent);
        String row = RequestChecks.key(cf, key);
        RequestChecks.insertedColumn(cf, parent, column, call.nowSeconds);
        Consistency level = ConsistencyMapping.forWrite(cl);
        RowMutation.Builder m = RowMutation.builder(call.keyspace, row).localDeletionTime(call.nowSeconds);
        Conversion.addInsert(m, cf, parent, column);
        return RowRequests.write(storage, List.of(m.build()), level, call.deadline, DIALECT);
    }

    /**
     * Compare-and-set on one row of a standard table (docs/thrift-api-0.7.md §cas): checked as 3.11 checks it, the
     * consistency levels last, then judged and written by the store under the row's lock or Paxos.
     */
    CompletableFuture<CASResult> cas(ByteBuffer key, String cfName, List<Column> expected, List<Column> updates,
                                     ConsistencyLevel serial, ConsistencyLevel commit) throws InvalidRequestException {
        Call call = startCall();
        // A counter table first, as 3.11 checks it: a cas writes plain columns.
        CFMetaData cf = RequestChecks.ofKind(call.checks.table(call.keyspace, cfName), false);
        String row = RequestChecks.key(cf, key);
        RequestChecks.cas(cf, expected, updates, call.nowSeconds);
        SerialConsistency serialLevel = ConsistencyMapping.forSerial(serial);
        Consistency commitLevel = ConsistencyMapping.forCommit(commit);
        CompareAndSet request = Conversion.compareAndSet(cf, row, expected, updates, call.nowSeconds);
        return StorageFailures.after(storage.compareAndSet(request, serialLevel, commitLevel), DIALECT, outcome -> {
            call.deadline.check(DIALECT);
            return Conversion.casResult(outcome);
        });
    }

    CompletableFuture<Void> remove(ByteBuffer key, ColumnPath path, long timestamp, ConsistencyLevel cl)
            throws InvalidRequestException {
        Call call = startCall();
        RequestChecks.ofKind(call.checks.table(call.keyspace, path.getColumn_family()), false);
        CFMetaData cf = call.checks.removalPath(call.keyspace, path);
        String row = RequestChecks.key(cf, key);
        Consistency level = ConsistencyMapping.forWrite(cl);
        RowMutation.Builder m = RowMutation.builder(call.keyspace, row);
        Conversion.addRemoval(m, path, timestamp);
        return RowRequests.write(storage, List.of(m.build()), level, call.deadline, DIALECT);
    }

    /**
     * Adds the counter's value (negative to decrement) to the counter, in 3.11's order of checks; the increment is
     * taken at the server's clock (docs/thrift-api-0.7.md §Counters).
     */
    CompletableFuture<Void> add(ByteBuffer key, ColumnParent parent, CounterColumn counter, ConsistencyLevel cl)
            throws InvalidRequestException {
        Call call = startCall();
        CFMetaData cf = RequestChecks.ofKind(call.checks.table(call.keyspace, parent.getColumn_family()), true);
        String row = RequestChecks.key(cf, key);
        RequestChecks.counterConsistency(cf, cl);
        call.checks.columnParent(call.keyspace, parent);
        RequestChecks.addedCounter(cf, parent, counter);
        Consistency level = ConsistencyMapping.forWrite(cl);
        RowMutation.Builder m = RowMutation.builder(call.keyspace, row).localDeletionTime(call.nowSeconds);
        Conversion.addIncrement(m, parent, counter, MicrosClock.next());
        return RowRequests.write(storage, List.of(m.build()), level, call.deadline, DIALECT);
    }

    /**
     * Deletes a counter, a super column of them or a row of a counter table at the server's clock; a counter deleted
     * stays deleted until its tombstone is purged, as in 3.11 (docs/thrift-api-0.7.md §Counters).
     */
    CompletableFuture<Void> remove_counter(ByteBuffer key, ColumnPath path, ConsistencyLevel cl)
            throws InvalidRequestException {
        Call call = startCall();
        CFMetaData cf = RequestChecks.ofKind(call.checks.table(call.keyspace, path.getColumn_family()), true);
        String row = RequestChecks.key(cf, key);
        call.checks.removalPath(call.keyspace, path);
        RequestChecks.counterConsistency(cf, cl);
        Consistency level = ConsistencyMapping.forWrite(cl);
        RowMutation.Builder m = RowMutation.builder(call.keyspace, row).localDeletionTime(call.nowSeconds);
        Conversion.addRemoval(m, path, MicrosClock.next());
        return RowRequests.write(storage, List.of(m.build()), level, call.deadline, DIALECT);
    }

    /**
     * Everything is checked before anything is applied; each key is one row mutation, applied atomically and
     * isolated per table, the rows {@value RowRequests#ROWS_IN_FLIGHT} at a time. atomic_batch_mutate is served
     * alike: Sibyl keeps no batch log, so a failure part-way leaves the rows before it written (the client is
     * told how many), as docs/thrift-api-0.7.md §What Sibyl serves today says.
     */
    CompletableFuture<Void> batch_mutate(Map<ByteBuffer, Map<String, List<Mutation>>> mutationMap,
                                         ConsistencyLevel cl) throws InvalidRequestException {
        Call call = startCall();
        long counterTime = MicrosClock.next(); // of every counter write and counter deletion without a timestamp
        List<RowMutation> mutations = new ArrayList<>(mutationMap.size());
        for (Map.Entry<ByteBuffer, Map<String, List<Mutation>>> row : mutationMap.entrySet()) {
            RowMutation.Builder m = RowMutation.builder(call.keyspace, RequestChecks.key(row.getKey()))
                    .localDeletionTime(call.nowSeconds);
            for (Map.Entry<String, List<Mutation>> table : row.getValue().entrySet()) {
                CFMetaData cf = call.checks.table(call.keyspace, table.getKey());
                RequestChecks.keyConforms(cf, row.getKey());
                for (Mutation mutation : table.getValue()) {
                    RequestChecks.mutation(cf, mutation, call.nowSeconds);
                    if (mutation.isSetColumn_or_supercolumn()) {
                        Conversion.addWrite(m, cf.name(), mutation.getColumn_or_supercolumn(), counterTime);
                    } else {
                        Conversion.addDeletion(m, cf, mutation.getDeletion(), counterTime);
                    }
                }
                if (cf.isCounter()) RequestChecks.counterConsistency(cf, cl);
            }
            mutations.add(m.build());
        }
        Consistency level = ConsistencyMapping.forWrite(cl);
        if (mutations.isEmpty()) return CompletableFuture.completedFuture(null);
        return RowRequests.write(storage, mutations, level, call.deadline, DIALECT);
    }

    /**
     * Empties the table of every write so far, as 3.11 does after its auto_snapshot (docs/semantics.md §Truncate).
     * The store's own timeout applies, not the RPC deadline: the flush before it may take longer than a read.
     */
    CompletableFuture<Void> truncate(String cfname) throws InvalidRequestException {
        Call call = startCall();
        CFMetaData cf = call.checks.table(call.keyspace, cfname);
        return StorageFailures.after(storage.truncate(call.keyspace, cf.name()), DIALECT, done -> null);
    }

    // ---- schema calls (docs/thrift-api-0.7.md §Schema calls): checked here, then applied off the network threads
    // (a drop flushes), one at a time; each answers the schema's version after it

    CompletableFuture<String> system_add_keyspace(KsDef def) throws InvalidRequestException {
        notSystem(def.getName());
        schemaCall();
        Optional<String> clash = views.current().schema().keyspaces().stream().map(KSMetaData::name)
                .filter(n -> n.equalsIgnoreCase(def.getName())).findFirst();
        if (clash.isPresent()) {
            throw new InvalidRequestException("Keyspace names must be case-insensitively unique (\"" + def.getName()
                    + "\" conflicts with \"" + clash.get() + "\")");
        }
        KSMetaData ks = DefinitionReader.keyspace(def);
        for (CFMetaData cf : ks.columnFamilies()) indexesServed(cf);
        return edited(e -> e.addKeyspace(ks));
    }

    CompletableFuture<String> system_update_keyspace(KsDef def) throws InvalidRequestException {
        notSystem(def.getName());
        schemaCall();
        views.current().checks().keyspace(def.getName());
        if (def.getCf_defs() != null && !def.getCf_defs().isEmpty()) {
            throw new InvalidRequestException("Keyspace update must not contain any table definitions.");
        }
        int replicationFactor = DefinitionReader.replicationFactor(def);
        return edited(e -> e.updateKeyspace(def.getName(), replicationFactor));
    }

    CompletableFuture<String> system_drop_keyspace(String name) throws InvalidRequestException {
        notSystem(name);
        schemaCall();
        return edited(e -> e.dropKeyspace(name));
    }

    CompletableFuture<String> system_add_column_family(CfDef def) throws InvalidRequestException {
        schemaCall();
        CFMetaData cf = DefinitionReader.columnFamily(def);
        indexesServed(cf);
        return edited(e -> e.addColumnFamily(cf));
    }

    CompletableFuture<String> system_update_column_family(CfDef def) throws InvalidRequestException {
        schemaCall();
        CFMetaData current = views.current().checks().table(def.getKeyspace(), def.getName());
        CFMetaData cf = DefinitionReader.columnFamily(def);
        indexesServed(cf);
        // 3.11 names the value column of the table's compact storage view.
        if (cf.isCounter() != current.isCounter()) {
            throw new InvalidRequestException(current.isCounter()
                    ? "Cannot add a counter column (value) in a non counter column family"
                    : "Cannot add a non counter column (value) in a counter column family");
        }
        return edited(e -> e.updateColumnFamily(cf));
    }

    CompletableFuture<String> system_drop_column_family(String name) throws InvalidRequestException {
        String ks = currentKeyspace();
        schemaCall();
        views.current().checks().table(ks, name);
        return edited(e -> e.dropColumnFamily(ks, name));
    }

    private static void notSystem(String keyspace) throws InvalidRequestException {
        if (SystemKeyspace.NAME.equals(keyspace)) throw new InvalidRequestException("system keyspace is not user-modifiable");
    }

    /** A schema call needs a login where the authenticator asks for one. */
    private void schemaCall() throws InvalidRequestException {
        if (session.mustLogIn()) {
            shared.refusals().notLoggedInRefused();
            throw new InvalidRequestException("You have not logged in");
        }
    }

    private interface Edit {
        void apply(SchemaEditor editor) throws SchemaRefusedException, InterruptedException;
    }

    /**
     * Applies the edit on a thread of its own (schema changes are rare, and a drop waits for a flush); answers the
     * schema's version after it, as 3.11 does.
     */
    private CompletableFuture<String> edited(Edit edit) {
        CompletableFuture<String> answer = new CompletableFuture<>();
        Thread change = new Thread(() -> {
            try {
                edit.apply(shared.schemaEditor());
                answer.complete(views.current().definitions().version());
            } catch (SchemaRefusedException e) {
                answer.completeExceptionally(new InvalidRequestException(e.getMessage()));
            } catch (InterruptedException e) {
                answer.completeExceptionally(new InvalidRequestException("interrupted while changing the schema"));
            } catch (RuntimeException | Error e) {
                answer.completeExceptionally(e);
            }
        }, "schema change");
        change.setDaemon(true);
        change.start();
        return answer;
    }

    // ---- shared steps of the data calls

    /** The rows a checked KeyRange names: from key to key, or from token to token. */
    private static RowRange rows(Call call, KeyRange range) throws InvalidRequestException {
        return range.isSetStart_key()
                ? RowRange.keys(BinaryKeys.decode(range.start_key), BinaryKeys.decode(range.end_key))
                : RowRange.tokens(call.checks.token("start", range.getStart_token()),
                        call.checks.token("end", range.getEnd_token()));
    }

    /**
     * A data call under way: the keyspace and checks it runs with, its deadline, and the second it began, which its
     * writes' tombstones carry and their ttls count from.
     */
    private record Call(String keyspace, RequestChecks checks, Deadline deadline, int nowSeconds) {
    }

    /**
     * The first checks of every data call: a keyspace set, the connection logged in (when the authenticator asks
     * for it) and allowed to use it; then the keyspace's existence, which a reload may have taken away.
     */
    private Call startCall() throws InvalidRequestException {
        String ks = currentKeyspace();
        if (session.mustLogIn()) {
            shared.refusals().notLoggedInRefused();
            throw new InvalidRequestException("You have not logged in");
        }
        try {
            session.authorize(ks);
        } catch (AuthorizationFailure e) {
            shared.refusals().noAccessRefused();
            throw new InvalidRequestException(e.getMessage());
        }
        RequestChecks checks = views.current().checks();
        checks.keyspace(ks);
        return new Call(ks, checks, new Deadline(shared.rpcTimeoutMillis()), (int) (System.currentTimeMillis() / 1000));
    }

    private String currentKeyspace() throws InvalidRequestException {
        String ks = keyspace;
        if (ks == null) throw new InvalidRequestException(
                "No keyspace has been specified. USE a keyspace, or explicitly specify keyspace.tablename");
        return ks;
    }

    /** A read's level; on a node that is its own only replica, whether it alone meets it. */
    private Consistency read(Call call, ConsistencyLevel cl) throws InvalidRequestException, UnavailableException {
        Consistency level = ConsistencyMapping.forRead(cl);
        if (!shared.hints().countsReplicas()
                && !ReplicaCount.readable(level, call.checks.keyspace(call.keyspace).replicationFactor())) {
            throw new UnavailableException();
        }
        return level;
    }

    /** Calls Sibyl does not serve yet: refused with a reason, before anything is read or written. */
    static InvalidRequestException unserved(String call) {
        return new InvalidRequestException("Sibyl does not serve " + call + " yet (issue #33)");
    }
}
