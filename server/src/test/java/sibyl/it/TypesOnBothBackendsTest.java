package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.MarshalTypes;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.Mutation;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;

/**
 * Names of the types of 0.7 to 3.11 that both backends store come back in their type's order on each (in cluster
 * mode, as the CQL type of the same class orders them: docs/configuration.md §Cluster); a comparator cluster mode
 * does not store stops the start, naming the column family.
 */
@ParameterizedClass
@MethodSource("sibyl.it.TestNode#backends")
class TypesOnBothBackendsTest {
    private static final String KS = "Types";
    private static final List<String> TYPES = List.of("IntegerType", "Int32Type", "UUIDType", "TimestampType",
            "BooleanType", "DoubleType", "FloatType", "DecimalType", "InetAddressType");

    @RegisterExtension
    static final NodeExtension NODE = NodeExtension.onEachBackend().edit(ConfEdits.addKeyspace(ConfEdits.keyspace(KS, 1,
            TYPES.stream().map(t -> "<ColumnFamily Name=\"" + t + "\" CompareWith=\"" + t + "\"/>").toArray(String[]::new))));

    @Parameter
    TestNode.Backend backend;

    @Test
    void namesComeBackInTheirTypesOrder() throws Exception {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        try (TTransport transport = new TFramedTransport(new TSocket("127.0.0.1", NODE.node().port()))) {
            transport.open();
            Cassandra.Client client = new Cassandra.Client(new TBinaryProtocol(transport));
            client.set_keyspace(KS);
            for (String type : TYPES) {
                AbstractType order = MarshalTypes.forName(type);
                TreeSet<byte[]> names = new TreeSet<>(order);
                List<Mutation> writes = new ArrayList<>();
                for (int i = 0; i < 40; i++) {
                    byte[] name = randomName(type, random);
                    if (!names.add(name)) continue;
                    writes.add(new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(
                            new Column(ByteBuffer.wrap(name)).setValue(new byte[0]).setTimestamp(1))));
                }
                ByteBuffer key = ByteBuffer.wrap(("k-" + backend).getBytes());
                client.batch_mutate(Map.of(key, Map.of(type, writes)), ConsistencyLevel.ONE);
                List<String> read = new ArrayList<>();
                for (ColumnOrSuperColumn c : client.get_slice(key, new ColumnParent(type), new SlicePredicate()
                        .setSlice_range(new SliceRange(ByteBuffer.allocate(0), ByteBuffer.allocate(0), false, 1000)),
                        ConsistencyLevel.ONE)) {
                    read.add(HexFormat.of().formatHex(c.getColumn().getName()));
                }
                List<String> expected = names.stream().map(HexFormat.of()::formatHex).toList();
                assertEquals(expected, read, "seed " + seed + ", " + type + " on " + backend);
            }
        }
    }

    /** A value of {@code type} (one per equal class: a DecimalType or IntegerType of one number in one form). */
    private static byte[] randomName(String type, Random random) {
        ByteBuffer b;
        switch (type) {
            case "IntegerType" -> {
                return java.math.BigInteger.valueOf(random.nextLong() >> random.nextInt(64)).toByteArray();
            }
            case "Int32Type" -> b = ByteBuffer.allocate(4).putInt(random.nextInt());
            case "UUIDType" -> {
                b = ByteBuffer.allocate(16).putLong(random.nextLong()).putLong(random.nextLong());
                b.put(6, (byte) ((b.get(6) & 0x0f) | (random.nextBoolean() ? 0x10 : 0x40)));
            }
            case "TimestampType", "DoubleType" -> b = ByteBuffer.allocate(8).putLong(random.nextLong());
            case "BooleanType" -> b = ByteBuffer.allocate(1).put((byte) random.nextInt(2));
            case "FloatType" -> b = ByteBuffer.allocate(4).putFloat(random.nextFloat() * 2000 - 1000);
            case "DecimalType" -> {
                java.math.BigDecimal d = java.math.BigDecimal.valueOf(random.nextInt(100000) - 50000, random.nextInt(4));
                byte[] unscaled = d.unscaledValue().toByteArray();
                b = ByteBuffer.allocate(4 + unscaled.length).putInt(d.scale()).put(unscaled);
            }
            case "InetAddressType" -> {
                b = ByteBuffer.allocate(random.nextBoolean() ? 4 : 16);
                random.nextBytes(b.array());
            }
            default -> throw new IllegalArgumentException(type);
        }
        return b.array();
    }

    @Test
    void aComparatorTheClusterDoesNotStoreStopsTheStart(@TempDir Path dir) throws Exception {
        assumeTrue(backend == TestNode.Backend.CLUSTER, "cluster mode only");
        Exception refused = assertThrows(Exception.class, () -> TestNode.start(TestNode.Backend.CLUSTER,
                dir.resolve("dynamic"), ConfEdits.addKeyspace(ConfEdits.keyspace("Composites", 1,
                        "<ColumnFamily Name=\"Events\" CompareWith=\"DynamicCompositeType(a=>UTF8Type)\"/>")),
                null).close());
        assertTrue(String.valueOf(refused.getMessage()).contains("ColumnFamily[@Name='Events']/@CompareWith"),
                refused.toString());
        assertTrue(String.valueOf(refused.getMessage()).contains("no fixed clustering columns"), refused.toString());
        Exception superRefused = assertThrows(Exception.class, () -> TestNode.start(TestNode.Backend.CLUSTER,
                dir.resolve("super"), ConfEdits.addKeyspace(ConfEdits.keyspace("Composites", 1,
                        "<ColumnFamily Name=\"Events\" ColumnType=\"Super\" CompareWith=\"UTF8Type\""
                                + " CompareSubcolumnsWith=\"CompositeType(UTF8Type,LongType)\"/>")), null).close());
        assertTrue(String.valueOf(superRefused.getMessage()).contains(
                "ColumnFamily[@Name='Events']/@CompareSubcolumnsWith"), superRefused.toString());
        assertTrue(String.valueOf(superRefused.getMessage()).contains("in standard column families only"),
                superRefused.toString());
    }
}
