package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.cassandra.thrift.AuthenticationRequest;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.InvalidRequestException;
import org.apache.cassandra.thrift.NotFoundException;
import org.apache.cassandra.thrift.TokenRange;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every describe call of docs/thrift-api.md §Describe, over framed and unframed connections. */
class DescribeCallsTest {
    @RegisterExtension
    static final NodeExtension NODE = NodeExtension.embedded();

    @ParameterizedTest(name = "framed={0}")
    @ValueSource(booleans = {false, true})
    void keyspacesIncludeSystem(boolean framed) throws Exception {
        Cassandra.Client c = NODE.node().client(framed);
        assertEquals(Set.of("Keyspace1", "Twitter", "Twissandra", "BloggyAppy", "system"), c.describe_keyspaces());
        assertEquals(List.of("Keyspace1", "Twitter", "Twissandra", "BloggyAppy", "system"),
                c.get_string_list_property("keyspaces"));
        assertEquals(List.of(), c.get_string_list_property("anything else"));
    }

    @ParameterizedTest(name = "framed={0}")
    @ValueSource(booleans = {false, true})
    void versionClusterAndPartitioner(boolean framed) throws Exception {
        Cassandra.Client c = NODE.node().client(framed);
        assertEquals("2.2.0", c.describe_version());
        assertEquals("Test Cluster", c.describe_cluster_name());
        assertEquals("org.apache.cassandra.dht.RandomPartitioner", c.describe_partitioner());
        assertEquals("Test Cluster", c.get_string_property("cluster name"));
        assertEquals("2.2.0", c.get_string_property("version"));
        assertEquals("?", c.get_string_property("no such property"));
    }

    @ParameterizedTest(name = "framed={0}")
    @ValueSource(booleans = {false, true})
    void describeKeyspaceListsEachColumnFamily(boolean framed) throws Exception {
        Cassandra.Client c = NODE.node().client(framed);
        Map<String, Map<String, String>> ks = c.describe_keyspace("Keyspace1");
        assertEquals(Set.of("Standard1", "Standard2", "StandardByUUID1", "Super1", "Super2"), ks.keySet());
        Map<String, String> standard2 = ks.get("Standard2");
        assertEquals("Standard", standard2.get("Type"));
        assertEquals("org.apache.cassandra.db.marshal.UTF8Type", standard2.get("CompareWith"));
        assertFalse(standard2.containsKey("CompareSubcolumnsWith"));
        assertEquals("Keyspace1.Standard2\nColumn Family Type: Standard\n"
                + "Columns Sorted By: org.apache.cassandra.db.marshal.UTF8Type\n", standard2.get("Desc"));
        assertEquals(Set.of("Type", "CompareWith", "Desc"), standard2.keySet());

        Map<String, String> super1 = ks.get("Super1");
        assertEquals("Super", super1.get("Type"));
        assertEquals("org.apache.cassandra.db.marshal.BytesType", super1.get("CompareSubcolumnsWith"));

        Map<String, String> statusRel = c.describe_keyspace("Twitter").get("StatusRelationships");
        assertEquals("org.apache.cassandra.db.marshal.UTF8Type", statusRel.get("CompareWith"));
        assertEquals("org.apache.cassandra.db.marshal.TimeUUIDType", statusRel.get("CompareSubcolumnsWith"));
        assertEquals("org.apache.cassandra.db.marshal.LongType",
                c.describe_keyspace("Twissandra").get("Timeline").get("CompareWith"));
        // bin/cli reads this to write the Twitter tutorial's column names as text.
        assertEquals("org.apache.cassandra.db.marshal.UTF8Type",
                c.describe_keyspace("Twitter").get("Users").get("CompareWith"));
    }

    @ParameterizedTest(name = "framed={0}")
    @ValueSource(booleans = {false, true})
    void describeSystemKeyspace(boolean framed) throws Exception {
        Map<String, Map<String, String>> system = NODE.node().client(framed).describe_keyspace("system");
        assertEquals(Set.of("LocationInfo", "HintsColumnFamily"), system.keySet());
        assertEquals("persistent metadata for the local node", system.get("LocationInfo").get("Desc"));
        assertEquals("Super", system.get("HintsColumnFamily").get("Type"));
        assertEquals("hinted handoff data", system.get("HintsColumnFamily").get("Desc"));
    }

    @ParameterizedTest(name = "framed={0}")
    @ValueSource(booleans = {false, true})
    void unknownKeyspaceIsNotFound(boolean framed) throws Exception {
        Cassandra.Client c = NODE.node().client(framed);
        assertThrows(NotFoundException.class, () -> c.describe_keyspace("Nope"));
        assertEquals("2.2.0", c.describe_version(), "the connection keeps working");
    }

    @ParameterizedTest(name = "framed={0}")
    @ValueSource(booleans = {false, true})
    void ringHasOneRangeOnThisNode(boolean framed) throws Exception {
        Cassandra.Client c = NODE.node().client(framed);
        List<TokenRange> ring = c.describe_ring("Keyspace1");
        assertEquals(1, ring.size());
        TokenRange r = ring.get(0);
        assertEquals(r.getStart_token(), r.getEnd_token());
        BigInteger token = new BigInteger(r.getStart_token());
        assertTrue(token.signum() >= 0 && token.bitLength() <= 127, "RandomPartitioner token range: " + token);
        assertEquals(List.of("127.0.0.1"), r.getEndpoints());
        assertEquals("{\"" + r.getStart_token() + "\":\"127.0.0.1\"}", c.get_string_property("token map"));

        assertEquals("There is no ring for the keyspace: system",
                assertThrows(InvalidRequestException.class, () -> c.describe_ring("system")).getWhy());
        assertEquals("There is no ring for the keyspace: Nope",
                assertThrows(InvalidRequestException.class, () -> c.describe_ring("Nope")).getWhy());
    }

    @ParameterizedTest(name = "framed={0}")
    @ValueSource(booleans = {false, true})
    void configFilePropertyIsTheConfiguration(boolean framed) throws Exception {
        String text = NODE.node().client(framed).get_string_property("config file");
        assertTrue(text.contains("<ClusterName>Test Cluster</ClusterName>"), text);
    }

    @ParameterizedTest(name = "framed={0}")
    @ValueSource(booleans = {false, true})
    void loginAlwaysSucceedsUnderAllowAll(boolean framed) throws Exception {
        Cassandra.Client c = NODE.node().client(framed);
        c.login("Keyspace1", new AuthenticationRequest(Map.of("username", "anyone", "password", "x")));
        c.login("NoSuchKeyspace", new AuthenticationRequest(Map.of()));
    }
}
