package sibyl.iface;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.thrift.TBase;
import org.apache.thrift.TDeserializer;
import org.apache.thrift.TSerializer;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.junit.jupiter.api.Test;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.Deletion;
import sibyl.iface.v20.IndexExpression;
import sibyl.iface.v20.IndexOperator;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.Mutation;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;

/**
 * The 0.7+ bindings against the wire facts of docs/thrift-api-0.7.md §Types and
 * docs/thrift-api-0.7.md §Calls: structs
 * survive the binary protocol, and the field ids and types that differ from 0.6 are the ones
 * written and read. Bytes are built by hand where a wrong id in the IDL would otherwise go
 * unnoticed (a round trip through the same bindings agrees with itself whatever the ids).
 */
class V20WireTest {

    @Test
    void structsRoundTripThroughTheBinaryProtocol() throws Exception {
        ColumnParent parent = new ColumnParent("Super1").setSuper_column(bytes("sc"));
        SlicePredicate predicate = new SlicePredicate().setSlice_range(
                new SliceRange(bytes("a"), bytes("z"), true, 7));
        Mutation mutation = new Mutation().setDeletion(new Deletion()
                .setSuper_column(bytes("sc"))
                .setPredicate(new SlicePredicate().setColumn_names(List.of(bytes("c1"), bytes("c2")))));

        assertEquals(parent, roundTrip(parent, new ColumnParent()));
        assertEquals(predicate, roundTrip(predicate, new SlicePredicate()));
        assertEquals(mutation, roundTrip(mutation, new Mutation()));
    }

    @Test
    void getTakesTheKeyAsBinaryFieldOneAndNoKeyspace() throws Exception {
        Cassandra.get_args args = new Cassandra.get_args(
                bytes("row"), new ColumnPath("Standard1").setColumn(bytes("c")), ConsistencyLevel.QUORUM);
        // 0.6's get_args: 1 keyspace, 2 key (both strings), 3 column_path, 4 consistency_level.
        assertEquals(List.of("1:" + TType.STRING, "2:" + TType.STRUCT, "3:" + TType.I32), fieldsOnWire(args));

        TMemoryBuffer wire = new TMemoryBuffer(64);
        TBinaryProtocol out = new TBinaryProtocol(wire);
        out.writeStructBegin(new TStruct("get_args"));
        out.writeFieldBegin(new TField("key", TType.STRING, (short) 1));
        out.writeBinary(bytes("row"));
        out.writeFieldEnd();
        out.writeFieldBegin(new TField("column_path", TType.STRUCT, (short) 2));
        out.writeStructBegin(new TStruct("ColumnPath"));
        out.writeFieldBegin(new TField("column_family", TType.STRING, (short) 3));
        out.writeString("Standard1");
        out.writeFieldEnd();
        out.writeFieldBegin(new TField("column", TType.STRING, (short) 5));
        out.writeBinary(bytes("c"));
        out.writeFieldEnd();
        out.writeFieldStop();
        out.writeStructEnd();
        out.writeFieldEnd();
        out.writeFieldBegin(new TField("consistency_level", TType.I32, (short) 3));
        out.writeI32(3);
        out.writeFieldEnd();
        out.writeFieldStop();
        out.writeStructEnd();

        Cassandra.get_args read = new Cassandra.get_args();
        read.read(new TBinaryProtocol(wire));
        assertArrayEquals("row".getBytes(StandardCharsets.UTF_8), read.getKey());
        assertEquals("Standard1", read.getColumn_path().getColumn_family());
        assertArrayEquals("c".getBytes(StandardCharsets.UTF_8), read.getColumn_path().getColumn());
        assertFalse(read.getColumn_path().isSetSuper_column());
        // 3 was DCQUORUM in 0.6.
        assertEquals(ConsistencyLevel.LOCAL_QUORUM, read.getConsistency_level());
    }

    @Test
    void columnParentStillStartsAtIdThree() throws Exception {
        byte[] expected = {
            TType.STRING, 0, 3, 0, 0, 0, 2, 'c', 'f',
            TType.STRING, 0, 4, 0, 0, 0, 1, 's',
            TType.STOP};
        assertArrayEquals(expected, new TSerializer(new TBinaryProtocol.Factory())
                .serialize(new ColumnParent("cf").setSuper_column(bytes("s"))));
    }

    @Test
    void keyRangeCarriesItsRowFilterAsFieldSix() throws Exception {
        KeyRange range = new KeyRange(10).setStart_key(bytes("a")).setEnd_key(bytes("b"))
                .setRow_filter(List.of(new IndexExpression(bytes("c"), IndexOperator.GT, bytes("v"))));
        assertEquals(List.of("1:" + TType.STRING, "2:" + TType.STRING, "5:" + TType.I32, "6:" + TType.LIST),
                fieldsOnWire(range));
    }

    @Test
    void aCounterDeletionMayOmitTheTimestamp() throws Exception {
        // Required in 0.6; optional in 20.1.0, for deletions of counters, which have no timestamp.
        Deletion deletion = new Deletion().setPredicate(
                new SlicePredicate().setColumn_names(List.of(bytes("hits"))));
        deletion.validate();
        assertEquals(List.of("3:" + TType.STRUCT), fieldsOnWire(deletion));
    }

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static <T extends TBase<?, ?>> T roundTrip(TBase<?, ?> value, T into) throws Exception {
        byte[] wire = new TSerializer(new TBinaryProtocol.Factory()).serialize(value);
        new TDeserializer(new TBinaryProtocol.Factory()).deserialize(into, wire);
        return into;
    }

    /** The top-level fields of a serialized struct, in wire order, as "id:type". */
    private static List<String> fieldsOnWire(TBase<?, ?> value) throws Exception {
        byte[] wire = new TSerializer(new TBinaryProtocol.Factory()).serialize(value);
        TBinaryProtocol in = new TBinaryProtocol(new TMemoryInputTransport(wire));
        List<String> fields = new ArrayList<>();
        in.readStructBegin();
        for (TField f = in.readFieldBegin(); f.type != TType.STOP; f = in.readFieldBegin()) {
            fields.add(f.id + ":" + f.type);
            TProtocolUtil.skip(in, f.type);
            in.readFieldEnd();
        }
        in.readStructEnd();
        return fields;
    }
}
