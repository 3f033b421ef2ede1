package sibyl.client.stress;

import java.util.List;
import java.util.Map;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.InvalidRequestException;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TBase;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TMap;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;

/**
 * The calls of Cassandra 0.7 to 3.11 (Thrift API 19.x-20.x), for measuring a real 3.11 with the same client. Only
 * the argument lists are written here, field by field as that IDL numbers them; the structs inside them and the
 * results are the generated 0.6 classes, whose field ids and wire types 3.11's match (its additions, such as
 * Column's ttl or TimedOutException's fields, are optional and skipped when read). A binary key is written as the
 * bytes of the key string, which is what 0.6 sends for a string key.
 */
final class Dialect07Codec implements DialectCodec {
    /** The binary protocol writes no struct names. */
    private static final TStruct ARGS = new TStruct("args");

    private static final TField SET_KEYSPACE_KEYSPACE = new TField("keyspace", TType.STRING, (short) 1);

    private static final TField BATCH_MUTATE_MUTATION_MAP = new TField("mutation_map", TType.MAP, (short) 1);
    private static final TField BATCH_MUTATE_LEVEL = new TField("consistency_level", TType.I32, (short) 2);

    private static final TField INSERT_KEY = new TField("key", TType.STRING, (short) 1);
    private static final TField INSERT_PARENT = new TField("column_parent", TType.STRUCT, (short) 2);
    private static final TField INSERT_COLUMN = new TField("column", TType.STRUCT, (short) 3);
    private static final TField INSERT_LEVEL = new TField("consistency_level", TType.I32, (short) 4);

    private static final TField ADD_KEY = new TField("key", TType.STRING, (short) 1);
    private static final TField ADD_PARENT = new TField("column_parent", TType.STRUCT, (short) 2);
    private static final TField ADD_COLUMN = new TField("column", TType.STRUCT, (short) 3);
    private static final TField ADD_LEVEL = new TField("consistency_level", TType.I32, (short) 4);
    /** CounterColumn, which 0.6 has no class for: 1 name, 2 value. */
    private static final TField COUNTER_NAME = new TField("name", TType.STRING, (short) 1);
    private static final TField COUNTER_VALUE = new TField("value", TType.I64, (short) 2);

    private static final TField GET_KEY = new TField("key", TType.STRING, (short) 1);
    private static final TField GET_PATH = new TField("column_path", TType.STRUCT, (short) 2);
    private static final TField GET_LEVEL = new TField("consistency_level", TType.I32, (short) 3);

    private static final TField GET_SLICE_KEY = new TField("key", TType.STRING, (short) 1);
    private static final TField MULTIGET_SLICE_KEYS = new TField("keys", TType.LIST, (short) 1);
    private static final TField SLICE_PARENT = new TField("column_parent", TType.STRUCT, (short) 2);
    private static final TField SLICE_PREDICATE = new TField("predicate", TType.STRUCT, (short) 3);
    private static final TField SLICE_LEVEL = new TField("consistency_level", TType.I32, (short) 4);

    private static final TField RANGE_PARENT = new TField("column_parent", TType.STRUCT, (short) 1);
    private static final TField RANGE_PREDICATE = new TField("predicate", TType.STRUCT, (short) 2);
    private static final TField RANGE_RANGE = new TField("range", TType.STRUCT, (short) 3);
    private static final TField RANGE_LEVEL = new TField("consistency_level", TType.I32, (short) 4);

    private final String keyspace;
    private final int level;
    /** The sequence number of the call last sent, which its reply must carry. */
    private int seqid;

    Dialect07Codec(String keyspace, ConsistencyLevel level) {
        this.keyspace = keyspace;
        this.level = level.getValue(); // ONE, QUORUM, ALL and ANY have the same numbers in 0.7 (Dialect.check)
    }

    @Override
    public StressCall handshake() {
        return new StressCall() {
            @Override
            public String operation() {
                return "set_keyspace " + keyspace;
            }

            @Override
            public void send(Cassandra.Client client) throws TException {
                TProtocol out = begin(client, "set_keyspace");
                out.writeFieldBegin(SET_KEYSPACE_KEYSPACE);
                out.writeString(keyspace);
                out.writeFieldEnd();
                end(out);
            }

            @Override
            public void receive(Cassandra.Client client) throws TException {
                receiveSetKeyspace(client.getInputProtocol());
            }
        };
    }

    @Override
    public void sendBatchMutate(Cassandra.Client client, Map<String, Map<String, List<Mutation>>> mutations)
            throws TException {
        TProtocol out = begin(client, "batch_mutate");
        out.writeFieldBegin(BATCH_MUTATE_MUTATION_MAP);
        out.writeMapBegin(new TMap(TType.STRING, TType.MAP, mutations.size()));
        for (Map.Entry<String, Map<String, List<Mutation>>> row : mutations.entrySet()) {
            out.writeString(row.getKey());
            out.writeMapBegin(new TMap(TType.STRING, TType.LIST, row.getValue().size()));
            for (Map.Entry<String, List<Mutation>> family : row.getValue().entrySet()) {
                out.writeString(family.getKey());
                out.writeListBegin(new TList(TType.STRUCT, family.getValue().size()));
                for (Mutation m : family.getValue()) {
                    m.write(out);
                }
                out.writeListEnd();
            }
            out.writeMapEnd();
        }
        out.writeMapEnd();
        out.writeFieldEnd();
        writeLevel(out, BATCH_MUTATE_LEVEL);
        end(out);
    }

    @Override
    public void receiveBatchMutate(Cassandra.Client client) throws TException {
        Cassandra.batch_mutate_result result = new Cassandra.batch_mutate_result();
        readReply(client.getInputProtocol(), "batch_mutate", result);
        throwDeclared(result.ire, result.ue, result.te);
    }

    /** 0.7's insert: the path's column family and super column become a ColumnParent, its column a Column. */
    @Override
    public void sendInsert(Cassandra.Client client, String key, ColumnPath path, byte[] value, long timestamp)
            throws TException {
        ColumnParent parent = new ColumnParent(path.getColumn_family());
        if (path.isSetSuper_column()) {
            parent.setSuper_column(path.getSuper_column());
        }
        TProtocol out = begin(client, "insert");
        out.writeFieldBegin(INSERT_KEY);
        out.writeString(key);
        out.writeFieldEnd();
        writeStruct(out, INSERT_PARENT, parent);
        writeStruct(out, INSERT_COLUMN,
                new Column().setName(path.getColumn()).setValue(value).setTimestamp(timestamp));
        writeLevel(out, INSERT_LEVEL);
        end(out);
    }

    @Override
    public void receiveInsert(Cassandra.Client client) throws TException {
        Cassandra.insert_result result = new Cassandra.insert_result();
        readReply(client.getInputProtocol(), "insert", result);
        throwDeclared(result.ire, result.ue, result.te);
    }

    /** 0.7's add: as insert, with a CounterColumn (name, value) in place of the Column. */
    @Override
    public void sendAdd(Cassandra.Client client, String key, ColumnPath path, long delta) throws TException {
        ColumnParent parent = new ColumnParent(path.getColumn_family());
        if (path.isSetSuper_column()) {
            parent.setSuper_column(path.getSuper_column());
        }
        TProtocol out = begin(client, "add");
        out.writeFieldBegin(ADD_KEY);
        out.writeString(key);
        out.writeFieldEnd();
        writeStruct(out, ADD_PARENT, parent);
        out.writeFieldBegin(ADD_COLUMN);
        out.writeStructBegin(ARGS);
        out.writeFieldBegin(COUNTER_NAME);
        out.writeBinary(path.bufferForColumn());
        out.writeFieldEnd();
        out.writeFieldBegin(COUNTER_VALUE);
        out.writeI64(delta);
        out.writeFieldEnd();
        out.writeFieldStop();
        out.writeStructEnd();
        out.writeFieldEnd();
        writeLevel(out, ADD_LEVEL);
        end(out);
    }

    /** add's result has insert's fields (1 ire, 2 ue, 3 te), so 0.6's insert_result reads it. */
    @Override
    public void receiveAdd(Cassandra.Client client) throws TException {
        Cassandra.insert_result result = new Cassandra.insert_result();
        readReply(client.getInputProtocol(), "add", result);
        throwDeclared(result.ire, result.ue, result.te);
    }

    @Override
    public void sendGet(Cassandra.Client client, String key, ColumnPath path) throws TException {
        TProtocol out = begin(client, "get");
        out.writeFieldBegin(GET_KEY);
        out.writeString(key);
        out.writeFieldEnd();
        writeStruct(out, GET_PATH, path);
        writeLevel(out, GET_LEVEL);
        end(out);
    }

    /** 0.7's get_result has 0.6's fields: 0 success, 1 ire, 2 nfe, 3 ue, 4 te. */
    @Override
    public ColumnOrSuperColumn receiveGet(Cassandra.Client client) throws TException {
        GetResult result = new GetResult();
        readReply(client.getInputProtocol(), "get", result);
        return result.columnOrNull();
    }

    @Override
    public void sendGetSlice(Cassandra.Client client, String key, ColumnParent parent, SlicePredicate predicate)
            throws TException {
        TProtocol out = begin(client, "get_slice");
        out.writeFieldBegin(GET_SLICE_KEY);
        out.writeString(key);
        out.writeFieldEnd();
        writeSliceArguments(out, parent, predicate);
        end(out);
    }

    @Override
    public List<ColumnOrSuperColumn> receiveGetSlice(Cassandra.Client client) throws TException {
        Cassandra.get_slice_result result = new Cassandra.get_slice_result();
        readReply(client.getInputProtocol(), "get_slice", result);
        if (result.isSetSuccess()) {
            return result.success;
        }
        throw failure("get_slice", result.ire, result.ue, result.te);
    }

    @Override
    public void sendGetRangeSlices(Cassandra.Client client, ColumnParent parent, SlicePredicate predicate,
                                   KeyRange range) throws TException {
        TProtocol out = begin(client, "get_range_slices");
        writeStruct(out, RANGE_PARENT, parent);
        writeStruct(out, RANGE_PREDICATE, predicate);
        writeStruct(out, RANGE_RANGE, range);
        writeLevel(out, RANGE_LEVEL);
        end(out);
    }

    @Override
    public List<KeySlice> receiveGetRangeSlices(Cassandra.Client client) throws TException {
        Cassandra.get_range_slices_result result = new Cassandra.get_range_slices_result();
        readReply(client.getInputProtocol(), "get_range_slices", result);
        if (result.isSetSuccess()) {
            return result.success;
        }
        throw failure("get_range_slices", result.ire, result.ue, result.te);
    }

    @Override
    public void sendMultigetSlice(Cassandra.Client client, List<String> keys, ColumnParent parent,
                                  SlicePredicate predicate) throws TException {
        TProtocol out = begin(client, "multiget_slice");
        out.writeFieldBegin(MULTIGET_SLICE_KEYS);
        out.writeListBegin(new TList(TType.STRING, keys.size()));
        for (String key : keys) {
            out.writeString(key);
        }
        out.writeListEnd();
        out.writeFieldEnd();
        writeSliceArguments(out, parent, predicate);
        end(out);
    }

    @Override
    public Map<String, List<ColumnOrSuperColumn>> receiveMultigetSlice(Cassandra.Client client) throws TException {
        Cassandra.multiget_slice_result result = new Cassandra.multiget_slice_result();
        readReply(client.getInputProtocol(), "multiget_slice", result);
        if (result.isSetSuccess()) {
            return result.success;
        }
        throw failure("multiget_slice", result.ire, result.ue, result.te);
    }

    /** get_slice's and multiget_slice's fields after the key(s): column_parent = 2, predicate = 3, level = 4. */
    private void writeSliceArguments(TProtocol out, ColumnParent parent, SlicePredicate predicate) throws TException {
        writeStruct(out, SLICE_PARENT, parent);
        writeStruct(out, SLICE_PREDICATE, predicate);
        writeLevel(out, SLICE_LEVEL);
    }

    private TProtocol begin(Cassandra.Client client, String method) throws TException {
        TProtocol out = client.getOutputProtocol();
        out.writeMessageBegin(new TMessage(method, TMessageType.CALL, ++seqid));
        out.writeStructBegin(ARGS);
        return out;
    }

    private static void end(TProtocol out) throws TException {
        out.writeFieldStop();
        out.writeStructEnd();
        out.writeMessageEnd();
        out.getTransport().flush();
    }

    private static void writeStruct(TProtocol out, TField field, TBase<?, ?> value) throws TException {
        out.writeFieldBegin(field);
        value.write(out);
        out.writeFieldEnd();
    }

    private void writeLevel(TProtocol out, TField field) throws TException {
        out.writeFieldBegin(field);
        out.writeI32(level);
        out.writeFieldEnd();
    }

    /** Reads a reply's envelope and result struct, as the generated client does, checking our sequence number. */
    private void readReply(TProtocol in, String method, TBase<?, ?> result) throws TException {
        readReplyHeader(in, method);
        result.read(in);
        in.readMessageEnd();
    }

    private void readReplyHeader(TProtocol in, String method) throws TException {
        TMessage message = in.readMessageBegin();
        if (message.type == TMessageType.EXCEPTION) {
            TApplicationException x = new TApplicationException();
            x.read(in);
            in.readMessageEnd();
            throw x;
        }
        if (message.seqid != seqid) {
            throw new TApplicationException(TApplicationException.BAD_SEQUENCE_ID, method
                    + " failed: out of sequence response: expected " + seqid + " but got " + message.seqid);
        }
    }

    /** set_keyspace's result: nothing, or 1: InvalidRequestException (0.6 has no such call to generate it from). */
    private void receiveSetKeyspace(TProtocol in) throws TException {
        readReplyHeader(in, "set_keyspace");
        InvalidRequestException ire = null;
        in.readStructBegin();
        for (TField field = in.readFieldBegin(); field.type != TType.STOP; field = in.readFieldBegin()) {
            if (field.id == 1 && field.type == TType.STRUCT) {
                ire = new InvalidRequestException();
                ire.read(in);
            } else {
                TProtocolUtil.skip(in, field.type);
            }
            in.readFieldEnd();
        }
        in.readStructEnd();
        in.readMessageEnd();
        if (ire != null) {
            throw ire;
        }
    }

    /** What a result without success carries, as the generated client throws it. */
    /** A void call's reply: the first of its declared exceptions the server set, if any, is thrown. */
    private static void throwDeclared(TException ire, TException ue, TException te) throws TException {
        TException declared = ire != null ? ire : ue != null ? ue : te;
        if (declared != null) {
            throw declared;
        }
    }

    private static TException failure(String method, TException ire, TException ue, TException te) {
        if (ire != null) {
            return ire;
        }
        if (ue != null) {
            return ue;
        }
        if (te != null) {
            return te;
        }
        return new TApplicationException(TApplicationException.MISSING_RESULT, method + " failed: unknown result");
    }
}
