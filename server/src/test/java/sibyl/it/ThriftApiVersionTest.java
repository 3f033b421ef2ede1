package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.cassandra.thrift.Cassandra;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * ThriftApiVersion sets what describe_version answers 0.7+ clients, for one that wants the API of Cassandra 0.7 to
 * 2.2 (docs/configuration.md); 0.6 clients are still told 0.6's version.
 */
class ThriftApiVersionTest {
    @RegisterExtension
    static final NodeExtension NODE = NodeExtension.embedded()
            .edit(xml -> xml.replace("</Storage>", "  <ThriftApiVersion>19.36.2</ThriftApiVersion>\n</Storage>"));

    @Test
    void describeVersionAnswersTheSetVersionInThe07DialectOnly() throws Exception {
        TTransport transport = new TFramedTransport(new TSocket("127.0.0.1", NODE.node().port()));
        transport.open();
        try {
            TBinaryProtocol protocol = new TBinaryProtocol(transport);
            sibyl.iface.v20.Cassandra.Client v07 = new sibyl.iface.v20.Cassandra.Client(protocol);
            v07.set_keyspace("Keyspace1");
            assertEquals("19.36.2", v07.describe_version());
        } finally {
            transport.close();
        }
        transport = new TFramedTransport(new TSocket("127.0.0.1", NODE.node().port()));
        transport.open();
        try {
            assertEquals("2.2.0", new Cassandra.Client(new TBinaryProtocol(transport)).describe_version());
        } finally {
            transport.close();
        }
    }
}
