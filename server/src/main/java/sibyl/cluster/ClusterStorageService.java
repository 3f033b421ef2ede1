package sibyl.cluster;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Statement;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import sibyl.config.ClusterConf;
import sibyl.config.ConfigurationException;
import sibyl.config.ElementPath;
import sibyl.config.StorageConf;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Change;
import sibyl.db.ColumnSelection;
import sibyl.db.CompareAndSet;
import sibyl.db.InvalidQueryException;
import sibyl.db.KSMetaData;
import sibyl.db.LogPosition;
import sibyl.db.PathShape;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.dht.BinaryKeys;
import sibyl.service.BoundedFanOut;
import sibyl.dht.Partitioner;
import sibyl.dht.Token;
import sibyl.service.Consistency;
import sibyl.service.CqlAnswer;
import sibyl.service.CqlPrepared;
import sibyl.service.Reconfigurable;
import sibyl.service.Schema;
import sibyl.service.SerialConsistency;
import sibyl.service.StorageHints;
import sibyl.service.StorageService;
import sibyl.service.StorageTimeoutException;
import sibyl.service.UnavailableReplicasException;

/**
 * Reads and writes of the configured keyspaces, stored in a Cassandra cluster (see the package
 * comment for the mapping). Keeps no data of its own: every call is one or a few CQL requests at
 * the caller's consistency level, so any number of Sibyl nodes can serve the same cluster.
 *
 * <p>Thread-safe; the driver's session multiplexes all callers over its connections.
 */
public final class ClusterStorageService implements StorageService, StorageHints, Reconfigurable, AutoCloseable {
    /**
     * The keyspaces served at one moment and their tables (by keyspace and column family name; none for
     * Sibyl's own {@code system}), swapped as one by a reload.
     */
    private record Catalog(Schema schema, Map<String, Map<String, Table>> tables) {
    }

    /**
     * How many rows of one range slice are read at once: a scan of 100 rows waits for about 7 rounds of
     * reads instead of 100 reads one after another, and the bound keeps one scan from taking a
     * coordinator's whole attention.
     */
    static final int RANGE_SLICE_WINDOW = 16;

    private final CqlSession session;
    private final ClusterConnection connection;
    private final Partitioner partitioner;
    private volatile Catalog catalog;
    private final Object reconfiguring = new Object();
    private final Statements statements;
    private final ClusterErrors errors = new ClusterErrors(new FailureLog());
    private final ClusterTokens tokens;
    private final ClusterConf conf;
    private final ClusterCql cql;

    private ClusterStorageService(ClusterConnection connection, Partitioner partitioner, List<KSMetaData> keyspaces,
                                  Map<String, Map<String, Table>> tables, ClusterTokens tokens, ClusterConf conf) {
        this.connection = connection;
        this.session = connection.session();
        this.partitioner = partitioner;
        this.catalog = new Catalog(new Schema(keyspaces), Map.copyOf(tables));
        this.statements = new Statements(session, errors);
        this.tokens = tokens;
        this.conf = conf;
        this.cql = new ClusterCql(session, errors, conf.keyspacePrefix());
    }

    /**
     * Connects to the cluster (waiting at most ConnectTimeoutInSeconds for it), checks that its
     * partitioner orders rows as {@code partitioner} does, and creates the keyspaces and tables
     * that are missing. The driver's connections run on {@code loops} (the node's network threads, whose threads
     * should be made by {@link DriverThreads}); {@link #close()} leaves them running, for the caller to shut down
     * after it.
     *
     * @param channelClass the socket channel class {@code loops} serve (EpollSocketChannel for epoll loops,
     *                     NioSocketChannel for NIO ones)
     * @throws ConfigurationException naming the element of storage-conf.xml at fault: the contact points when no
     *                                node answered, the partitioner, or a column family whose table has another shape
     */
    public static ClusterStorageService open(ClusterConf conf, Partitioner partitioner, List<KSMetaData> keyspaces,
                                             EventLoopGroup loops, Class<? extends Channel> channelClass)
            throws ConfigurationException, InterruptedException {
        ClusterConnection connection = ClusterConnection.connect(conf, loops, channelClass);
        try {
            ClusterTokens tokens = ClusterTokens.check(connection.session(), conf, partitioner);
            Map<String, Map<String, Table>> tables = ClusterSchema.ensure(connection.session(), conf, keyspaces);
            return new ClusterStorageService(connection, partitioner, keyspaces, tables, tokens, conf);
        } catch (ConfigurationException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /** The driver's session, for tools (nodetool) and tests. */
    public CqlSession session() {
        return session;
    }

    @Override
    public void close() {
        connection.close();
    }

    @Override
    public Partitioner partitioner() {
        return partitioner;
    }

    @Override
    public Schema schema() {
        return catalog.schema();
    }

    /**
     * Applies a reloaded configuration (docs/configuration.md §Reloading without a restart): creates the CQL
     * keyspaces and tables of new keyspaces and column families, as start-up does, before they are served;
     * stops serving removed ones when their tables hold no row (the tables stay in the cluster: Sibyl drops
     * nothing). Settings of the node's own engine (caches, memtables, GCGraceSeconds) have no effect here.
     *
     * @throws ConfigurationException naming the element: a removed column family whose table holds rows (or
     *                                cannot be read), a new one whose table cannot be created or has another shape
     */
    @Override
    public void reconfigure(StorageConf conf, List<KSMetaData> keyspaces) throws ConfigurationException {
        ClusterConf cluster = conf.cluster().orElseThrow(() -> new IllegalArgumentException(
                "a configuration without a Cluster element cannot be applied to a node in cluster mode"));
        synchronized (reconfiguring) {
            Catalog current = catalog;
            Schema next = new Schema(keyspaces);
            for (Map.Entry<String, Map<String, Table>> ks : current.tables().entrySet()) {
                Optional<KSMetaData> stays = next.keyspace(ks.getKey());
                for (Table table : ks.getValue().values()) {
                    if (stays.isPresent() && stays.get().columnFamily(table.name()).isPresent()) continue;
                    String element = stays.isPresent() ? ElementPath.columnFamily(ks.getKey(), table.name())
                            : ElementPath.keyspace(ks.getKey());
                    String what = stays.isPresent() ? "column family removed, but"
                            : "keyspace removed, but its column family " + table.name() + ":";
                    String held = rowHeld(table);
                    if (held != null) {
                        throw new ConfigurationException(conf.configFile(), element, what + " the cluster's table "
                                + table.qualifiedName() + " " + held + "; only a column family whose table holds no"
                                + " row is removed while the node runs: put it back in the file");
                    }
                }
            }
            Map<String, Map<String, Table>> tables = ClusterSchema.ensure(session, cluster, keyspaces, current.tables());
            catalog = new Catalog(next, Map.copyOf(tables));
        }
    }

    /**
     * A drop by API in cluster mode: the cluster's tables are the data, and Sibyl removes none, so a column family
     * leaves only when its table holds no row, as on a reload; one that holds rows is refused, naming the table
     * (docs/configuration.md §Keyspaces made by API). Nothing is logged here: nothing is replayed.
     */
    @Override
    public LogPosition drop(StorageConf conf, List<KSMetaData> keyspaces, List<CFMetaData> dropped)
            throws ConfigurationException {
        synchronized (reconfiguring) {
            for (CFMetaData cf : dropped) {
                Table table = catalog.tables().getOrDefault(cf.keyspace(), Map.of()).get(cf.name());
                String held = table == null ? null : rowHeld(table);
                if (held != null) {
                    throw new ConfigurationException(conf.configFile(), ElementPath.columnFamily(cf.keyspace(),
                            cf.name()), "Sibyl does not drop " + cf.keyspace() + "." + cf.name() + ": the cluster's"
                            + " table " + table.qualifiedName() + " " + held + ", and Sibyl deletes no data of the"
                            + " cluster's; remove its rows (or the table) in the cluster first");
                }
            }
            reconfigure(conf, keyspaces);
        }
        return LogPosition.NONE;
    }

    /** Null when the table holds no live row; else what it holds, or why that could not be told. */
    private String rowHeld(Table table) {
        try {
            ResultSet rows = session.execute("SELECT key FROM " + table.qualifiedName() + " LIMIT 1");
            return rows.one() == null ? null : "holds rows";
        } catch (RuntimeException e) {
            return "could not be read to see whether it holds rows (" + e.getMessage() + ")";
        }
    }

    @Override
    public boolean countsReplicas() {
        return true;
    }

    /** The cluster's tables carry no index that answers as 3.11's KEYS indexes do (docs/differences.md). */
    @Override
    public boolean keepsIndexes() {
        return false;
    }

    /** Every read is a request to the cluster: it waits for the network, for as long as RequestTimeoutInMillis. */
    @Override
    public boolean readsMayWait() {
        return true;
    }

    /** As every read. */
    @Override
    public boolean writesMayWait() {
        return true;
    }

    // ---- writes

    /**
     * One single-partition batch. A slice deletion (Sibyl's extension) deletes the live columns its
     * range selects in the row as the mutation's other changes leave it; the cluster cannot say
     * which those are inside a batch, so such a mutation is written in two batches: its other
     * changes, then, read back at the same level, the tombstones of the selected columns. A write
     * racing it may or may not be deleted, and a failure between the two leaves the first applied.
     */
    @Override
    public CompletableFuture<Void> write(RowMutation mutation, Consistency consistency) {
        if (mutation.soleColumnFamily() == null) {
            return errors.async(() -> {
                List<RowMutation> parts = MutationStatements.byKind(mutation, this::table);
                if (parts.size() == 1) return writeOfOneKind(mutation, consistency);
                // counter tables and others: two batches (MutationStatements#byKind), each failing as its own
                CompletableFuture<Void> counters = writeOfOneKind(parts.get(0), consistency);
                CompletableFuture<Void> others = writeOfOneKind(parts.get(1), consistency);
                return counters.thenCombine(others, (a, b) -> null);
            });
        }
        return writeOfOneKind(mutation, consistency);
    }

    /** A mutation of counter tables only, or of other tables only. */
    private CompletableFuture<Void> writeOfOneKind(RowMutation mutation, Consistency consistency) {
        byte[] key = key(mutation.key());
        ConsistencyLevel level = ConsistencyLevels.write(consistency);
        Supplier<CompletionStage<Void>> request = () -> {
            List<BatchableStatement<?>> changes = MutationStatements.statements(mutation, this::table, statements,
                    key, level, null);
            if (changes.isEmpty()) return CompletableFuture.<Void>completedFuture(null);
            Statement<?> write = MutationStatements.batch(changes, statements.settings(), level,
                    MutationStatements.ofCounters(mutation, this::table));
            return session.executeAsync(write).thenApply(rows -> null);
        };
        String sole = mutation.soleColumnFamily();
        CompletableFuture<Void> written = sole != null ? whenPrepared(mutation.keyspace(), sole, request)
                : whenPrepared(mutation.keyspace(), mutation.changes().keySet(), request);
        if (!MutationStatements.hasSliceDeletion(mutation)) return written;
        return written.thenCompose(none -> liveNamesOfSlices(mutation, key, consistency)).thenCompose(
                names -> errors.async(() -> {
                    Iterator<List<byte[]>> selected = names.iterator();
                    List<BatchableStatement<?>> slices = MutationStatements.statements(mutation, this::table,
                            statements, key, level, (table, superColumn, range) -> selected.next());
                    if (slices.isEmpty()) return CompletableFuture.<Void>completedFuture(null);
                    Statement<?> write = MutationStatements.batch(slices, statements.settings(), level,
                            MutationStatements.ofCounters(mutation, this::table));
                    return session.executeAsync(write).thenApply(rows -> null);
                }));
    }

    /**
     * Starts {@code request} (see {@link ClusterErrors#async}) once the statements of the calls of one row are
     * prepared for the named column family: at once after the first calls, else when their preparation, started
     * now, has finished; so that nothing waits for the cluster on the network thread that starts a call, or on
     * the driver's thread that answers it. An unknown column family is left for the request to refuse.
     */
    private <T> CompletableFuture<T> whenPrepared(String keyspace, String columnFamily,
                                                  Supplier<? extends CompletionStage<T>> request) {
        // The calls of one column family, after its first: no set to build and walk.
        Map<String, Table> tables = catalog.tables().get(keyspace);
        Table table = tables == null ? null : tables.get(columnFamily);
        if (table == null || table.statements().rowCallsPrepared()) return errors.async(request);
        return whenPrepared(keyspace, Set.of(columnFamily), request);
    }

    /** As {@link #whenPrepared(String, String, Supplier)}, for the column families of a mutation of several. */
    private <T> CompletableFuture<T> whenPrepared(String keyspace, Set<String> columnFamilies,
                                                  Supplier<? extends CompletionStage<T>> request) {
        List<CompletableFuture<Void>> preparing = null;
        Map<String, Table> tables = catalog.tables().get(keyspace);
        if (tables != null) {
            for (String cf : columnFamilies) {
                Table table = tables.get(cf);
                if (table == null || table.statements().rowCallsPrepared()) continue;
                if (preparing == null) preparing = new ArrayList<>();
                preparing.add(table.statements().prepareRowCalls(statements));
            }
        }
        if (preparing == null) return errors.async(request);
        CompletableFuture<?>[] all = preparing.toArray(CompletableFuture[]::new);
        return errors.async(() -> CompletableFuture.allOf(all).thenCompose(prepared -> errors.async(request)));
    }

    /**
     * The live names each slice deletion of {@code mutation} selects, in the order
     * {@link MutationStatements#statements} meets them, read at the write's level (ONE for ZERO and ANY, which
     * promise no read).
     */
    private CompletableFuture<List<List<byte[]>>> liveNamesOfSlices(RowMutation mutation, byte[] key,
                                                                    Consistency consistency) {
        Consistency read = consistency == Consistency.ZERO || consistency == Consistency.ANY ? Consistency.ONE
                : consistency;
        List<CompletableFuture<List<byte[]>>> reads = new ArrayList<>();
        for (Map.Entry<String, List<Change>> e : mutation.changes().entrySet()) {
            for (Change change : e.getValue()) {
                if (!(change instanceof Change.DeleteSlice d)) continue;
                reads.add(errors.<List<Cell>>async(() -> {
                    Table table = table(mutation.keyspace(), e.getKey());
                    PathShape.REMOVE.check(table.metadata(), d.superColumn() != null, false);
                    return Reads.sliceAsync(this, table, key, d.superColumn(), d.range(), read);
                }).thenApply(cells -> {
                    List<byte[]> names = new ArrayList<>(cells.size());
                    for (Cell c : cells) names.add(c.name());
                    return names;
                }));
            }
        }
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenApply(
                all -> reads.stream().map(CompletableFuture::join).toList());
    }

    /** A lightweight transaction on the row's partition ({@link ConditionalWrites}). */
    @Override
    public CompletableFuture<CompareAndSet.Outcome> compareAndSet(CompareAndSet cas, SerialConsistency serial,
                                                                 Consistency commit) {
        return whenPrepared(cas.keyspace(), cas.columnFamily(), () -> {
            Table table = table(cas.keyspace(), cas.columnFamily());
            return table.statements().prepareCas(statements).thenCompose(prepared -> errors.async(() ->
                    ConditionalWrites.run(this, table, cas, ConsistencyLevels.serial(serial),
                            ConsistencyLevels.write(commit))));
        });
    }

    // ---- reads

    @Override
    public CompletableFuture<Optional<Cell>> readCell(String keyspace, String key, QueryPath path,
                                                      Consistency consistency) {
        if (isSibylsOwn(keyspace)) return CompletableFuture.completedFuture(Optional.empty());
        return whenPrepared(keyspace, path.columnFamily(), () -> {
            Table table = table(keyspace, path.columnFamily());
            PathShape.COLUMN.check(table.metadata(), path);
            if (table.isSuper() && path.column() == null) {
                return Reads.sliceAsync(this, table, key(key), null, ColumnSelection.names(path.superColumn()),
                        consistency);
            }
            return Reads.sliceAsync(this, table, key(key), path.superColumn(), ColumnSelection.names(path.column()),
                    consistency);
        }).thenApply(cells -> cells.isEmpty() ? Optional.empty() : Optional.of(cells.get(0)));
    }

    @Override
    public CompletableFuture<List<Cell>> readSlice(String keyspace, String key, QueryPath parent,
                                                   ColumnSelection selection, Consistency consistency) {
        if (isSibylsOwn(keyspace)) return CompletableFuture.completedFuture(List.of());
        return whenPrepared(keyspace, parent.columnFamily(), () -> {
            Table table = table(keyspace, parent.columnFamily());
            PathShape.PARENT.check(table.metadata(), parent);
            return Reads.sliceAsync(this, table, key(key), parent.superColumn(), selection, consistency);
        });
    }

    /**
     * TRUNCATE in the cluster, which Cassandra answers once every replica has truncated (and snapshotted, as its
     * auto_snapshot says). A keyspace of Sibyl's own holds nothing in the cluster, so there is nothing to do.
     */
    @Override
    public CompletableFuture<Void> truncate(String keyspace, String columnFamily) {
        return errors.async(() -> {
            if (isSibylsOwn(keyspace)) return CompletableFuture.<Void>completedFuture(null);
            Table table = table(keyspace, columnFamily);
            return session.executeAsync("TRUNCATE " + table.qualifiedName()).thenApply(rows -> null);
        });
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

    /** One request, waited for on the caller's thread (a worker's): get_count runs there. */
    @Override
    public CompletableFuture<Integer> count(String keyspace, String key, QueryPath parent, Consistency consistency) {
        try {
            return CompletableFuture.completedFuture(countNow(keyspace, key, parent, consistency));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private int countNow(String keyspace, String key, QueryPath parent, Consistency consistency) {
        if (isSibylsOwn(keyspace)) return 0;
        Table table = table(keyspace, parent.columnFamily());
        PathShape.PARENT.check(table.metadata(), parent);
        return Reads.count(this, table, key(key), parent.superColumn(), consistency);
    }

    /** Waited for on the caller's thread (a worker's), as {@link #scanNow} finds the keys before reading the rows. */
    @Override
    public CompletableFuture<List<RowSlice>> scan(String keyspace, QueryPath parent, ColumnSelection selection,
                                                  RowRange range, int count, Consistency consistency) {
        try {
            return CompletableFuture.completedFuture(scanNow(keyspace, parent, selection, range, count, consistency));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * The keys first (SELECT DISTINCT over the token range, in the cluster's ring order), then
     * each row's slice, {@value #RANGE_SLICE_WINDOW} at a time ({@link BoundedFanOut}). A row that
     * holds only tombstones is not listed, where the embedded engine lists it with no columns
     * (README: where Sibyl differs).
     */
    private List<RowSlice> scanNow(String keyspace, QueryPath parent, ColumnSelection selection, RowRange range,
                                   int count, Consistency consistency) {
        if (isSibylsOwn(keyspace)) return List.of();
        Table table = table(keyspace, parent.columnFamily());
        PathShape.PARENT.check(table.metadata(), parent);
        if (count <= 0) return List.of();
        List<byte[]> keys = RangeKeys.find(this, table, range, count, consistency);
        byte[] superColumn = parent.superColumn();
        List<List<Cell>> slices = errors.join(BoundedFanOut.run(keys.size(), RANGE_SLICE_WINDOW,
                i -> Reads.sliceAsync(this, table, keys.get(i), superColumn, selection, consistency)));
        List<RowSlice> rows = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            rows.add(new RowSlice(BinaryKeys.decode(keys.get(i)), slices.get(i)));
        }
        return rows;
    }

    /**
     * The cluster's tokens (every node's, in ring order) as Sibyl's partitioner writes them; a token
     * that two of the cluster's become one ({@link ClusterTokens#fromCluster}) is given once.
     */
    @Override
    public List<Token> ringTokens() {
        List<Token> ring = new ArrayList<>();
        for (ClusterRing.Entry e : ring().tokens()) {
            Token t = tokens.fromCluster(e.token());
            if (ring.isEmpty() || !ring.get(ring.size() - 1).equals(t)) ring.add(t);
        }
        if (ring.size() > 1 && ring.get(0).equals(ring.get(ring.size() - 1))) ring.remove(ring.size() - 1);
        return ring;
    }

    /** The cluster's ring now, as the cluster writes its tokens, with each token's node: for nodetool ring. */
    public ClusterRing ring() {
        return ClusterRing.of(session);
    }

    /** The cluster's nodes by CQL address, each with whether it is up now. */
    public Map<String, Boolean> clusterNodes() {
        return ClusterRing.nodes(session);
    }

    /** The cluster's name, as it gives it. */
    public String clusterName() {
        return session.getMetadata().getClusterName().orElse("?");
    }

    /** The contact points of the configuration, as {@code host:port, ...}. */
    public String contactPoints() {
        return String.join(", ", conf.contactPoints().stream().map(ClusterConf.ContactPoint::toString).toList());
    }

    /**
     * describe_splits from the cluster's own estimates of the rows in each range
     * ({@link SizeEstimates}, {@link TokenSplits}): {@code [start, t1, ..., end]} with pieces of about
     * {@code keysPerSplit} rows of all column families. {@code [start, end]} when the estimates show too
     * few rows (data only in the cluster's memtables is not counted, as 0.6 sampled only its SSTables),
     * when the cluster orders by key (ByteOrderedPartitioner: its estimates are not cut, docs/thrift-api.md
     * §Describe), or when the estimates cannot be read.
     */
    @Override
    public List<Token> describeSplits(Token start, Token end, int keysPerSplit) {
        if (keysPerSplit <= 0) throw new IllegalArgumentException("keys_per_split must be positive: " + keysPerSplit);
        if (!tokens.numeric()) return List.of(start, end);
        List<SizeEstimates.RangeEstimate> estimates;
        try {
            estimates = SizeEstimates.read(session, statements, cqlTables());
        } catch (UnavailableReplicasException | StorageTimeoutException e) {
            return List.of(start, end); // ClusterErrors logged it; one split is still an answer
        }
        List<Token> splits = new ArrayList<>();
        splits.add(start);
        BigInteger from = new BigInteger(partitioner.toString(start));
        BigInteger to = new BigInteger(partitioner.toString(end));
        for (BigInteger cut : TokenSplits.cuts(from, to, tokens.ringStart(), tokens.ringEnd(), estimates, keysPerSplit)) {
            splits.add(partitioner.fromString(cut.toString()));
        }
        splits.add(end);
        return splits;
    }

    /** The CQL tables of the configured column families, by CQL keyspace. */
    private Map<String, Set<String>> cqlTables() {
        Map<String, Set<String>> byKeyspace = new LinkedHashMap<>();
        for (Map<String, Table> ks : catalog.tables().values()) {
            for (Table t : ks.values()) byKeyspace.computeIfAbsent(t.cqlKeyspace(), k -> new HashSet<>()).add(t.name());
        }
        return byKeyspace;
    }

    /**
     * The {@code system} keyspace: described as in 0.6, read as empty, not stored in the cluster
     * (a Sibyl node in cluster mode has no local state to keep there).
     */
    private boolean isSibylsOwn(String keyspace) {
        Catalog c = catalog;
        return !c.tables().containsKey(keyspace) && c.schema().keyspace(keyspace).isPresent();
    }

    // ---- shared with the statement builders

    Table table(String keyspace, String columnFamily) {
        Catalog c = catalog;
        Map<String, Table> ks = c.tables().get(keyspace);
        if (ks == null) {
            if (c.schema().keyspace(keyspace).isPresent()) {
                throw new InvalidQueryException("keyspace " + keyspace + " is Sibyl's own and is not stored in the"
                        + " cluster");
            }
            throw new InvalidQueryException("Keyspace " + keyspace + " does not exist in this schema.");
        }
        Table table = ks.get(columnFamily);
        if (table == null) throw new InvalidQueryException("unconfigured columnfamily " + columnFamily);
        return table;
    }

    Statements statements() {
        return statements;
    }

    /** How this node turns the cluster's failures into the storage layer's, and logs them. */
    ClusterErrors errors() {
        return errors;
    }

    ClusterTokens tokens() {
        return tokens;
    }

    ResultSet execute(BoundStatement statement) {
        return errors.call(() -> session.execute(statement));
    }

    /** Failures come back in the future as the driver's exceptions; {@link ClusterErrors#join} translates them. */
    CompletionStage<AsyncResultSet> executeAsync(BoundStatement statement) {
        return session.executeAsync(statement);
    }

    /** A row key as the cluster's tables hold it: its bytes ({@link BinaryKeys}). */
    static byte[] key(String key) {
        return BinaryKeys.encode(key);
    }
}
