package sibyl.bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;
import org.apache.thrift.TBase;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.transport.TMemoryBuffer;

/**
 * The requests and replies the benchmarks encode and decode, shaped like bin/stress's: keys of 10 digits, columns
 * {@code C0...} with 34-byte values, Keyspace1/Standard1.
 */
public final class ThriftMessages {
    public static final String KEYSPACE = "Keyspace1";
    public static final String COLUMN_FAMILY = "Standard1";
    public static final int VALUE_BYTES = 34;

    private ThriftMessages() {
    }

    public static String key(long i) {
        return String.format("%010d", i);
    }

    public static byte[] columnName(int c) {
        return ("C" + c).getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] value(long key, int c) {
        byte[] v = new byte[VALUE_BYTES];
        for (int i = 0; i < v.length; i++) {
            v[i] = (byte) ('a' + (key * 31 + c * 7 + i) % 26);
        }
        return v;
    }

    public static Cassandra.get_slice_args getSliceArgs(long key, int columns) {
        SlicePredicate predicate = new SlicePredicate().setSlice_range(
                new SliceRange(ByteBuffer.allocate(0), ByteBuffer.allocate(0), false, columns));
        return new Cassandra.get_slice_args(KEYSPACE, key(key), new ColumnParent(COLUMN_FAMILY), predicate,
                ConsistencyLevel.ONE);
    }

    public static Cassandra.get_slice_result getSliceResult(long key, int columns) {
        List<ColumnOrSuperColumn> row = new ArrayList<>(columns);
        for (int c = 0; c < columns; c++) {
            row.add(new ColumnOrSuperColumn().setColumn(new Column(ByteBuffer.wrap(columnName(c)),
                    ByteBuffer.wrap(value(key, c)), 1_700_000_000_000_000L)));
        }
        return new Cassandra.get_slice_result().setSuccess(row);
    }

    /** One row of {@code columns} columns, as bin/stress's insert sends it. */
    public static Cassandra.batch_mutate_args batchMutateArgs(long key, int columns) {
        List<Mutation> mutations = new ArrayList<>(columns);
        for (int c = 0; c < columns; c++) {
            mutations.add(new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(
                    new Column(ByteBuffer.wrap(columnName(c)), ByteBuffer.wrap(value(key, c)), 1_700_000_000_000_000L))));
        }
        Map<String, List<Mutation>> byFamily = new HashMap<>();
        byFamily.put(COLUMN_FAMILY, mutations);
        Map<String, Map<String, List<Mutation>>> byKey = new HashMap<>();
        byKey.put(key(key), byFamily);
        return new Cassandra.batch_mutate_args(KEYSPACE, byKey, ConsistencyLevel.ONE);
    }

    /** A whole unframed CALL message (strict header) carrying {@code args}. */
    public static byte[] callMessage(String method, TBase<?, ?> args) {
        return message(method, TMessageType.CALL, args);
    }

    /** A whole REPLY message carrying {@code result}. */
    public static byte[] replyMessage(String method, TBase<?, ?> result) {
        return message(method, TMessageType.REPLY, result);
    }

    private static byte[] message(String method, byte type, TBase<?, ?> body) {
        try {
            TMemoryBuffer buffer = new TMemoryBuffer(512);
            TBinaryProtocol out = new TBinaryProtocol(buffer);
            out.writeMessageBegin(new TMessage(method, type, 1));
            body.write(out);
            out.writeMessageEnd();
            byte[] bytes = new byte[buffer.length()];
            System.arraycopy(buffer.getArray(), 0, bytes, 0, bytes.length);
            return bytes;
        } catch (TException e) {
            throw new IllegalStateException("writing to memory cannot fail", e);
        }
    }
}
