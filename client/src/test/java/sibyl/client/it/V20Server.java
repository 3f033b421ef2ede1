package sibyl.client.it;

import org.apache.thrift.TException;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.InvalidRequestException;

/**
 * One of the two servers of a differential run as its calls see it: a framed 0.7+ connection to its Thrift port on
 * which {@code set_keyspace} chose the keyspace of the run, opened anew when the server closed it.
 */
final class V20Server implements AutoCloseable {
    private final String name;
    private final int port;
    private final String keyspace;
    private Cassandra.Client client;

    /**
     * Connects to {@code port} of 127.0.0.1; the run's first call sets {@code keyspace} on it (and is compared like
     * any other).
     */
    V20Server(String name, int port, String keyspace) throws TException {
        this.name = name;
        this.port = port;
        this.keyspace = keyspace;
        this.client = Cassandra311Peer.framedClient(port);
    }

    String name() {
        return name;
    }

    /** The run's keyspace on this server. */
    String keyspace() {
        return keyspace;
    }

    /** The connection with the run's keyspace set. */
    Cassandra.Client client() {
        return client;
    }

    /** A new connection on which no keyspace is set; the caller closes it with {@link Cassandra311Peer#close}. */
    Cassandra.Client fresh() throws TException {
        return Cassandra311Peer.framedClient(port);
    }

    /**
     * Replaces the connection by a new one with the run's keyspace set; a refusal of that is left for the calls that
     * follow to show.
     */
    void reconnect() throws TException {
        Cassandra311Peer.close(client);
        client = Cassandra311Peer.framedClient(port);
        try {
            client.set_keyspace(keyspace);
        } catch (InvalidRequestException refused) {
            // the first call of the run compared set_keyspace already; what the server does without it is compared next
        }
    }

    @Override
    public void close() {
        Cassandra311Peer.close(client);
    }
}
