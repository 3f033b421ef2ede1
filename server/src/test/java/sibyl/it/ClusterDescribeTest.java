package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import com.datastax.oss.driver.api.core.metadata.token.TokenRange;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.InvalidRequestException;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The describe calls of a node in cluster mode (docs/thrift-api.md §Describe), over real sockets,
 * against the shared local Cassandra: the ring is the cluster's as a CQL driver sees it, its
 * ranges name the deployment's Sibyl nodes, and describe_splits cuts a range by the cluster's own
 * size estimates.
 */
class ClusterDescribeTest {
    private static final List<String> SIBYL_NODES = List.of("127.0.0.1", "10.1.0.2", "10.1.0.3");
    private static final String KS = "Keyspace1";

    @TempDir
    static Path dir;
    static TestNode node;
    static CqlSession cql;
    static String prefix;

    @BeforeAll
    static void start() throws Exception {
        LocalCassandra cassandra = LocalCassandra.shared();
        prefix = "describe" + ProcessHandle.current().pid() + "_";
        StringBuilder endpoints = new StringBuilder("<ThriftEndpoints>");
        for (String e : SIBYL_NODES) endpoints.append("<ThriftEndpoint>").append(e).append("</ThriftEndpoint>");
        endpoints.append("</ThriftEndpoints>");
        node = TestNode.start(dir, ConfEdits.inCluster(cassandra.contactPoint(1), prefix)
                .andThen(xml -> xml.replace("</Cluster>", endpoints + "</Cluster>"))::apply);
        cql = CqlSession.builder().withLocalDatacenter("datacenter1")
                .addContactPoint(new InetSocketAddress(LocalCassandra.address(1), cassandra.nativePort()))
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(30)).build())
                .build();
    }

    @AfterAll
    static void stop() {
        if (cql != null) cql.close();
        if (node != null) node.close();
    }

    /** The cluster's ranges in ring order as the driver has them, as (start, end) token strings. */
    private static List<List<String>> driverRing() {
        TokenMap map = cql.getMetadata().getTokenMap().orElseThrow();
        List<List<String>> ranges = new ArrayList<>();
        for (TokenRange r : map.getTokenRanges()) ranges.add(List.of(map.format(r.getStart()), map.format(r.getEnd())));
        return ranges;
    }

    @Test
    void thePartitionerIsTheClustersIn06sName() throws Exception {
        String theirs = cql.getMetadata().getTokenMap().orElseThrow().getPartitionerName();
        assertEquals("org.apache.cassandra.dht.RandomPartitioner", theirs);
        assertEquals(theirs, node.client().describe_partitioner());
    }

    @Test
    void theRingIsTheClustersWithTheSibylNodesAsEndpoints() throws Exception {
        List<org.apache.cassandra.thrift.TokenRange> ring = node.client().describe_ring(KS);
        List<List<String>> tokens = new ArrayList<>();
        for (org.apache.cassandra.thrift.TokenRange r : ring) tokens.add(List.of(r.getStart_token(), r.getEnd_token()));
        assertEquals(driverRing(), tokens);
        assertTrue(ring.size() >= SIBYL_NODES.size(), "bin/cassandra-local gives its node 16 tokens: " + ring.size());
        Set<String> firsts = new HashSet<>();
        for (org.apache.cassandra.thrift.TokenRange r : ring) {
            assertEquals(Set.copyOf(SIBYL_NODES), Set.copyOf(r.getEndpoints()), "every Sibyl node serves every range");
            assertEquals(SIBYL_NODES.size(), r.getEndpoints().size());
            firsts.add(r.getEndpoints().get(0));
        }
        assertEquals(Set.copyOf(SIBYL_NODES), firsts, "the first endpoints spread over the Sibyl nodes");
    }

    @Test
    void theTokenMapNamesEveryTokenOfTheClusterAndEverySibylNode() throws Exception {
        String json = node.client().get_string_property("token map");
        Map<String, String> map = new HashMap<>();
        Matcher m = Pattern.compile("\"([^\"]*)\":\"([^\"]*)\"").matcher(json);
        while (m.find()) map.put(m.group(1), m.group(2));
        Set<String> ends = new HashSet<>();
        for (List<String> r : driverRing()) ends.add(r.get(1));
        assertEquals(ends, map.keySet());
        assertEquals(Set.copyOf(SIBYL_NODES), Set.copyOf(map.values()), "the hosts the Ruby gem would find");
    }

    @Test
    void noRingForSystemOrAnUnknownKeyspace() throws Exception {
        Cassandra.Client c = node.client();
        assertEquals("There is no ring for the keyspace: system",
                assertThrows(InvalidRequestException.class, () -> c.describe_ring("system")).getWhy());
        assertEquals("There is no ring for the keyspace: Nope",
                assertThrows(InvalidRequestException.class, () -> c.describe_ring("Nope")).getWhy());
    }

    /**
     * Writes rows, makes the cluster flush and estimate them (its own JMX operations), then cuts every range
     * of the ring: each range's splits begin and end at its tokens and go round the ring in order, the
     * splits of the whole ring hold every row once, and hold about keys_per_split rows each.
     */
    @Test
    void splitsCoverEachRangeInOrderWithAboutKeysPerSplitRows() throws Exception {
        Cassandra.Client c = node.client();
        int rows = 6000;
        int perSplit = 500;
        write(c, "Standard2", rows);
        flushAndEstimate(prefix + KS);

        List<String> pieces = new ArrayList<>();
        for (org.apache.cassandra.thrift.TokenRange r : c.describe_ring(KS)) {
            List<String> splits = c.describe_splits(r.getStart_token(), r.getEnd_token(), perSplit);
            assertEquals(r.getStart_token(), splits.get(0));
            assertEquals(r.getEnd_token(), splits.get(splits.size() - 1));
            assertInRingOrder(splits);
            for (int i = 0; i + 1 < splits.size(); i++) pieces.add(splits.get(i) + " " + splits.get(i + 1));
        }
        Set<String> seen = new LinkedHashSet<>();
        int most = 0;
        for (String piece : pieces) {
            String[] t = piece.split(" ");
            List<String> keys = keysIn(c, "Standard2", t[0], t[1]);
            for (String k : keys) assertTrue(seen.add(k), k + " in two splits");
            most = Math.max(most, keys.size());
        }
        assertEquals(rows, seen.size(), "the splits hold every row");
        // The cluster's estimates are coarse (per SSTable index summary), so "about" is generous.
        assertTrue(pieces.size() >= rows / perSplit / 2 && pieces.size() <= rows / perSplit * 3,
                pieces.size() + " splits for " + rows + " rows at " + perSplit + " a split");
        assertTrue(most <= perSplit * 4, "the largest split holds " + most + " rows");
    }

    @Test
    void theWholeRingFromOneTokenIsCutToo() throws Exception {
        Cassandra.Client c = node.client();
        write(c, "Standard1", 3000);
        flushAndEstimate(prefix + KS);
        String t = c.describe_ring(KS).get(0).getStart_token();
        List<String> splits = c.describe_splits(t, t, 300);
        assertTrue(splits.size() > 3, splits.toString());
        assertEquals(t, splits.get(0));
        assertEquals(t, splits.get(splits.size() - 1));
    }

    /** Each step (a, b] of the list is a step forward round the ring: the cuts never go back past the start. */
    private static void assertInRingOrder(List<String> splits) {
        BigInteger start = new BigInteger(splits.get(0));
        BigInteger ring = BigInteger.ONE.shiftLeft(127).add(BigInteger.TWO); // tokens -1 .. 2^127
        BigInteger travelled = BigInteger.ZERO;
        for (int i = 1; i < splits.size(); i++) {
            BigInteger at = new BigInteger(splits.get(i)).subtract(start).mod(ring);
            if (i < splits.size() - 1) assertTrue(at.signum() > 0, "a cut at the start: " + splits);
            assertTrue(i == splits.size() - 1 && at.signum() == 0 || at.compareTo(travelled) > 0,
                    "out of ring order: " + splits);
            travelled = at;
        }
    }

    private static void write(Cassandra.Client c, String cf, int rows) throws Exception {
        long ts = System.currentTimeMillis() * 1000;
        for (int from = 0; from < rows; from += 200) {
            Map<String, Map<String, List<Mutation>>> batch = new HashMap<>();
            for (int i = from; i < Math.min(rows, from + 200); i++) {
                Column col = new Column(bytes("c"), bytes("v" + i), ts);
                batch.put(cf + "-row-" + i, Map.of(cf, List.of(new Mutation().setColumn_or_supercolumn(
                        new ColumnOrSuperColumn().setColumn(col)))));
            }
            c.batch_mutate(KS, batch, ConsistencyLevel.ONE);
        }
    }

    private static List<String> keysIn(Cassandra.Client c, String cf, String start, String end) throws Exception {
        SlicePredicate one = new SlicePredicate().setSlice_range(new SliceRange(bytes(""), bytes(""), false, 1));
        List<String> keys = new ArrayList<>();
        for (var slice : c.get_range_slices(KS, new ColumnParent(cf), one,
                new KeyRange(100_000).setStart_token(start).setEnd_token(end), ConsistencyLevel.ONE)) {
            keys.add(slice.getKey());
        }
        return keys;
    }

    /** nodetool flush and refreshsizeestimates of the cluster's node, over its JMX. */
    private static void flushAndEstimate(String cqlKeyspace) throws Exception {
        LocalCassandra cassandra = LocalCassandra.shared();
        JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + cassandra.jmxPort(1)
                + "/jmxrmi");
        try (JMXConnector jmx = JMXConnectorFactory.connect(url)) {
            MBeanServerConnection server = jmx.getMBeanServerConnection();
            ObjectName storage = new ObjectName("org.apache.cassandra.db:type=StorageService");
            server.invoke(storage, "forceKeyspaceFlush", new Object[] {cqlKeyspace, new String[0]},
                    new String[] {String.class.getName(), String[].class.getName()});
            server.invoke(storage, "refreshSizeEstimates", new Object[0], new String[0]);
        }
    }

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }
}
