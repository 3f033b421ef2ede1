import java.util.List;
import java.util.Map;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.CfDef;
import org.apache.cassandra.thrift.InvalidRequestException;
import org.apache.cassandra.thrift.KsDef;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TFramedTransport;
import org.apache.thrift.transport.TSocket;

/**
 * Creates a keyspace of replication factor 1 with one standard column family compared as BytesType (bin/stress's
 * Keyspace1/Standard1), and beside it the counter column family Counter1 (bin/stress -o add's), on a Cassandra 3.11
 * node, over its own Thrift interface (system_add_keyspace). Run with the
 * node's class path, which carries the generated classes of 3.11's IDL, by Java's source launcher:
 *
 *   java -cp CLASSPATH bench/cassandra311/CreateKeyspace.java HOST PORT KEYSPACE COLUMN_FAMILY
 *
 * Exit status 0 when created, 1 when the node refused (the reason on stderr), 2 for a bad command line.
 */
public final class CreateKeyspace {
    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: CreateKeyspace HOST PORT KEYSPACE COLUMN_FAMILY");
            System.exit(2);
        }
        String keyspace = args[2];
        CfDef family = new CfDef(keyspace, args[3]).setColumn_type("Standard").setComparator_type("BytesType")
                .setKey_validation_class("BytesType").setDefault_validation_class("BytesType");
        CfDef counters = new CfDef(keyspace, "Counter1").setColumn_type("Standard").setComparator_type("BytesType")
                .setKey_validation_class("BytesType").setDefault_validation_class("CounterColumnType");
        KsDef ks = new KsDef(keyspace, "org.apache.cassandra.locator.SimpleStrategy", List.of(family, counters))
                .setStrategy_options(Map.of("replication_factor", "1"));
        TFramedTransport transport = new TFramedTransport(new TSocket(args[0], Integer.parseInt(args[1]), 60_000));
        transport.open();
        try {
            Cassandra.Client client = new Cassandra.Client(new TBinaryProtocol(transport));
            System.out.println("schema version " + client.system_add_keyspace(ks) + ": " + keyspace + "."
                    + args[3] + " (BytesType, replication factor 1) and " + keyspace + ".Counter1");
        } catch (InvalidRequestException e) {
            System.err.println("CreateKeyspace: " + keyspace + " refused: " + e.getWhy());
            System.exit(1);
        } finally {
            transport.close();
        }
    }
}
