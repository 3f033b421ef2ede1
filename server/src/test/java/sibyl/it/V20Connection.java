package sibyl.it;

import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import sibyl.iface.v20.Cassandra;

/** One unframed 0.7+ connection to 127.0.0.1 with a keyspace set, closed with the connection. */
final class V20Connection implements AutoCloseable {
    private final TTransport transport;
    final Cassandra.Client client;

    V20Connection(int port, String keyspace) throws TException {
        transport = new TSocket("127.0.0.1", port);
        transport.open();
        client = new Cassandra.Client(new TBinaryProtocol(transport));
        client.set_keyspace(keyspace);
    }

    @Override
    public void close() {
        transport.close();
    }
}
