package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.NotFoundException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.KeySlice;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;

/**
 * A 0.7+ client's truncate empties the table on both backends (over the cluster, a CQL TRUNCATE), leaves the
 * keyspace's other tables alone, and a 0.6 client on the same node sees the table empty too.
 */
@ParameterizedClass
@MethodSource("sibyl.it.TestNode#backends")
class TruncateOnBothBackendsTest {
    private static final String KS = "Keyspace1";

    @RegisterExtension
    static final NodeExtension NODE = NodeExtension.onEachBackend();

    @Parameter
    TestNode.Backend backend;

    @Test
    void truncateEmptiesOneTableForBothDialects() throws Exception {
        TTransport transport = new TFramedTransport(new TSocket("127.0.0.1", NODE.node().port(), 10_000));
        transport.open();
        try {
            TProtocol protocol = new TBinaryProtocol(transport);
            sibyl.iface.v20.Cassandra.Client v07 = new sibyl.iface.v20.Cassandra.Client(protocol);
            Cassandra.Client v06 = new Cassandra.Client(protocol);
            v07.set_keyspace(KS);
            for (int i = 0; i < 10; i++) insert(v07, "Standard1", "k" + i);
            insert(v07, "Standard2", "kept");
            v07.truncate("Standard1");
            assertEquals(List.of(), keys(v07, "Standard1"));
            assertEquals(List.of("kept"), keys(v07, "Standard2"));
            assertThrows(NotFoundException.class, () -> v06.get(KS, "k1",
                    new org.apache.cassandra.thrift.ColumnPath("Standard1").setColumn("c".getBytes(StandardCharsets.UTF_8)),
                    ConsistencyLevel.ONE));
            assertEquals(0, v06.get_count(KS, "k2", new ColumnParent("Standard1"), ConsistencyLevel.ONE));
            insert(v07, "Standard1", "after");
            assertEquals(List.of("after"), keys(v07, "Standard1"));
        } finally {
            transport.close();
        }
    }

    private static void insert(sibyl.iface.v20.Cassandra.Client c, String cf, String key) throws Exception {
        c.insert(b(key), new sibyl.iface.v20.ColumnParent(cf), new Column(b("c")).setValue(b("v")).setTimestamp(1),
                sibyl.iface.v20.ConsistencyLevel.ONE);
    }

    private static List<String> keys(sibyl.iface.v20.Cassandra.Client c, String cf) throws Exception {
        List<String> keys = new ArrayList<>();
        for (KeySlice s : c.get_range_slices(new sibyl.iface.v20.ColumnParent(cf), new SlicePredicate()
                        .setSlice_range(new SliceRange(b(""), b(""), false, 10)),
                new KeyRange(100).setStart_key(new byte[0]).setEnd_key(new byte[0]),
                sibyl.iface.v20.ConsistencyLevel.ONE)) {
            if (!s.getColumns().isEmpty()) keys.add(new String(s.getKey(), StandardCharsets.UTF_8));
        }
        return keys;
    }

    private static ByteBuffer b(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }
}
