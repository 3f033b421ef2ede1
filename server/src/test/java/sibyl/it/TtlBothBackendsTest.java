package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.Mutation;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;
import sibyl.iface.v20.SuperColumn;

/**
 * Column ttls on both backends (docs/semantics.md §Expiring columns): a 0.7+ client's ttl comes back with the
 * column (on a cluster, as the time left: docs/differences.md §The 0.7+ dialect), a 0.6 client reads the column
 * while it lives, and once it has expired neither dialect sees it.
 */
@ParameterizedClass
@MethodSource("sibyl.it.TestNode#backends")
class TtlBothBackendsTest {
    private static final String KS = "Keyspace1";
    private static final String CF = "Standard1";
    private static final String SUPER = "Super1";
    private static final sibyl.iface.v20.ConsistencyLevel ONE = sibyl.iface.v20.ConsistencyLevel.ONE;
    /** Long enough that nothing expires while the test looks at it, however slow the machine. */
    private static final int HOUR = 3600;

    @RegisterExtension
    static final NodeExtension NODE = NodeExtension.onEachBackend();

    @Parameter
    TestNode.Backend backend;

    @Test
    void aTtlComesBackWithItsColumnAndA06ClientReadsTheColumn() throws Exception {
        String key = "ttl-" + backend;
        try (Clients c = new Clients(NODE.node().port())) {
            c.v07.insert(utf8(key), new ColumnParent(CF), column("a", HOUR), ONE);
            c.v07.batch_mutate(Map.of(utf8(key), Map.of(
                    CF, List.of(write(column("b", 2 * HOUR)), write(column("c", 0))),
                    SUPER, List.of(new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setSuper_column(
                            new SuperColumn(utf8("sc"), List.of(column("s", HOUR)))))))), ONE);
            List<ColumnOrSuperColumn> row = c.v07.get_slice(utf8(key), new ColumnParent(CF), all(), ONE);
            assertEquals(3, row.size());
            assertTtl(HOUR, row.get(0).getColumn());
            assertTtl(2 * HOUR, row.get(1).getColumn());
            assertFalse(row.get(2).getColumn().isSetTtl(), "a ttl of 0 is none");
            assertTtl(HOUR, c.v07.get(utf8(key), new sibyl.iface.v20.ColumnPath(SUPER).setSuper_column(utf8("sc"))
                    .setColumn(utf8("s")), ONE).getColumn());
            assertArrayEquals(bytes("v"), c.v06.get(KS, key, new ColumnPath(CF).setColumn(utf8("a")), ConsistencyLevel.ONE)
                    .getColumn().getValue());
            assertEquals(3, c.v06.get_count(KS, key, new org.apache.cassandra.thrift.ColumnParent(CF), ConsistencyLevel.ONE));
        }
    }

    @Test
    void anExpiredColumnIsGoneForClientsOfBothDialects() throws Exception {
        String key = "expiring-" + backend;
        try (Clients c = new Clients(NODE.node().port())) {
            c.v07.batch_mutate(Map.of(utf8(key), Map.of(CF, List.of(write(column("short", 1)), write(column("long", HOUR))))),
                    ONE);
            // The node's clock decides (the cluster's, on that backend): wait for it, with a generous limit.
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (c.v07.get_count(utf8(key), new ColumnParent(CF), all(), ONE) > 1) {
                assertTrue(System.nanoTime() < deadline, "a column with a ttl of 1 s still there after 20 s");
                Thread.sleep(100);
            }
            List<ColumnOrSuperColumn> row = c.v07.get_slice(utf8(key), new ColumnParent(CF), all(), ONE);
            assertEquals(1, row.size());
            assertArrayEquals(bytes("long"), row.get(0).getColumn().getName());
            List<org.apache.cassandra.thrift.ColumnOrSuperColumn> old = c.v06.get_slice(KS, key,
                    new org.apache.cassandra.thrift.ColumnParent(CF), new org.apache.cassandra.thrift.SlicePredicate()
                            .setSlice_range(new org.apache.cassandra.thrift.SliceRange(utf8(""), utf8(""), false, 10)),
                    ConsistencyLevel.ONE);
            assertEquals(1, old.size());
            assertArrayEquals(bytes("long"), old.get(0).getColumn().getName());
            assertEquals(1, c.v06.get_count(KS, key, new org.apache.cassandra.thrift.ColumnParent(CF), ConsistencyLevel.ONE));
        }
    }

    /**
     * The ttl written, on the embedded engine; on a cluster, CQL tells the time left, which is at most that and, this
     * soon after the write, well above half of it.
     */
    private void assertTtl(int written, Column c) {
        assertTrue(c.isSetTtl(), "ttl set");
        if (backend == TestNode.Backend.EMBEDDED) assertEquals(written, c.getTtl());
        else assertTrue(c.getTtl() <= written && c.getTtl() > written / 2, c.getTtl() + " of " + written);
    }

    /** One unframed connection, and a client of each dialect over it (the 0.7+ one with Keyspace1 set). */
    private static final class Clients implements AutoCloseable {
        final TTransport transport;
        final Cassandra.Client v06;
        final sibyl.iface.v20.Cassandra.Client v07;

        Clients(int port) throws Exception {
            transport = new TSocket("127.0.0.1", port);
            transport.open();
            TBinaryProtocol protocol = new TBinaryProtocol(transport);
            v06 = new Cassandra.Client(protocol);
            v07 = new sibyl.iface.v20.Cassandra.Client(protocol);
            v07.set_keyspace(KS);
        }

        @Override
        public void close() {
            transport.close();
        }
    }

    private static Column column(String name, int ttl) {
        Column c = new Column(utf8(name)).setValue(utf8("v")).setTimestamp(System.currentTimeMillis() * 1000);
        return ttl == 0 ? c.setTtl(0) : c.setTtl(ttl);
    }

    private static Mutation write(Column c) {
        return new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(c));
    }

    private static SlicePredicate all() {
        return new SlicePredicate().setSlice_range(new SliceRange(utf8(""), utf8(""), false, 100));
    }

    private static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(bytes(s));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
