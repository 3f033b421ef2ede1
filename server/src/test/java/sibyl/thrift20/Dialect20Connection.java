package sibyl.thrift20;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import sibyl.auth.AllowAllAuthenticator;
import sibyl.iface.v20.Cassandra;

/** For the socket tests of one connection each: a fresh {@link Dialect20Server} and a client of it per test. */
abstract class Dialect20Connection {
    Dialect20Server server;
    Cassandra.Client client;

    @BeforeEach
    void connect() throws Exception {
        server = new Dialect20Server(false, new AllowAllAuthenticator());
        client = server.client();
    }

    @AfterEach
    void disconnect() throws Exception {
        server.close();
    }
}
