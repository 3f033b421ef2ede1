package sibyl.transport;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.apache.cassandra.thrift.AuthenticationRequest;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.TokenRange;

/**
 * A handler with just enough behaviour to exercise the transport:
 * <ul>
 * <li>describe_version, describe_cluster_name, describe_keyspaces: fixed answers;</li>
 * <li>get_string_property: echoes its argument after a short random pause (so that calls of different connections
 * interleave);</li>
 * <li>get_slice: throws NullPointerException; describe_ring: throws AssertionError;</li>
 * <li>describe_partitioner: waits for {@link #gate} to open, counting itself in {@link #gatedCallsRunning};</li>
 * <li>everything else: UnsupportedOperationException.</li>
 * </ul>
 */
final class StubCassandra implements Cassandra.Iface {
    static final String VERSION = "2.2.0";
    static final String CLUSTER = "Transport Test Cluster";
    static final Set<String> KEYSPACES = Set.of("Keyspace1", "system");

    final AtomicInteger calls = new AtomicInteger();
    final CountDownLatch gate = new CountDownLatch(1);
    final CountDownLatch gatedCallStarted = new CountDownLatch(1);
    final AtomicInteger gatedCallsRunning = new AtomicInteger();

    @Override
    public String describe_version() {
        calls.incrementAndGet();
        return VERSION;
    }

    @Override
    public String describe_cluster_name() {
        calls.incrementAndGet();
        return CLUSTER;
    }

    @Override
    public Set<String> describe_keyspaces() {
        calls.incrementAndGet();
        return KEYSPACES;
    }

    @Override
    public String get_string_property(String property) {
        calls.incrementAndGet();
        LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(200_000));
        return property;
    }

    @Override
    public List<ColumnOrSuperColumn> get_slice(String keyspace, String key, ColumnParent columnParent,
            SlicePredicate predicate, ConsistencyLevel consistencyLevel) {
        calls.incrementAndGet();
        throw new NullPointerException("get_slice fails on purpose");
    }

    @Override
    public List<TokenRange> describe_ring(String keyspace) {
        calls.incrementAndGet();
        throw new AssertionError("describe_ring is broken on purpose");
    }

    @Override
    public String describe_partitioner() {
        calls.incrementAndGet();
        gatedCallsRunning.incrementAndGet();
        gatedCallStarted.countDown();
        try {
            if (!gate.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("gate never opened");
            }
            return "org.apache.cassandra.dht.RandomPartitioner";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            gatedCallsRunning.decrementAndGet();
        }
    }

    @Override
    public void login(String keyspace, AuthenticationRequest authRequest) {
        throw unsupported();
    }

    @Override
    public ColumnOrSuperColumn get(String keyspace, String key, ColumnPath columnPath, ConsistencyLevel cl) {
        throw unsupported();
    }

    @Override
    public Map<String, ColumnOrSuperColumn> multiget(String keyspace, List<String> keys, ColumnPath columnPath,
            ConsistencyLevel cl) {
        throw unsupported();
    }

    @Override
    public Map<String, List<ColumnOrSuperColumn>> multiget_slice(String keyspace, List<String> keys,
            ColumnParent columnParent, SlicePredicate predicate, ConsistencyLevel cl) {
        throw unsupported();
    }

    @Override
    public int get_count(String keyspace, String key, ColumnParent columnParent, ConsistencyLevel cl) {
        throw unsupported();
    }

    @Override
    public List<KeySlice> get_range_slice(String keyspace, ColumnParent columnParent, SlicePredicate predicate,
            String startKey, String finishKey, int rowCount, ConsistencyLevel cl) {
        throw unsupported();
    }

    @Override
    public List<KeySlice> get_range_slices(String keyspace, ColumnParent columnParent, SlicePredicate predicate,
            KeyRange range, ConsistencyLevel cl) {
        throw unsupported();
    }

    @Override
    public void insert(String keyspace, String key, ColumnPath columnPath, ByteBuffer value, long timestamp,
            ConsistencyLevel cl) {
        throw unsupported();
    }

    @Override
    public void batch_insert(String keyspace, String key, Map<String, List<ColumnOrSuperColumn>> cfmap,
            ConsistencyLevel cl) {
        throw unsupported();
    }

    @Override
    public void remove(String keyspace, String key, ColumnPath columnPath, long timestamp, ConsistencyLevel cl) {
        throw unsupported();
    }

    @Override
    public void batch_mutate(String keyspace, Map<String, Map<String, List<Mutation>>> mutationMap,
            ConsistencyLevel cl) {
        throw unsupported();
    }

    @Override
    public List<String> get_string_list_property(String property) {
        throw unsupported();
    }

    @Override
    public Map<String, Map<String, String>> describe_keyspace(String keyspace) {
        throw unsupported();
    }

    @Override
    public List<String> describe_splits(String startToken, String endToken, int keysPerSplit) {
        throw unsupported();
    }

    private static UnsupportedOperationException unsupported() {
        return new UnsupportedOperationException("not in the transport test stub");
    }
}
