package sibyl.hardening;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.cassandra.thrift.AuthenticationRequest;
import org.apache.cassandra.thrift.AuthorizationException;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.InvalidRequestException;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.NotFoundException;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import sibyl.it.ConfEdits;
import sibyl.it.NodeExtension;

/**
 * With SimpleAuthenticator and the shipped passwd.properties and access.properties (jsmith may use Keyspace1 and
 * no other keyspace), every data call of the 0.6 interface refuses a connection that has not logged in, refuses a
 * keyspace the logged-in user may not use, and works on one it may; the describe calls need no login.
 */
class AccessControlTest {
    static final String LOGIN_REQUIRED = "Login is required before any other API calls";

    @RegisterExtension
    static final NodeExtension NODE = NodeExtension.embedded().edit(ConfEdits.simpleAuthenticator());

    /** One data call of the interface, made against a keyspace. */
    @FunctionalInterface
    interface DataCall {
        void call(Cassandra.Client client, String keyspace) throws Exception;
    }


    /** A column family of each keyspace the calls name: requests are validated before access is checked. */
    static String cf(String keyspace) {
        return "Twitter".equals(keyspace) ? "Statuses" : "Standard1";
    }

    /** Every data method of the 0.6 interface, each with a request that is valid in Keyspace1 and Twitter alike. */
    static Stream<Arguments> dataCalls() {
        ConsistencyLevel one = ConsistencyLevel.ONE;
        SlicePredicate all = new SlicePredicate().setSlice_range(
                new SliceRange(ByteBuffer.allocate(0), ByteBuffer.allocate(0), false, 10));
        Column column = new Column(ByteBuffer.wrap(bytes("c")), ByteBuffer.wrap(bytes("v")), 1);
        return Stream.of(
                call("get", (c, ks) -> {
                    try {
                        c.get(ks, "k", path(ks), one);
                    } catch (NotFoundException fine) {
                        // found nothing: the call was allowed
                    }
                }),
                call("get_slice", (c, ks) -> c.get_slice(ks, "k", parent(ks), all, one)),
                call("multiget", (c, ks) -> c.multiget(ks, List.of("k"), path(ks), one)),
                call("multiget_slice", (c, ks) -> c.multiget_slice(ks, List.of("k"), parent(ks), all, one)),
                call("get_count", (c, ks) -> c.get_count(ks, "k", parent(ks), one)),
                call("get_range_slice", (c, ks) -> c.get_range_slice(ks, parent(ks), all, "", "", 10, one)),
                call("get_range_slices", (c, ks) -> c.get_range_slices(ks, parent(ks), all,
                        new KeyRange(10).setStart_key("").setEnd_key(""), one)),
                call("insert", (c, ks) -> c.insert(ks, "k", path(ks), ByteBuffer.wrap(bytes("v")), 1, one)),
                call("batch_insert", (c, ks) -> c.batch_insert(ks, "k",
                        Map.of(cf(ks), List.of(new ColumnOrSuperColumn().setColumn(column))), one)),
                call("remove", (c, ks) -> c.remove(ks, "k", path(ks), 2, one)),
                call("batch_mutate", (c, ks) -> c.batch_mutate(ks, Map.of("k", Map.of(cf(ks),
                        List.of(new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(column))))),
                        one)));
    }

    private static ColumnPath path(String keyspace) {
        return new ColumnPath(cf(keyspace)).setColumn(bytes("c"));
    }

    private static ColumnParent parent(String keyspace) {
        return new ColumnParent(cf(keyspace));
    }

    private static Arguments call(String method, DataCall call) {
        return Arguments.of(method, call);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static void login(Cassandra.Client client, String keyspace, String user, String password) throws Exception {
        client.login(keyspace, new AuthenticationRequest(Map.of("username", user, "password", password)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dataCalls")
    void dataCallsNeedALogin(String method, DataCall call) throws Exception {
        for (boolean framed : new boolean[] {false, true}) {
            Cassandra.Client client = NODE.node().client(framed);
            for (String keyspace : List.of("Keyspace1", "Twitter", "NoSuchKeyspace")) {
                InvalidRequestException e = assertThrows(InvalidRequestException.class,
                        () -> call.call(client, keyspace), method + " on " + keyspace + " before login");
                assertEquals(LOGIN_REQUIRED, e.getWhy());
            }
            // A failed login leaves the connection as it was.
            assertThrows(org.apache.cassandra.thrift.AuthenticationException.class,
                    () -> login(client, "Keyspace1", "jsmith", "wrong"));
            InvalidRequestException e = assertThrows(InvalidRequestException.class,
                    () -> call.call(client, "Keyspace1"), method + " after a failed login");
            assertEquals(LOGIN_REQUIRED, e.getWhy());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dataCalls")
    void dataCallsRefuseAKeyspaceTheUserMayNotUse(String method, DataCall call) throws Exception {
        Cassandra.Client client = NODE.node().client(true);
        login(client, "Keyspace1", "jsmith", "havebadpass");
        InvalidRequestException e = assertThrows(InvalidRequestException.class, () -> call.call(client, "Twitter"),
                method + " on Twitter as jsmith");
        assertEquals("User jsmith could not be authorized to use keyspace Twitter", e.getWhy());
        call.call(client, "Keyspace1"); // and allowed where access is granted
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dataCalls")
    void dataCallsWorkInAKeyspaceTheUserMayUse(String method, DataCall call) throws Exception {
        Cassandra.Client client = NODE.node().client(false);
        login(client, "Keyspace1", "Elvis Presley", "graceland4evar");
        call.call(client, "Keyspace1");
    }

    @Test
    void loginToAKeyspaceTheUserMayNotUseIsRefusedAndGrantsNothing() throws Exception {
        Cassandra.Client client = NODE.node().client(false);
        AuthorizationException e = assertThrows(AuthorizationException.class,
                () -> login(client, "Twitter", "jsmith", "havebadpass"));
        assertEquals("User jsmith could not be authorized to use keyspace Twitter", e.getWhy());
        InvalidRequestException refused = assertThrows(InvalidRequestException.class,
                () -> client.get_count("Twitter", "k", new ColumnParent("Statuses"), ConsistencyLevel.ONE));
        assertEquals(LOGIN_REQUIRED, refused.getWhy(), "a refused login leaves the connection logged out");
    }

    @Test
    void aLoginLastsOnlyAsLongAsItsConnection() throws Exception {
        Cassandra.Client first = NODE.node().client(false);
        login(first, "Keyspace1", "dilbert", "nomoovertime");
        assertEquals(0, first.get_count("Keyspace1", "nobody", new ColumnParent("Standard1"), ConsistencyLevel.ONE));
        Cassandra.Client second = NODE.node().client(false);
        InvalidRequestException e = assertThrows(InvalidRequestException.class,
                () -> second.get_count("Keyspace1", "nobody", new ColumnParent("Standard1"), ConsistencyLevel.ONE));
        assertEquals(LOGIN_REQUIRED, e.getWhy());
    }

    @Test
    void describeCallsNeedNoLogin() throws Exception {
        Cassandra.Client client = NODE.node().client(true);
        assertEquals("2.2.0", client.describe_version());
        assertEquals("Test Cluster", client.describe_cluster_name());
        assertTrue(client.describe_keyspaces().contains("Keyspace1"));
        assertTrue(client.describe_keyspace("Twitter").containsKey("Statuses"));
        assertEquals(1, client.describe_ring("Keyspace1").size());
        assertFalse(client.describe_partitioner().isEmpty());
        assertEquals("Test Cluster", client.get_string_property("cluster name"));
        assertTrue(client.get_string_list_property("keyspaces").contains("Twitter"));
        assertFalse(client.get_string_property("token map").isEmpty());
        assertFalse(client.get_string_property("config file").isEmpty());
        assertEquals("2.2.0", client.get_string_property("version"));
        client.describe_splits("0", "0", 128);
    }
}
