package sibyl.thrift20;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.db.TestSchema.KS;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.CfSplit;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.KsDef;
import sibyl.iface.v20.NotFoundException;
import sibyl.iface.v20.TokenRange;

/** The describe calls and the connection's state calls of the 0.7+ dialect, over a real socket. */
class Dialect20DescribeTest extends Dialect20Connection {

    @Test
    void theNodeDescribesItself() throws Exception {
        assertEquals("20.1.0", client.describe_version());
        assertEquals(Dialect20Server.CLUSTER, client.describe_cluster_name());
        assertEquals("org.apache.cassandra.dht.RandomPartitioner", client.describe_partitioner());
        assertEquals("org.apache.cassandra.locator.SimpleSnitch", client.describe_snitch());
        assertEquals(Map.of(Dialect20Server.TOKEN, Dialect20Server.ENDPOINT), client.describe_token_map());
        Map<String, List<String>> versions = client.describe_schema_versions();
        assertEquals(1, versions.size());
        assertEquals(List.of(Dialect20Server.ENDPOINT), versions.values().iterator().next());
        // A version is a UUID, and the same one while the schema is.
        java.util.UUID.fromString(versions.keySet().iterator().next());
        assertEquals(versions, client.describe_schema_versions());
    }

    @Test
    void theRingIsThisNodesOneRange() throws Exception {
        for (List<TokenRange> ring : List.of(client.describe_ring(KS), client.describe_local_ring(KS))) {
            assertEquals(1, ring.size());
            TokenRange range = ring.get(0);
            assertEquals(Dialect20Server.TOKEN, range.start_token);
            assertEquals(Dialect20Server.TOKEN, range.end_token);
            assertEquals(List.of(Dialect20Server.ENDPOINT), range.endpoints);
            assertEquals(List.of(Dialect20Server.ENDPOINT), range.rpc_endpoints);
            assertEquals(Dialect20Server.ENDPOINT, range.endpoint_details.get(0).host);
            assertEquals("datacenter1", range.endpoint_details.get(0).datacenter);
            assertEquals("rack1", range.endpoint_details.get(0).rack);
        }
        assertEquals("There is no ring for the keyspace: system",
                assertThrows(InvalidRequestException.class, () -> client.describe_ring("system")).getWhy());
        assertEquals("There is no ring for the keyspace: Nope",
                assertThrows(InvalidRequestException.class, () -> client.describe_local_ring("Nope")).getWhy());
    }

    @Test
    void describeKeyspaceGivesTheTestSchemaAsKsDefAndCfDefs() throws Exception {
        KsDef ks = client.describe_keyspace(KS);
        assertEquals(KS, ks.name);
        assertEquals("org.apache.cassandra.locator.SimpleStrategy", ks.strategy_class);
        assertEquals(Map.of("replication_factor", "1"), ks.strategy_options);
        assertTrue(ks.durable_writes);
        List<String> names = new ArrayList<>();
        for (CfDef cf : ks.cf_defs) names.add(cf.name);
        assertEquals(List.of("Standard1", "Standard2", "StandardLong", "Super1"), names);
        CfDef standard2 = ks.cf_defs.get(1);
        assertEquals(KS, standard2.keyspace);
        assertEquals("Standard", standard2.column_type);
        assertEquals("org.apache.cassandra.db.marshal.UTF8Type", standard2.comparator_type);
        assertFalse(standard2.isSetSubcomparator_type());
        assertEquals("org.apache.cassandra.db.marshal.BytesType", standard2.key_validation_class);
        assertEquals("org.apache.cassandra.db.marshal.BytesType", standard2.default_validation_class);
        assertTrue(standard2.isSetId());
        CfDef super1 = ks.cf_defs.get(3);
        assertEquals("Super", super1.column_type);
        assertEquals("org.apache.cassandra.db.marshal.BytesType", super1.subcomparator_type);
        assertTrue(ks.cf_defs.stream().mapToInt(cf -> cf.id).distinct().count() == 4, "ids are distinct");

        List<String> keyspaces = new ArrayList<>();
        for (KsDef k : client.describe_keyspaces()) keyspaces.add(k.name);
        assertTrue(keyspaces.containsAll(List.of(KS, "system")), keyspaces.toString());
        assertEquals("org.apache.cassandra.locator.LocalStrategy", client.describe_keyspace("system").strategy_class);
        assertThrows(NotFoundException.class, () -> client.describe_keyspace("Nope"));
    }

    private static final String NO_KEYSPACE =
            "No keyspace has been specified. USE a keyspace, or explicitly specify keyspace.tablename";

    @Test
    void aKeyspaceIsSetBeforeAnyDataCall() throws Exception {
        ByteBuffer key = ByteBuffer.wrap("k".getBytes(StandardCharsets.UTF_8));
        Column c = new Column(ByteBuffer.wrap(new byte[] {1})).setValue(new byte[0]).setTimestamp(1);
        assertEquals(NO_KEYSPACE, assertThrows(InvalidRequestException.class,
                () -> client.insert(key, new ColumnParent("Standard1"), c, ConsistencyLevel.ONE)).getWhy());
        assertEquals(NO_KEYSPACE, assertThrows(InvalidRequestException.class,
                () -> client.describe_splits("Standard1", "0", "0", 10)).getWhy());
        assertEquals("Keyspace 'Nope' does not exist",
                assertThrows(InvalidRequestException.class, () -> client.set_keyspace("Nope")).getWhy());
        client.set_keyspace(KS);
        client.insert(key, new ColumnParent("Standard1"), c, ConsistencyLevel.ONE);
        // Accepted as 3.11 accepts them.
        client.set_cql_version("3.4.4");
        ByteBuffer session = client.trace_next_query();
        assertEquals(16, session.remaining());
        assertEquals(1, new java.util.UUID(session.getLong(session.position()),
                session.getLong(session.position() + 8)).version());
        // AllowAllAuthenticator: a login has nothing to check.
        client.login(new sibyl.iface.v20.AuthenticationRequest(Map.of("username", "anyone")));
    }

    @Test
    void splitsCoverTheRangeAskedFor() throws Exception {
        client.set_keyspace(KS);
        List<String> splits = client.describe_splits("Standard1", "0", "0", 10);
        assertTrue(splits.size() >= 2, splits.toString());
        assertEquals("0", splits.get(0));
        assertEquals("0", splits.get(splits.size() - 1));
        List<CfSplit> ex = client.describe_splits_ex("Standard1", "0", "0", 10);
        assertEquals(splits.size() - 1, ex.size());
        assertEquals("0", ex.get(0).start_token);
        assertEquals(10, ex.get(0).row_count);
        assertEquals("unconfigured table Nope", assertThrows(InvalidRequestException.class,
                () -> client.describe_splits("Nope", "0", "0", 10)).getWhy());
        assertEquals("keys_per_split must be positive, not 0", assertThrows(InvalidRequestException.class,
                () -> client.describe_splits_ex("Standard1", "0", "0", 0)).getWhy());
    }
}
