package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.layered.TFramedTransport;
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

/**
 * A node serves 0.6 and 0.7+ clients on its one port (docs/thrift-api-0.7.md §Both dialects on one port): calls alike
 * in both answer in the dialect the connection showed, clients of both dialects read each other's rows, and both
 * under load at once see only their own answers.
 */
@ParameterizedClass
@MethodSource("sibyl.it.TestNode#backends")
class BothDialectsTest {
    private static final String KS = "Keyspace1";
    private static final String CF = "Standard1";

    @RegisterExtension
    static final NodeExtension NODE = NodeExtension.onEachBackend();

    @Parameter
    TestNode.Backend backend;

    /** One connection, and a client of each dialect over it. */
    private static final class Connection implements AutoCloseable {
        final TTransport transport;
        final Cassandra.Client v06;
        final sibyl.iface.v20.Cassandra.Client v07;

        Connection(int port, boolean framed) throws Exception {
            TTransport socket = new TSocket("127.0.0.1", port);
            transport = framed ? new TFramedTransport(socket) : socket;
            transport.open();
            TProtocol protocol = new TBinaryProtocol(transport);
            v06 = new Cassandra.Client(protocol);
            v07 = new sibyl.iface.v20.Cassandra.Client(protocol);
        }

        @Override
        public void close() {
            transport.close();
        }
    }

    @Test
    void callsAlikeInBothAnswerInTheDialectTheConnectionShowed() throws Exception {
        try (Connection c = new Connection(NODE.node().port(), true)) {
            assertEquals("2.2.0", c.v06.describe_version(), "before any call shows a dialect: ThriftDialect (0.6)");
            c.v07.set_keyspace(KS);
            assertEquals("20.1.0", c.v07.describe_version());
            assertTrue(c.v07.describe_keyspaces().stream().anyMatch(ks -> ks.getName().equals(KS)),
                    "0.7's describe_keyspaces: KsDefs");
            c.v06.get_string_property("version");
            assertEquals("2.2.0", c.v06.describe_version());
            assertTrue(c.v06.describe_keyspaces().contains(KS), "0.6's describe_keyspaces: names");
        }
    }

    @Test
    void eachDialectReadsWhatTheOtherWrote() throws Exception {
        try (Connection c = new Connection(NODE.node().port(), false)) {
            c.v07.set_keyspace(KS);
            ByteBuffer key = utf8("both-é-" + backend);
            c.v07.insert(key, new ColumnParent(CF), new Column(utf8("from07")).setValue(utf8("seven")).setTimestamp(7),
                    sibyl.iface.v20.ConsistencyLevel.ONE);
            c.v06.insert(KS, "both-é-" + backend, new ColumnPath(CF).setColumn(utf8("from06")), utf8("six"), 6,
                    ConsistencyLevel.ONE);
            assertArrayEquals(bytes("seven"), c.v06.get(KS, "both-é-" + backend,
                    new ColumnPath(CF).setColumn(utf8("from07")), ConsistencyLevel.ONE).getColumn().getValue());
            ColumnOrSuperColumn six = c.v07.get(key, new sibyl.iface.v20.ColumnPath(CF).setColumn(utf8("from06")),
                    sibyl.iface.v20.ConsistencyLevel.ONE);
            assertArrayEquals(bytes("six"), six.getColumn().getValue());
            assertEquals(6, six.getColumn().getTimestamp());
        }
    }

    @Test
    void aZeroSevenCallNeedsItsOwnKeyspaceWhateverTheZeroSixCallsNamed() throws Exception {
        try (Connection c = new Connection(NODE.node().port(), true)) {
            c.v06.get_count(KS, "k", new org.apache.cassandra.thrift.ColumnParent(CF), ConsistencyLevel.ONE);
            sibyl.iface.v20.InvalidRequestException e = assertThrows(sibyl.iface.v20.InvalidRequestException.class,
                    () -> c.v07.get_count(utf8("k"), new ColumnParent(CF), new sibyl.iface.v20.SlicePredicate()
                            .setColumn_names(List.of()), sibyl.iface.v20.ConsistencyLevel.ONE));
            assertTrue(e.getWhy().contains("keyspace"), e.getWhy());
        }
    }

    /**
     * Connections of both dialects write and read at once, each its own rows (column values name the writer and
     * the round); every read must see the writer's last value, and at the end each dialect reads every row the
     * other wrote.
     */
    @Test
    void bothDialectsUnderLoadSeeOnlyTheirOwnAnswers() throws Exception {
        int writers = 4;
        int rounds = 300;
        ExecutorService pool = Executors.newFixedThreadPool(2 * writers);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int id = w;
                work.add(pool.submit(() -> {
                    try (Connection c = new Connection(NODE.node().port(), id % 2 == 0)) {
                        for (int r = 0; r < rounds; r++) {
                            String key = "load06-" + backend + "-" + id + "-" + (r % 20);
                            c.v06.batch_mutate(KS, Map.of(key, Map.of(CF, List.of(mutation06(value(id, r))))),
                                    ConsistencyLevel.ONE);
                            byte[] read = c.v06.get(KS, key, new ColumnPath(CF).setColumn(utf8("v")),
                                    ConsistencyLevel.ONE).getColumn().getValue();
                            assertArrayEquals(bytes(value(id, r)), read, key);
                        }
                    }
                    return null;
                }));
                work.add(pool.submit(() -> {
                    try (Connection c = new Connection(NODE.node().port(), id % 2 == 1)) {
                        c.v07.set_keyspace(KS);
                        for (int r = 0; r < rounds; r++) {
                            ByteBuffer key = utf8("load07-" + backend + "-" + id + "-" + (r % 20));
                            c.v07.batch_mutate(Map.of(key, Map.of(CF, List.of(new Mutation().setColumn_or_supercolumn(
                                    new ColumnOrSuperColumn().setColumn(new Column(utf8("v"))
                                            .setValue(utf8(value(id, r))).setTimestamp(r + 1)))))),
                                    sibyl.iface.v20.ConsistencyLevel.ONE);
                            List<ColumnOrSuperColumn> read = c.v07.get_slice(key, new ColumnParent(CF),
                                    new sibyl.iface.v20.SlicePredicate().setColumn_names(List.of(utf8("v"))),
                                    sibyl.iface.v20.ConsistencyLevel.ONE);
                            assertEquals(1, read.size());
                            assertArrayEquals(bytes(value(id, r)), read.get(0).getColumn().getValue());
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : work) f.get(5, TimeUnit.MINUTES);
        } finally {
            pool.shutdownNow();
        }
        try (Connection c = new Connection(NODE.node().port(), true)) {
            c.v07.set_keyspace(KS);
            for (int id = 0; id < writers; id++) {
                for (int k = 0; k < 20; k++) {
                    int last = rounds - 20 + k; // the last round that wrote key k
                    ByteBuffer key06 = utf8("load06-" + backend + "-" + id + "-" + k);
                    assertArrayEquals(bytes(value(id, last)), c.v07.get(key06, new sibyl.iface.v20.ColumnPath(CF)
                            .setColumn(utf8("v")), sibyl.iface.v20.ConsistencyLevel.ONE).getColumn().getValue());
                    String key07 = "load07-" + backend + "-" + id + "-" + k;
                    assertArrayEquals(bytes(value(id, last)), c.v06.get(KS, key07, new ColumnPath(CF)
                            .setColumn(utf8("v")), ConsistencyLevel.ONE).getColumn().getValue());
                }
            }
        }
    }

    private static org.apache.cassandra.thrift.Mutation mutation06(String value) {
        int round = Integer.parseInt(value.substring(value.lastIndexOf('r') + 1));
        return new org.apache.cassandra.thrift.Mutation().setColumn_or_supercolumn(
                new org.apache.cassandra.thrift.ColumnOrSuperColumn().setColumn(
                        new org.apache.cassandra.thrift.Column(utf8("v"), utf8(value), round + 1)));
    }

    private static String value(int writer, int round) {
        return "w" + writer + "r" + round;
    }

    private static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(bytes(s));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
