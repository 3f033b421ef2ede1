package sibyl.thrift20;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static sibyl.db.TestSchema.KS;
import static sibyl.db.TestSchema.STD;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.auth.SimpleAuthenticator;
import sibyl.iface.v20.AuthenticationException;
import sibyl.iface.v20.AuthenticationRequest;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.InvalidRequestException;

/** Login in the 0.7+ dialect with SimpleAuthenticator, over a real socket. */
class Dialect20LoginTest {
    private static final ByteBuffer KEY = ByteBuffer.wrap("k".getBytes(StandardCharsets.UTF_8));

    private static Column column() {
        return new Column(ByteBuffer.wrap(new byte[] {1})).setValue(new byte[] {2}).setTimestamp(1);
    }

    private static AuthenticationRequest credentials(String user, String password) {
        return new AuthenticationRequest(Map.of("username", user, "password", password));
    }

    @Test
    void aConnectionLogsInForItsKeyspaceBeforeItsDataCalls(@TempDir Path dir) throws Exception {
        Path passwd = Files.writeString(dir.resolve("passwd.properties"), "alice=secret\n");
        Path access = Files.writeString(dir.resolve("access.properties"), KS + "=alice\n");
        try (Dialect20Server server = new Dialect20Server(false, new SimpleAuthenticator(passwd, access, "PLAIN"))) {
            Cassandra.Client client = server.client();
            client.set_keyspace(KS);
            assertEquals("You have not logged in", assertThrows(InvalidRequestException.class,
                    () -> client.insert(KEY, new ColumnParent(STD), column(), ConsistencyLevel.ONE)).getWhy());
            assertThrows(AuthenticationException.class, () -> client.login(credentials("alice", "wrong")));
            client.login(credentials("alice", "secret"));
            client.insert(KEY, new ColumnParent(STD), column(), ConsistencyLevel.ONE);

            // Logged in, but not allowed the other keyspace: its data calls are refused with the authenticator's text.
            client.set_keyspace(Dialect20Server.REPLICATED);
            assertEquals("User alice could not be authorized to use keyspace " + Dialect20Server.REPLICATED,
                    assertThrows(InvalidRequestException.class, () -> client.insert(KEY, new ColumnParent(STD),
                            column(), ConsistencyLevel.ONE)).getWhy());

            // A login before set_keyspace checks the credentials; the keyspace is checked when it is used.
            Cassandra.Client early = server.client();
            assertThrows(AuthenticationException.class, () -> early.login(credentials("alice", "wrong")));
            early.login(credentials("alice", "secret"));
            early.set_keyspace(Dialect20Server.REPLICATED);
            assertEquals("User alice could not be authorized to use keyspace " + Dialect20Server.REPLICATED,
                    assertThrows(InvalidRequestException.class, () -> early.insert(KEY, new ColumnParent(STD),
                            column(), ConsistencyLevel.ONE)).getWhy());
            early.set_keyspace(KS);
            early.insert(KEY, new ColumnParent(STD), column(), ConsistencyLevel.ONE);

            // Another connection starts logged out.
            Cassandra.Client other = server.client();
            other.set_keyspace(KS);
            assertEquals("You have not logged in", assertThrows(InvalidRequestException.class,
                    () -> other.get_count(KEY, new ColumnParent(STD), new sibyl.iface.v20.SlicePredicate()
                            .setColumn_names(java.util.List.of(ByteBuffer.wrap(new byte[] {1}))),
                            ConsistencyLevel.ONE)).getWhy());
            assertEquals(2, server.factory.authRefusals().badCredentials(), "the wrong passwords only");
            assertEquals(2, server.factory.authRefusals().notLoggedIn());
            assertEquals(2, server.factory.authRefusals().noAccess());
        }
    }
}
