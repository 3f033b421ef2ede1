package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;

/**
 * A real node keeps a column's ttl through the commit log, a flush and a compaction, each followed by a restart
 * (docs/semantics.md §Expiring columns): a 0.7+ client reads the same ttl back every time.
 */
class TtlRestartTest {
    private static final String KS = "Keyspace1";
    private static final String STORAGE = "org.apache.cassandra.service:type=StorageService";

    @TempDir
    Path dir;

    @Test
    void aTtlSurvivesReplayFlushAndCompactionAcrossRestarts() throws Exception {
        try (TestNode node = TestNode.start(dir)) {
            Cassandra.Client c = client(node);
            c.insert(utf8("k"), new ColumnParent("Standard1"), column("a", 3600), ConsistencyLevel.ONE);
            c.insert(utf8("k"), new ColumnParent("Standard1"), column("b", 0), ConsistencyLevel.ONE);
            assertEquals(List.of(3600, -1), ttls(c));
        }
        try (TestNode node = TestNode.start(dir)) { // from the commit log
            assertEquals(List.of(3600, -1), ttls(client(node)));
            node.invoke(STORAGE, "forceTableFlush", KS, new String[0]);
        }
        try (TestNode node = TestNode.start(dir)) { // from an SSTable
            Cassandra.Client c = client(node);
            assertEquals(List.of(3600, -1), ttls(c));
            c.insert(utf8("k"), new ColumnParent("Standard1"), column("c", 7200), ConsistencyLevel.ONE);
            node.invoke(STORAGE, "forceTableFlush", KS, new String[0]);
            node.invoke(STORAGE, "forceTableCompaction", KS);
            assertEquals(List.of(3600, -1, 7200), ttls(c));
        }
        try (TestNode node = TestNode.start(dir)) { // from the compacted SSTable
            assertEquals(List.of(3600, -1, 7200), ttls(client(node)));
        }
    }

    private static Cassandra.Client client(TestNode node) throws Exception {
        TTransport transport = new TFramedTransport(new TSocket("127.0.0.1", node.port()));
        transport.open();
        Cassandra.Client c = new Cassandra.Client(new TBinaryProtocol(transport));
        c.set_keyspace(KS);
        return c;
    }

    /** The ttl of each column of row k, -1 where none is set. */
    private static List<Integer> ttls(Cassandra.Client c) throws Exception {
        List<Integer> ttls = new ArrayList<>();
        for (ColumnOrSuperColumn cosc : c.get_slice(utf8("k"), new ColumnParent("Standard1"),
                new SlicePredicate().setSlice_range(new SliceRange(utf8(""), utf8(""), false, 10)), ConsistencyLevel.ONE)) {
            ttls.add(cosc.getColumn().isSetTtl() ? cosc.getColumn().getTtl() : -1);
        }
        return ttls;
    }

    private static Column column(String name, int ttl) {
        return new Column(utf8(name)).setValue(utf8("v")).setTimestamp(1).setTtl(ttl);
    }

    private static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }
}
