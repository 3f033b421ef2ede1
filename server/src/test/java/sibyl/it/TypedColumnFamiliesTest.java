package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import sibyl.db.marshal.Names;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.Mutation;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;

/**
 * Column families of the types of 0.7 to 3.11 defined in storage-conf.xml (docs/configuration.md §Column families),
 * through the port as clients see them: describe_keyspace's definitions, composite slices with end-of-component
 * bounds, and writes of the 0.7+ dialect checked against the validation classes in 3.11's words (TypesAgainst311IT
 * holds those to a real 3.11), while the 0.6 dialect keeps 0.6's rules and checks no value.
 */
class TypedColumnFamiliesTest {
    private static final String KS = "Typed";
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;

    @RegisterExtension
    static final NodeExtension NODE = NodeExtension.embedded().edit(ConfEdits.addKeyspace(ConfEdits.keyspace(KS, 1,
            "<ColumnFamily Name=\"Events\" CompareWith=\" CompositeType( UTF8Type , ReversedType(LongType) ) \"/>",
            "<ColumnFamily Name=\"Users\" CompareWith=\"UTF8Type\" KeyValidationClass=\"LongType\""
                    + " DefaultValidationClass=\"UTF8Type\"><Column Name=\"age\" ValidationClass=\"Int32Type\"/></ColumnFamily>",
            "<ColumnFamily Name=\"Indexed\" CompareWith=\"UTF8Type\"><Column Name=\"state\" ValidationClass=\"UTF8Type\""
                    + " IndexType=\"KEYS\"/><Column Name=\"city\" ValidationClass=\"UTF8Type\" IndexType=\"KEYS\""
                    + " IndexName=\"by_city\"/></ColumnFamily>")));

    private TTransport transport;
    private Cassandra.Client client;

    @BeforeEach
    void connect() throws Exception {
        transport = new TFramedTransport(new TSocket("127.0.0.1", NODE.node().port()));
        transport.open();
        client = new Cassandra.Client(new TBinaryProtocol(transport));
        client.set_keyspace(KS);
    }

    @AfterEach
    void disconnect() {
        transport.close();
    }

    @Test
    void describeKeyspaceGivesTheTypesIn311sCanonicalForm() throws Exception {
        Map<String, CfDef> defs = new java.util.HashMap<>();
        for (CfDef d : client.describe_keyspace(KS).getCf_defs()) defs.put(d.getName(), d);
        String p = "org.apache.cassandra.db.marshal.";
        assertEquals(p + "CompositeType(" + p + "UTF8Type," + p + "ReversedType(" + p + "LongType))",
                defs.get("Events").getComparator_type());
        assertEquals(p + "BytesType", defs.get("Events").getKey_validation_class());
        CfDef users = defs.get("Users");
        assertEquals(p + "LongType", users.getKey_validation_class());
        assertEquals(p + "UTF8Type", users.getDefault_validation_class());
        assertEquals(1, users.getColumn_metadataSize());
        assertEquals("age", StandardCharsets.UTF_8.decode(users.getColumn_metadata().get(0).name).toString());
        assertEquals(p + "Int32Type", users.getColumn_metadata().get(0).getValidation_class());
    }

    /** docs/configuration.md §Column families: IndexType and IndexName of a Column. */
    @Test
    void aColumnIndexedInTheConfigurationIsDescribedAndQueried() throws Exception {
        CfDef indexed = client.describe_keyspace(KS).getCf_defs().stream().filter(d -> d.getName().equals("Indexed"))
                .findFirst().orElseThrow();
        Map<String, String> names = new java.util.TreeMap<>();
        for (sibyl.iface.v20.ColumnDef c : indexed.getColumn_metadata()) {
            names.put(StandardCharsets.UTF_8.decode(c.name).toString(), c.getIndex_type() + " " + c.getIndex_name());
        }
        assertEquals(Map.of("state", "KEYS Indexed_state_idx", "city", "KEYS by_city"), names);
        ColumnParent parent = new ColumnParent("Indexed");
        for (int i = 0; i < 6; i++) {
            client.insert(utf8("u" + i), parent, new Column(utf8("city")).setValue(utf8(i % 2 == 0 ? "Oslo" : "Lima"))
                    .setTimestamp(1), ConsistencyLevel.ONE);
        }
        java.util.List<String> inOslo = new java.util.ArrayList<>();
        for (sibyl.iface.v20.KeySlice row : client.get_indexed_slices(parent, new sibyl.iface.v20.IndexClause(java.util.List.of(
                new sibyl.iface.v20.IndexExpression(utf8("city"), sibyl.iface.v20.IndexOperator.EQ, utf8("Oslo"))), utf8(""), 10),
                new SlicePredicate().setSlice_range(new SliceRange(utf8(""), utf8(""), false, 10)), ConsistencyLevel.ONE)) {
            inOslo.add(StandardCharsets.UTF_8.decode(row.key).toString());
        }
        inOslo.sort(null);
        assertEquals(java.util.List.of("u0", "u2", "u4"), inOslo);
    }

    @Test
    void aSliceBetweenCompositeBoundsTakesEverythingUnderAPrefix() throws Exception {
        ByteBuffer key = utf8("timeline");
        List<Mutation> writes = new ArrayList<>();
        for (String who : List.of("ann", "bob", "cy")) {
            for (long at : List.of(5L, 20L, 10L)) {
                writes.add(new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(
                        new Column(ByteBuffer.wrap(name(0, who, at))).setValue(utf8(who + at)).setTimestamp(1))));
            }
        }
        client.batch_mutate(Map.of(key, Map.of("Events", writes)), ONE);
        // Everything under "bob": from ("bob") with end-of-component -1 to ("bob") with 1; newest first (ReversedType).
        assertEquals(List.of("bob20", "bob10", "bob5"), values(client.get_slice(key, new ColumnParent("Events"),
                range(name(-1, "bob", null), name(1, "bob", null), false, 100), ONE)));
        assertEquals(List.of("bob5", "bob10", "bob20"), values(client.get_slice(key, new ColumnParent("Events"),
                range(name(1, "bob", null), name(-1, "bob", null), true, 100), ONE)));
        // From ("bob", 10) exclusive (end-of-component 1) to the end of "cy", two of them.
        assertEquals(List.of("bob5", "cy20"), values(client.get_slice(key, new ColumnParent("Events"),
                range(name(1, "bob", 10L), name(1, "cy", null), false, 2), ONE)));
    }

    @Test
    void theZeroSevenDialectChecksKeysAndValuesIn311sWords() throws Exception {
        ByteBuffer goodKey = ByteBuffer.allocate(8).putLong(0, 42);
        assertEquals("Expected 8 or 0 byte long (3)", refused(() -> client.insert(utf8("abc"), new ColumnParent("Users"),
                column("name", new byte[] {'x'}), ONE)));
        assertEquals("(String didn't validate.) [Typed][Users][name] failed validation", refused(() -> client.insert(
                goodKey, new ColumnParent("Users"), column("name", new byte[] {(byte) 0xff}), ONE)));
        assertEquals("(Expected 4 or 0 byte int (2)) [Typed][Users][age] failed validation", refused(() ->
                client.batch_mutate(Map.of(goodKey, Map.of("Users", List.of(new Mutation().setColumn_or_supercolumn(
                        new ColumnOrSuperColumn().setColumn(column("age", new byte[2])))))), ONE)));
        assertEquals("Expected 8 or 0 byte long (3)", refused(() -> client.batch_mutate(Map.of(utf8("abc"),
                Map.of("Users", List.of(new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn()
                        .setColumn(column("age", new byte[4])))))), ONE)));
        client.insert(goodKey, new ColumnParent("Users"), column("age", new byte[] {0, 0, 0, 30}), ONE);
        client.insert(goodKey, new ColumnParent("Users"), column("name", utf8Bytes("Ann")), ONE);
        assertEquals(2, client.get_count(goodKey, new ColumnParent("Users"), range(new byte[0], new byte[0], false, 10), ONE));
        assertEquals("Too many bytes for comparator", refused(() -> client.insert(utf8("k"), new ColumnParent("Events"),
                new Column(ByteBuffer.wrap(Names.concat(name(0, "a", 1L), name(0, "b", null)))).setValue(new byte[0])
                        .setTimestamp(1), ONE)));
    }

    /** 0.6 had no validation classes: its dialect writes the value 0.7's refuses. */
    @Test
    void theZeroSixDialectChecksNoValue() throws Exception {
        byte[] notUtf8 = {(byte) 0xff};
        NODE.node().client().insert(KS, "abc", new ColumnPath("Users").setColumn(utf8Bytes("name")), ByteBuffer.wrap(notUtf8), 1,
                org.apache.cassandra.thrift.ConsistencyLevel.ONE);
        assertArrayEquals(notUtf8, NODE.node().client().get(KS, "abc", new ColumnPath("Users").setColumn(utf8Bytes("name")),
                org.apache.cassandra.thrift.ConsistencyLevel.ONE).getColumn().getValue());
    }

    private interface Call {
        void run() throws Exception;
    }

    private static String refused(Call call) {
        return assertThrows(InvalidRequestException.class, call::run).getWhy();
    }

    private static Column column(String name, byte[] value) {
        return new Column(utf8(name)).setValue(value).setTimestamp(1);
    }

    private static SlicePredicate range(byte[] start, byte[] finish, boolean reversed, int count) {
        return new SlicePredicate().setSlice_range(new SliceRange(ByteBuffer.wrap(start), ByteBuffer.wrap(finish), reversed,
                count));
    }

    private static List<String> values(List<ColumnOrSuperColumn> slice) {
        List<String> values = new ArrayList<>();
        for (ColumnOrSuperColumn c : slice) values.add(new String(c.getColumn().getValue(), StandardCharsets.UTF_8));
        return values;
    }

    /** A name of Events: a text, and a number unless null; the last end-of-component byte {@code eoc}. */
    private static byte[] name(int eoc, String text, Long number) {
        return number == null ? Names.composite(eoc, Names.utf8(text))
                : Names.composite(eoc, Names.utf8(text), Names.ofLong(number));
    }

    private static byte[] utf8Bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(utf8Bytes(s));
    }
}
