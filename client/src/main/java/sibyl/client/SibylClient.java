package sibyl.client;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.cassandra.thrift.AuthenticationRequest;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.NotFoundException;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SuperColumn;
import org.apache.cassandra.thrift.TokenRange;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;

/**
 * One connection to a server speaking the Cassandra 0.6 Thrift interface, with typed helpers over
 * the generated {@link Cassandra.Client}.
 *
 * <p>Connecting tries the configured hosts in order and keeps the first that accepts; a login, if
 * configured, follows every (re)connect. When a call breaks the connection (network failure, read
 * timeout, undecodable reply) it fails with a {@link ClientException} and the next call reconnects,
 * starting with the host after the one that failed. Calls are never retried silently: a write whose
 * reply was lost may or may not have been applied.
 *
 * <p>Every failure is a {@link ClientException} naming the operation and carrying the server's
 * {@code why}. Not thread-safe: use one instance per thread.
 */
public final class SibylClient implements AutoCloseable {

    private final ClientConfig config;
    /** Which of the configured hosts the next connect tries first. */
    private final HostRotation hosts;
    private TTransport transport;
    private Cassandra.Client thrift;
    private HostAddress connectedHost;
    private boolean closed;

    private SibylClient(ClientConfig config) {
        this.config = config;
        this.hosts = new HostRotation(config.hosts());
    }

    /** Connects to the first reachable host of {@code config} (and logs in if configured). */
    public static SibylClient connect(ClientConfig config) {
        SibylClient client = new SibylClient(config);
        client.open();
        return client;
    }

    /** Connects to one host with the defaults: unframed, no login. */
    public static SibylClient connect(String host, int port) {
        return connect(ClientConfig.builder().host(host, port).build());
    }

    /** The current time in microseconds since the epoch, the 0.6 convention for timestamps. */
    public static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    public ClientConfig config() {
        return config;
    }

    /** The host of the open connection, or null while disconnected. */
    public HostAddress connectedHost() {
        return connectedHost;
    }

    public boolean isOpen() {
        return transport != null && transport.isOpen();
    }

    /** The generated client for calls without a helper; reconnects first if needed. */
    public Cassandra.Client thrift() {
        ensureOpen();
        return thrift;
    }

    /** Drops the current connection (if any) and connects again, starting with the next host. */
    public void reconnect() {
        disconnect();
        open();
    }

    @Override
    public void close() {
        closed = true;
        disconnect();
    }

    // ---- meta ----

    public Set<String> describeKeyspaces() {
        return call("describe_keyspaces", Cassandra.Client::describe_keyspaces);
    }

    public String describeClusterName() {
        return call("describe_cluster_name", Cassandra.Client::describe_cluster_name);
    }

    public String describeVersion() {
        return call("describe_version", Cassandra.Client::describe_version);
    }

    /** Only servers of API 2.2.0 (0.6.4) and later know this call. */
    public String describePartitioner() {
        return call("describe_partitioner", Cassandra.Client::describe_partitioner);
    }

    /**
     * Column family name → properties ({@code Type}, {@code CompareWith}, ...). An unknown keyspace fails
     * with {@link ClientException.Kind#NOT_FOUND} on servers that say so, but with SERVER_ERROR on 0.6
     * itself, which fails internally; check {@link #describeKeyspaces()} first to tell the two apart.
     */
    public Map<String, Map<String, String>> describeKeyspace(String keyspace) {
        return call("describe_keyspace " + keyspace, c -> c.describe_keyspace(keyspace));
    }

    public List<TokenRange> describeRing(String keyspace) {
        return call("describe_ring " + keyspace, c -> c.describe_ring(keyspace));
    }

    /** Logs this connection in; not remembered for reconnects (configure credentials for that). */
    public void login(String keyspace, String username, String password) {
        AuthenticationRequest request = new AuthenticationRequest(Map.of("username", username, "password", password));
        call("login to " + keyspace + " as " + username, c -> {
            c.login(keyspace, request);
            return null;
        });
    }

    // ---- writes ----

    public void insert(String keyspace, String key, ColumnPath path, byte[] value, long timestamp,
                       ConsistencyLevel level) {
        call("insert into " + keyspace + "." + path.getColumn_family() + " key '" + key + "'", c -> {
            c.insert(keyspace, key, path, Bytes.wrap(value), timestamp, level);
            return null;
        });
    }

    /** Writes one column of a standard column family, timestamped now. */
    public void insert(String keyspace, String columnFamily, String key, byte[] column, byte[] value) {
        insert(keyspace, key, Paths.column(columnFamily, column), value, nowMicros(), config.writeConsistency());
    }

    /** Writes one subcolumn of a super column family, timestamped now. */
    public void insertSuper(String keyspace, String columnFamily, String key, byte[] superColumn, byte[] column,
                            byte[] value) {
        insert(keyspace, key, Paths.subColumn(columnFamily, superColumn, column), value, nowMicros(),
                config.writeConsistency());
    }

    /**
     * Deletes what {@code path} names: the row of its column family (only the CF set), a super column,
     * or a column.
     */
    public void remove(String keyspace, String key, ColumnPath path, long timestamp, ConsistencyLevel level) {
        call("remove from " + keyspace + "." + path.getColumn_family() + " key '" + key + "'", c -> {
            c.remove(keyspace, key, path, timestamp, level);
            return null;
        });
    }

    public void remove(String keyspace, String key, ColumnPath path) {
        remove(keyspace, key, path, nowMicros(), config.writeConsistency());
    }

    public void batchMutate(String keyspace, BatchMutation batch, ConsistencyLevel level) {
        var mutations = batch.toThrift();
        call("batch_mutate in " + keyspace + " (" + mutations.size() + " rows)", c -> {
            c.batch_mutate(keyspace, mutations, level);
            return null;
        });
    }

    public void batchMutate(String keyspace, BatchMutation batch) {
        batchMutate(keyspace, batch, config.writeConsistency());
    }

    // ---- reads ----

    /** The column or super column at {@code path}, or empty if there is none. */
    public Optional<ColumnOrSuperColumn> get(String keyspace, String key, ColumnPath path, ConsistencyLevel level) {
        return call("get from " + keyspace + "." + path.getColumn_family() + " key '" + key + "'", c -> {
            try {
                return Optional.of(c.get(keyspace, key, path, level));
            } catch (NotFoundException e) {
                return Optional.empty();
            }
        });
    }

    public Optional<Column> getColumn(String keyspace, String columnFamily, String key, byte[] column) {
        return get(keyspace, key, Paths.column(columnFamily, column), config.readConsistency())
                .map(ColumnOrSuperColumn::getColumn);
    }

    public Optional<Column> getSubColumn(String keyspace, String columnFamily, String key, byte[] superColumn,
                                         byte[] column) {
        return get(keyspace, key, Paths.subColumn(columnFamily, superColumn, column), config.readConsistency())
                .map(ColumnOrSuperColumn::getColumn);
    }

    public Optional<SuperColumn> getSuperColumn(String keyspace, String columnFamily, String key,
                                                byte[] superColumn) {
        return get(keyspace, key, Paths.superColumn(columnFamily, superColumn), config.readConsistency())
                .map(ColumnOrSuperColumn::getSuper_column);
    }

    public List<ColumnOrSuperColumn> getSlice(String keyspace, String key, ColumnParent parent,
                                              SlicePredicate predicate, ConsistencyLevel level) {
        return call("get_slice from " + keyspace + "." + parent.getColumn_family() + " key '" + key + "'",
                c -> c.get_slice(keyspace, key, parent, predicate, level));
    }

    /** Up to {@code count} columns of a standard row from {@code start} to {@code finish} (empty = open). */
    public List<Column> getColumns(String keyspace, String columnFamily, String key, byte[] start, byte[] finish,
                                   int count) {
        List<ColumnOrSuperColumn> slice = getSlice(keyspace, key, new ColumnParent(columnFamily),
                Predicates.range(start, finish, false, count), config.readConsistency());
        List<Column> columns = new ArrayList<>(slice.size());
        for (ColumnOrSuperColumn cosc : slice) {
            columns.add(cosc.getColumn());
        }
        return columns;
    }

    public Map<String, List<ColumnOrSuperColumn>> multigetSlice(String keyspace, List<String> keys,
                                                                ColumnParent parent, SlicePredicate predicate,
                                                                ConsistencyLevel level) {
        return call("multiget_slice from " + keyspace + "." + parent.getColumn_family() + " (" + keys.size()
                + " keys)", c -> c.multiget_slice(keyspace, keys, parent, predicate, level));
    }

    public int getCount(String keyspace, String key, ColumnParent parent, ConsistencyLevel level) {
        return call("get_count from " + keyspace + "." + parent.getColumn_family() + " key '" + key + "'",
                c -> c.get_count(keyspace, key, parent, level));
    }

    public int getCount(String keyspace, String columnFamily, String key) {
        return getCount(keyspace, key, new ColumnParent(columnFamily), config.readConsistency());
    }

    public List<KeySlice> getRangeSlices(String keyspace, ColumnParent parent, SlicePredicate predicate,
                                         KeyRange range, ConsistencyLevel level) {
        return call("get_range_slices from " + keyspace + "." + parent.getColumn_family(),
                c -> c.get_range_slices(keyspace, parent, predicate, range, level));
    }

    /**
     * All rows from {@code startKey} to {@code endKey} (both inclusive; "" = open), fetched lazily in pages
     * of {@code pageSize} rows. Rows come in the partitioner's order, which is only key order under an
     * order-preserving partitioner.
     */
    public RangeScan scanRows(String keyspace, ColumnParent parent, SlicePredicate predicate, String startKey,
                              String endKey, int pageSize) {
        return new RangeScan(this, keyspace, parent, predicate, startKey, endKey, pageSize,
                config.readConsistency());
    }

    /** All columns (or super columns) of one row, fetched lazily in pages of {@code pageSize}. */
    public SliceScan scanColumns(String keyspace, String key, ColumnParent parent, int pageSize) {
        return new SliceScan(this, keyspace, key, parent, pageSize, config.readConsistency());
    }

    // ---- connection handling ----

    /** Any use of the generated client, e.g. its send and receive halves of a call (as bin/stress makes). */
    @FunctionalInterface
    public interface ThriftCall<T> {
        T apply(Cassandra.Client client) throws TException;
    }

    /**
     * Runs one call, reconnecting first if the connection is down, and translates its failures.
     *
     * @param operation names the call in a failure's message
     */
    public <T> T call(String operation, ThriftCall<T> body) {
        ensureOpen();
        HostAddress host = connectedHost;
        try {
            return body.apply(thrift);
        } catch (TException | RuntimeException e) {
            ClientException failure = ClientException.wrap(operation, e, host);
            if (failure.brokeConnection()) {
                disconnect();
            }
            throw failure;
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("this client has been closed");
        }
        if (transport == null) {
            open();
        }
    }

    private void open() {
        hosts.connect(this::openTo);
    }

    private void openTo(HostAddress host) {
        TConfiguration tconf = TConfiguration.custom()
                .setMaxMessageSize(config.maxMessageBytes())
                .setMaxFrameSize(config.maxMessageBytes())
                .build();
        TTransport t = null;
        try {
            TSocket socket = new TSocket(tconf, host.host(), host.port(), config.readTimeoutMillis(),
                    config.connectTimeoutMillis());
            t = config.framed() ? new TFramedTransport(socket, config.maxMessageBytes()) : socket;
            t.open();
        } catch (TTransportException e) {
            if (t != null) {
                t.close();
            }
            throw ClientException.wrap("connect to " + host, e, host);
        }
        transport = t;
        thrift = new Cassandra.Client(new TBinaryProtocol(t));
        connectedHost = host;
        ClientConfig.Credentials credentials = config.credentials();
        if (credentials != null) {
            try {
                login(credentials.keyspace(), credentials.username(), credentials.password());
            } catch (ClientException e) {
                disconnect();
                throw e;
            }
        }
    }

    private void disconnect() {
        if (transport != null) {
            transport.close();
        }
        transport = null;
        thrift = null;
        connectedHost = null;
    }
}
