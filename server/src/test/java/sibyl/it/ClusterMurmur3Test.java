package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.KeySlice;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;
import sibyl.iface.v20.TokenRange;

/**
 * A node configured with Murmur3Partitioner in front of a Cassandra 5 cluster of Murmur3Partitioner (its default)
 * shows the cluster's own tokens: describe_ring is the cluster's ring, and a 0.7+ range slice by tokens selects the
 * rows whose tokens in the cluster ({@code token(key)} in CQL) lie in the range, in that order. A node configured
 * with another partitioner is refused at start-up, naming both (docs/configuration.md §Cluster).
 */
class ClusterMurmur3Test {
    private static final String MURMUR3 = "org.apache.cassandra.dht.Murmur3Partitioner";
    private static final String PREFIX = "murmur3_";
    private static final ColumnParent CF = new ColumnParent("Standard1");

    @TempDir
    static Path dir;
    static LocalCassandra cassandra;
    static TestNode node;
    static CqlSession cql;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(TestNode.Backend.underTest().contains(TestNode.Backend.CLUSTER), "cluster backend not under test");
        cassandra = LocalCassandra.create("murmur3", MURMUR3);
        cassandra.start(1);
        node = TestNode.start(Files.createDirectories(dir.resolve("murmur3")),
                ConfEdits.all(ConfEdits.partitioner(MURMUR3), ConfEdits.inCluster(cassandra.contactPoint(1), PREFIX)));
        cql = CqlSession.builder().withLocalDatacenter("datacenter1")
                .addContactPoint(new InetSocketAddress(LocalCassandra.address(1), cassandra.nativePort())).build();
    }

    @AfterAll
    static void stop() {
        if (cql != null) cql.close();
        if (node != null) node.close();
        if (cassandra != null) cassandra.close();
    }

    @Test
    void tokenRangesMeanWhatTheyMeanInTheCluster() throws Exception {
        List<byte[]> keys = new ArrayList<>();
        Random random = new Random(33);
        for (int i = 0; i < 50; i++) {
            byte[] key = new byte[1 + random.nextInt(20)];
            random.nextBytes(key);
            keys.add(key);
        }
        TTransport transport = new TFramedTransport(new TSocket("127.0.0.1", node.port(), 30_000));
        transport.open();
        try {
            Cassandra.Client client = new Cassandra.Client(new TBinaryProtocol(transport));
            client.set_keyspace("Keyspace1");
            for (byte[] key : keys) {
                client.insert(ByteBuffer.wrap(key), CF, new Column(ByteBuffer.wrap(new byte[] {1})).setValue(key)
                        .setTimestamp(1), ConsistencyLevel.ONE);
            }
            assertEquals(MURMUR3, client.describe_partitioner());
            TokenMap map = cql.getMetadata().getTokenMap().orElseThrow();
            List<List<String>> theirs = new ArrayList<>();
            for (com.datastax.oss.driver.api.core.metadata.token.TokenRange r : map.getTokenRanges()) {
                theirs.add(List.of(map.format(r.getStart()), map.format(r.getEnd())));
            }
            List<List<String>> ours = new ArrayList<>();
            for (TokenRange r : client.describe_ring("Keyspace1")) ours.add(List.of(r.start_token, r.end_token));
            assertEquals(theirs, ours, "describe_ring is the cluster's ring");

            // The cluster's token of each key, in its order.
            TreeMap<Long, String> byToken = new TreeMap<>();
            for (Row row : cql.execute(SimpleStatement.newInstance("SELECT DISTINCT key, token(key) FROM \"" + PREFIX
                    + "Keyspace1\".\"Standard1\""))) {
                byToken.put(row.getLong(1), HexFormat.of().formatHex(bytes(row.getByteBuffer(0))));
            }
            assertEquals(keys.size(), byToken.size());
            List<Long> tokens = new ArrayList<>(byToken.keySet());
            SlicePredicate all = new SlicePredicate().setSlice_range(new SliceRange(ByteBuffer.allocate(0),
                    ByteBuffer.allocate(0), false, 10));
            for (int i = 0; i < 10; i++) {
                long a = tokens.get(random.nextInt(tokens.size()));
                long b = tokens.get(random.nextInt(tokens.size()));
                Map<Long, String> expected = new LinkedHashMap<>();
                if (a < b) {
                    expected.putAll(byToken.subMap(a, false, b, true));
                } else {
                    expected.putAll(byToken.tailMap(a, false));
                    expected.putAll(byToken.headMap(b, true));
                }
                List<String> got = new ArrayList<>();
                for (KeySlice s : client.get_range_slices(CF, all, new KeyRange(1000).setStart_token(Long.toString(a))
                        .setEnd_token(Long.toString(b)), ConsistencyLevel.ONE)) {
                    got.add(HexFormat.of().formatHex(s.getKey()));
                }
                assertEquals(List.copyOf(expected.values()), got, "(" + a + ", " + b + "]");
            }
        } finally {
            transport.close();
        }
    }

    @Test
    void anotherPartitionerIsRefusedNamingBoth() throws Exception {
        Exception refused = assertThrows(Exception.class, () -> TestNode.start(Files.createDirectories(dir.resolve("random")),
                ConfEdits.all(ConfEdits.partitioner("org.apache.cassandra.dht.RandomPartitioner"),
                        ConfEdits.inCluster(cassandra.contactPoint(1), PREFIX))).close());
        String why = String.valueOf(refused.getMessage());
        assertTrue(why.contains(MURMUR3) && why.contains("org.apache.cassandra.dht.RandomPartitioner"), why);
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
