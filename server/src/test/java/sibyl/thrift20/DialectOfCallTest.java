package sibyl.thrift20;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.thrift.TBase;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryBuffer;
import org.junit.jupiter.api.Test;
import sibyl.iface.v20.AuthenticationRequest;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.SlicePredicate;

/** Calls written by each dialect's generated bindings, as their clients write them, told apart from their bytes. */
class DialectOfCallTest {
    private static final ThriftDialect V06 = ThriftDialect.CASSANDRA_06;
    private static final ThriftDialect V07 = ThriftDialect.CASSANDRA_07;
    private static final ByteBuffer KEY = ByteBuffer.wrap("k".getBytes(StandardCharsets.UTF_8));

    private static org.apache.cassandra.thrift.ColumnParent parent06() {
        return new org.apache.cassandra.thrift.ColumnParent("Standard1");
    }

    private static org.apache.cassandra.thrift.ColumnPath path06() {
        return new org.apache.cassandra.thrift.ColumnPath("Standard1");
    }

    private static org.apache.cassandra.thrift.SlicePredicate predicate06() {
        return new org.apache.cassandra.thrift.SlicePredicate().setColumn_names(List.of(KEY.duplicate()));
    }

    private static final org.apache.cassandra.thrift.ConsistencyLevel ONE06 =
            org.apache.cassandra.thrift.ConsistencyLevel.ONE;

    @Test
    void callsOfTheZeroSixBindingsAreZeroSix() throws TException {
        assertEquals(V06, dialect("login", new Cassandra.login_args("Keyspace1",
                new org.apache.cassandra.thrift.AuthenticationRequest(Map.of("username", "u")))));
        assertEquals(V06, dialect("get", new Cassandra.get_args("Keyspace1", "k", path06(), ONE06)));
        assertEquals(V06, dialect("get_slice",
                new Cassandra.get_slice_args("Keyspace1", "k", parent06(), predicate06(), ONE06)));
        assertEquals(V06, dialect("get_count", new Cassandra.get_count_args("Keyspace1", "k", parent06(), ONE06)));
        assertEquals(V06, dialect("insert",
                new Cassandra.insert_args("Keyspace1", "k", path06().setColumn(KEY.duplicate()), KEY.duplicate(), 1,
                        ONE06)));
        assertEquals(V06, dialect("remove", new Cassandra.remove_args("Keyspace1", "k", path06(), 1, ONE06)));
        assertEquals(V06, dialect("multiget_slice",
                new Cassandra.multiget_slice_args("Keyspace1", List.of("k"), parent06(), predicate06(), ONE06)));
        assertEquals(V06, dialect("get_range_slices", new Cassandra.get_range_slices_args("Keyspace1", parent06(),
                predicate06(), new org.apache.cassandra.thrift.KeyRange().setStart_key("").setEnd_key(""), ONE06)));
        assertEquals(V06, dialect("batch_mutate",
                new Cassandra.batch_mutate_args("Keyspace1", Map.of("k", Map.of("Standard1", List.of())), ONE06)));
        assertEquals(V06, dialect("describe_splits", new Cassandra.describe_splits_args("0", "1", 128)));
        assertEquals(V06, dialect("multiget", new Cassandra.multiget_args("Keyspace1", List.of("k"), path06(), ONE06)));
        assertEquals(V06, dialect("get_string_property", new Cassandra.get_string_property_args("version")));
    }

    @Test
    void callsOfTheZeroSevenBindingsAreZeroSeven() throws TException {
        ColumnParent parent = new ColumnParent("Standard1");
        SlicePredicate predicate = new SlicePredicate().setColumn_names(List.of(KEY.duplicate()));
        ConsistencyLevel one = ConsistencyLevel.ONE;
        assertEquals(V07, dialect("login", new sibyl.iface.v20.Cassandra.login_args(
                new AuthenticationRequest(Map.of("username", "u")))));
        assertEquals(V07, dialect("set_keyspace", new sibyl.iface.v20.Cassandra.set_keyspace_args("Keyspace1")));
        assertEquals(V07, dialect("get",
                new sibyl.iface.v20.Cassandra.get_args(KEY.duplicate(), new ColumnPath("Standard1"), one)));
        assertEquals(V07, dialect("get_slice",
                new sibyl.iface.v20.Cassandra.get_slice_args(KEY.duplicate(), parent, predicate, one)));
        assertEquals(V07, dialect("get_count",
                new sibyl.iface.v20.Cassandra.get_count_args(KEY.duplicate(), parent, predicate, one)));
        assertEquals(V07, dialect("insert", new sibyl.iface.v20.Cassandra.insert_args(KEY.duplicate(), parent,
                new Column(KEY.duplicate()).setValue(KEY.duplicate()).setTimestamp(1), one)));
        assertEquals(V07, dialect("remove",
                new sibyl.iface.v20.Cassandra.remove_args(KEY.duplicate(), new ColumnPath("Standard1"), 1, one)));
        assertEquals(V07, dialect("multiget_slice", new sibyl.iface.v20.Cassandra.multiget_slice_args(
                List.of(KEY.duplicate()), parent, predicate, one)));
        assertEquals(V07, dialect("get_range_slices", new sibyl.iface.v20.Cassandra.get_range_slices_args(parent,
                predicate, new KeyRange(100).setStart_key(new byte[0]).setEnd_key(new byte[0]), one)));
        assertEquals(V07, dialect("batch_mutate", new sibyl.iface.v20.Cassandra.batch_mutate_args(
                Map.of(KEY.duplicate(), Map.of("Standard1", List.of())), one)));
        assertEquals(V07, dialect("describe_splits",
                new sibyl.iface.v20.Cassandra.describe_splits_args("Standard1", "0", "1", 128)));
        assertEquals(V07, dialect("multiget_count", new sibyl.iface.v20.Cassandra.multiget_count_args(
                List.of(KEY.duplicate()), parent, predicate, one)));
        assertEquals(V07, dialect("describe_snitch", new sibyl.iface.v20.Cassandra.describe_snitch_args()));
    }

    @Test
    void callsAlikeInBothAreUndecided() throws TException {
        assertNull(dialect("describe_version", new Cassandra.describe_version_args()));
        assertNull(dialect("describe_keyspace", new Cassandra.describe_keyspace_args("Keyspace1")));
        assertNull(dialect("describe_ring", new sibyl.iface.v20.Cassandra.describe_ring_args("Keyspace1")));
        assertNull(dialect("no_such_method", new Cassandra.describe_version_args()));
    }

    @Test
    void theDecidingFieldIsFoundInAnyOrderAndItsAbsenceDecidesNothing() throws TException {
        // 0.7's get with its fields written backwards: ColumnPath (2) comes after the consistency level and the key.
        TMemoryBuffer buffer = new TMemoryBuffer(64);
        TBinaryProtocol out = new TBinaryProtocol(buffer);
        out.writeMessageBegin(new TMessage("get", TMessageType.CALL, 1));
        out.writeStructBegin(new TStruct("get_args"));
        out.writeFieldBegin(new TField("consistency_level", TType.I32, (short) 3));
        out.writeI32(1);
        out.writeFieldBegin(new TField("key", TType.STRING, (short) 1));
        out.writeBinary(KEY.duplicate());
        out.writeFieldBegin(new TField("column_path", TType.STRUCT, (short) 2));
        new ColumnPath("Standard1").write(out);
        out.writeFieldStop();
        out.writeStructEnd();
        assertEquals(V07, DialectOfCall.of(buffer.getArray(), 0, buffer.length()));

        assertNull(dialect("get", new Cassandra.describe_version_args()), "a get without arguments says nothing");
    }

    @Test
    void unreadableBytesDecideNothing() throws TException {
        byte[] get = bytes("get", new Cassandra.get_args("Keyspace1", "k", path06(), ONE06), true);
        for (int cut = 0; cut < 30; cut++) {
            // Cut before field 2's header is whole: undecided; from then on the header is read.
            ThriftDialect d = DialectOfCall.of(get, 0, cut);
            if (d != null) assertEquals(V06, d, "cut at " + cut);
        }
        assertNull(DialectOfCall.of(new byte[] {(byte) 0x80, 2, 0, 1, 0, 0, 0, 3}, 0, 8), "unknown version");
        assertNull(DialectOfCall.of(new byte[] {0, 0, 0, 100, 'g'}, 0, 5), "name longer than the message");
        byte[] padded = new byte[get.length + 10];
        System.arraycopy(get, 0, padded, 10, get.length);
        assertEquals(V06, DialectOfCall.of(padded, 10, get.length), "read from an offset");
    }

    @Test
    void theOldUnversionedHeaderIsReadToo() throws TException {
        byte[] get07 = bytes("get", new sibyl.iface.v20.Cassandra.get_args(KEY.duplicate(), new ColumnPath("S"),
                ConsistencyLevel.ONE), false);
        assertEquals(V07, DialectOfCall.of(get07, 0, get07.length));
        byte[] get06 = bytes("get", new Cassandra.get_args("Keyspace1", "k", path06(), ONE06), false);
        assertEquals(V06, DialectOfCall.of(get06, 0, get06.length));
    }

    private static ThriftDialect dialect(String method, TBase<?, ?> args) throws TException {
        byte[] strict = bytes(method, args, true);
        ThriftDialect d = DialectOfCall.of(strict, 0, strict.length);
        byte[] loose = bytes(method, args, false);
        assertEquals(d, DialectOfCall.of(loose, 0, loose.length), "the unversioned header decides alike");
        return d;
    }

    private static byte[] bytes(String method, TBase<?, ?> args, boolean strict) throws TException {
        TMemoryBuffer buffer = new TMemoryBuffer(128);
        TBinaryProtocol out = new TBinaryProtocol(buffer, false, strict);
        out.writeMessageBegin(new TMessage(method, TMessageType.CALL, 7));
        args.write(out);
        out.writeMessageEnd();
        return Arrays.copyOf(buffer.getArray(), buffer.length());
    }
}
