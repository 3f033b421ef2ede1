package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static sibyl.it.Requests.all;
import static sibyl.it.Requests.b;
import static sibyl.it.Requests.column;
import static sibyl.it.Requests.cosc;
import static sibyl.it.Requests.insertion;
import static sibyl.it.Requests.keys;
import static sibyl.it.Requests.parent;
import static sibyl.it.Requests.path;
import static sibyl.it.Requests.why;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.cassandra.thrift.AuthenticationException;
import org.apache.cassandra.thrift.AuthenticationRequest;
import org.apache.cassandra.thrift.AuthorizationException;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.NotFoundException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SimpleAuthenticator end to end (docs/thrift-api.md §Login): data calls need a login on their own
 * connection, describe calls do not; wrong credentials and missing access are refused with
 * 0.6's texts (and Sibyl's typed answers where 0.6 failed internally); PLAIN and MD5 modes.
 */
class AuthenticationTest {
    private static final String KS = "Keyspace1";
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;
    private static final String LOGIN_REQUIRED = "Login is required before any other API calls";

    @RegisterExtension
    static final NodeExtension PLAIN = NodeExtension.embedded().edit(ConfEdits.simpleAuthenticator());
    @RegisterExtension
    static final NodeExtension MD5 = NodeExtension.embedded().edit(ConfEdits.simpleAuthenticator()).passwordMode("MD5");

    @BeforeAll
    static void addUsers() throws Exception {
        // The files are read at each login, so users can be added after start-up.
        append(PLAIN.node().confDir().resolve("passwd.properties"), "outsider=letmein");
        append(PLAIN.node().confDir().resolve("access.properties"), "Twitter=outsider,jsmith");
        Files.writeString(MD5.node().confDir().resolve("passwd.properties"), "jsmith=" + md5Hex("havebadpass") + "\n");
    }

    private static void append(Path file, String line) throws Exception {
        Files.writeString(file, "\n" + line + "\n", StandardOpenOption.APPEND);
    }

    private static String md5Hex(String s) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(s.getBytes(StandardCharsets.UTF_8)));
    }

    private static AuthenticationRequest credentials(String user, String password) {
        return new AuthenticationRequest(Map.of("username", user, "password", password));
    }

    @FunctionalInterface
    interface Call {
        void run(Cassandra.Client c) throws Exception;
    }

    /** Each data call, and what it answers once logged in: null for success, else the refusal's text. */
    static Stream<Arguments> dataCalls() {
        return Stream.of(
                Arguments.of("get", (Call) c -> {
                    try {
                        c.get(KS, "k", path("Standard1", "c"), ONE);
                    } catch (NotFoundException e) {
                        // an answer about the data: the call got past the login check
                    }
                }, null),
                Arguments.of("get_slice", (Call) c -> c.get_slice(KS, "k", parent("Standard1"), all(), ONE), null),
                Arguments.of("multiget", (Call) c -> c.multiget(KS, List.of("k"), path("Standard1", "c"), ONE), null),
                Arguments.of("multiget_slice",
                        (Call) c -> c.multiget_slice(KS, List.of("k"), parent("Standard1"), all(), ONE), null),
                Arguments.of("get_count", (Call) c -> c.get_count(KS, "k", parent("Standard1"), ONE), null),
                Arguments.of("get_range_slice",
                        (Call) c -> c.get_range_slice(KS, parent("Standard1"), all(), "", "", 10, ONE), null),
                Arguments.of("get_range_slices",
                        (Call) c -> c.get_range_slices(KS, parent("Standard1"), all(), keys("", "", 10), ONE), null),
                Arguments.of("insert", (Call) c -> c.insert(KS, "k", path("Standard1", "c"), b("v"), 1, ONE), null),
                Arguments.of("batch_insert", (Call) c -> c.batch_insert(KS, "k",
                        Map.of("Standard1", List.of(cosc(column("c", "v", 1)))), ONE), null),
                Arguments.of("remove", (Call) c -> c.remove(KS, "k", path("Standard1"), 1, ONE), null),
                Arguments.of("batch_mutate", (Call) c -> c.batch_mutate(KS,
                        Map.of("k", Map.of("Standard1", List.of(insertion(column("c", "v", 1))))), ONE), null),
                // the login check comes before every other check
                Arguments.of("get of an unknown keyspace", (Call) c -> c.get("Nope", "", path("Nope"), ONE),
                        "Keyspace Nope does not exist in this schema."),
                Arguments.of("read at ZERO", (Call) c -> c.get_slice(KS, "k", parent("Standard1"), all(),
                        ConsistencyLevel.ZERO), "Consistency level zero may not be applied to read operations"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dataCalls")
    void dataCallsNeedALoginFirst(String name, Call call, String afterLogin) throws Exception {
        Cassandra.Client c = PLAIN.node().client();
        assertEquals(LOGIN_REQUIRED, why(() -> call.run(c)));
        c.login(KS, credentials("jsmith", "havebadpass"));
        if (afterLogin == null) call.run(c);
        else assertEquals(afterLogin, why(() -> call.run(c)));
    }

    @Test
    void describeCallsNeedNoLogin() throws Exception {
        Cassandra.Client c = PLAIN.node().client();
        assertEquals("Test Cluster", c.describe_cluster_name());
        assertEquals("2.2.0", c.describe_version());
        assertEquals(5, c.describe_keyspaces().size());
        assertEquals(5, c.describe_keyspace(KS).size());
        assertEquals(1, c.describe_ring(KS).size());
        assertEquals("org.apache.cassandra.dht.RandomPartitioner", c.describe_partitioner());
        assertEquals("Test Cluster", c.get_string_property("cluster name"));
        assertEquals(5, c.get_string_list_property("keyspaces").size());
        assertEquals(List.of("0", "0"), c.describe_splits("0", "0", 1_000_000));
        assertEquals(LOGIN_REQUIRED, why(() -> c.get_count(KS, "k", parent("Standard1"), ONE)), "still not logged in");
    }

    @Test
    void wrongCredentialsAreAuthenticationErrors() throws Exception {
        Cassandra.Client c = PLAIN.node().client();
        assertEquals("Given password in password mode PLAIN could not be validated for user jsmith",
                assertThrows(AuthenticationException.class, () -> c.login(KS, credentials("jsmith", "nope"))).getWhy());
        assertEquals("Given password in password mode PLAIN could not be validated for user nobody",
                assertThrows(AuthenticationException.class, () -> c.login(KS, credentials("nobody", "x"))).getWhy(),
                "an unknown user (Sibyl: an authentication error, not 0.6's internal error)");
        assertEquals("Authentication request was missing the required key 'username'",
                assertThrows(AuthenticationException.class,
                        () -> c.login(KS, new AuthenticationRequest(Map.of("password", "x")))).getWhy());
        assertEquals("Authentication request was missing the required key 'password'",
                assertThrows(AuthenticationException.class,
                        () -> c.login(KS, new AuthenticationRequest(Map.of("username", "jsmith")))).getWhy());
        assertEquals(LOGIN_REQUIRED, why(() -> c.get_count(KS, "k", parent("Standard1"), ONE)));
    }

    @Test
    void usersWithoutAccessAreAuthorizationErrors() throws Exception {
        Cassandra.Client c = PLAIN.node().client();
        assertEquals("User outsider could not be authorized to use keyspace Keyspace1",
                assertThrows(AuthorizationException.class, () -> c.login(KS, credentials("outsider", "letmein")))
                        .getWhy());
        assertEquals("User jsmith could not be authorized to use keyspace Twissandra",
                assertThrows(AuthorizationException.class,
                        () -> c.login("Twissandra", credentials("jsmith", "havebadpass"))).getWhy(),
                "a keyspace missing from access.properties (Sibyl: not 0.6's internal error)");
        assertEquals(LOGIN_REQUIRED, why(() -> c.get_count(KS, "k", parent("Standard1"), ONE)));

        c.login("Twitter", credentials("outsider", "letmein"));
        c.insert("Twitter", "au-outsider", path("Users", "name"), b("o"), 1, ONE);
        assertEquals(1, c.get_count("Twitter", "au-outsider", parent("Users"), ONE));
    }

    @Test
    void aUserNameWithASpace() throws Exception {
        Cassandra.Client c = PLAIN.node().client(true);
        c.login(KS, credentials("Elvis Presley", "graceland4evar"));
        c.insert(KS, "au-elvis", path("Standard1", "c"), b("v"), 1, ONE);
        assertEquals(1, c.get_count(KS, "au-elvis", parent("Standard1"), ONE));
    }

    @Test
    void loginBelongsToOneConnectionAndEndsWithIt() throws Exception {
        Cassandra.Client first = PLAIN.node().client();
        Cassandra.Client other = PLAIN.node().client(true);
        first.login(KS, credentials("dilbert", "nomoovertime"));
        first.insert(KS, "au-conn", path("Standard1", "c"), b("v"), 1, ONE);
        assertEquals(LOGIN_REQUIRED, why(() -> other.get_count(KS, "au-conn", parent("Standard1"), ONE)));
        assertEquals(1, first.get_count(KS, "au-conn", parent("Standard1"), ONE));

        first.getInputProtocol().getTransport().close();
        // Connections opened after the close, possibly served by the same threads, start logged out.
        for (int i = 0; i < 20; i++) {
            Cassandra.Client next = PLAIN.node().client(i % 2 == 0);
            assertEquals(LOGIN_REQUIRED, why(() -> next.get_count(KS, "au-conn", parent("Standard1"), ONE)));
            next.getInputProtocol().getTransport().close();
        }
    }

    @Test
    void aFailedLoginKeepsAnEarlierOne() throws Exception {
        Cassandra.Client c = PLAIN.node().client();
        c.login(KS, credentials("jsmith", "havebadpass"));
        assertThrows(AuthenticationException.class, () -> c.login(KS, credentials("jsmith", "wrong")));
        assertEquals(0, c.get_count(KS, "au-none", parent("Standard1"), ONE));
    }

    @Test
    void md5ModeComparesTheDigestOfTheGivenPassword() throws Exception {
        Cassandra.Client c = MD5.node().client();
        assertEquals("Given password in password mode MD5 could not be validated for user jsmith",
                assertThrows(AuthenticationException.class,
                        () -> c.login(KS, credentials("jsmith", md5Hex("havebadpass")))).getWhy(),
                "the stored digest is not itself the password");
        assertEquals(LOGIN_REQUIRED, why(() -> c.get_count(KS, "k", parent("Standard1"), ONE)));
        c.login(KS, credentials("jsmith", "havebadpass"));
        assertEquals(0, c.get_count(KS, "au-md5", parent("Standard1"), ONE));
        assertEquals(List.of(), c.get_range_slices(KS, parent("Standard2"), all(), keys("", "", 10), ONE));
    }
}
