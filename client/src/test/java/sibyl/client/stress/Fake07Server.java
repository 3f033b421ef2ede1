package sibyl.client.stress;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.InvalidRequestException;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.NotFoundException;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TBase;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TMap;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TMemoryInputTransport;
import sibyl.client.fake.FakeCassandra;

/**
 * A stand-in for a Cassandra 3.11 Thrift server, for bin/stress's --dialect 0.7: framed, a thread per connection,
 * set_keyspace per connection, then batch_mutate, insert, get, get_slice, multiget_slice and get_range_slices whose
 * arguments are
 * read field by field with a plain protocol reader, each field id and wire type checked against 3.11's IDL (as
 * cassandra-thrift 3.11.19's generated classes declare them). A call that breaks that IDL is answered with a
 * TApplicationException and recorded in {@link #violations()}. The data is kept by a {@link FakeCassandra}.
 */
final class Fake07Server implements AutoCloseable {
    private final FakeCassandra data = new FakeCassandra();
    private final ConnectionThreads connections;
    private final List<String> violations = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger keyspacesSet = new AtomicInteger();
    /** A connection is closed, unanswered, when this many calls have come over it; 0 for never. */
    private final int callsPerConnection;

    Fake07Server(int callsPerConnection) throws IOException {
        this.callsPerConnection = callsPerConnection;
        this.connections = new ConnectionThreads("fake-311", this::serve);
    }

    int port() {
        return connections.port();
    }

    FakeCassandra data() {
        return data;
    }

    int connectionsAccepted() {
        return connections.accepted();
    }

    int keyspacesSet() {
        return keyspacesSet.get();
    }

    List<String> violations() {
        synchronized (violations) {
            return List.copyOf(violations);
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        connections.close();
    }

    private void serve(Socket s) {
        String keyspace = null;
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
             DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()))) {
            for (int calls = 1; ; calls++) {
                byte[] frame = new byte[in.readInt()];
                in.readFully(frame);
                if (callsPerConnection > 0 && calls >= callsPerConnection) {
                    return;
                }
                TProtocol request = new TBinaryProtocol(new TMemoryInputTransport(frame));
                TMessage call = request.readMessageBegin();
                TMemoryBuffer replyBytes = new TMemoryBuffer(256);
                TProtocol reply = new TBinaryProtocol(replyBytes);
                try {
                    if (call.type != TMessageType.CALL) {
                        throw new TProtocolException("message type " + call.type + ", not CALL");
                    }
                    if (call.name.equals("set_keyspace")) {
                        String wanted = setKeyspaceArgs(request);
                        InvalidRequestException refusal = setKeyspace(wanted);
                        if (refusal == null) {
                            keyspace = wanted;
                        }
                        reply.writeMessageBegin(new TMessage(call.name, TMessageType.REPLY, call.seqid));
                        writeSetKeyspaceResult(reply, refusal);
                    } else {
                        TBase<?, ?> result = dispatch(call.name, request, keyspace);
                        reply.writeMessageBegin(new TMessage(call.name, TMessageType.REPLY, call.seqid));
                        result.write(reply);
                    }
                } catch (TProtocolException e) {
                    violations.add(call.name + ": " + e.getMessage());
                    replyBytes = new TMemoryBuffer(256);
                    reply = new TBinaryProtocol(replyBytes);
                    reply.writeMessageBegin(new TMessage(call.name, TMessageType.EXCEPTION, call.seqid));
                    new TApplicationException(TApplicationException.PROTOCOL_ERROR, e.getMessage()).write(reply);
                }
                reply.writeMessageEnd();
                out.writeInt(replyBytes.length());
                out.write(replyBytes.getArray(), 0, replyBytes.length());
                out.flush();
            }
        } catch (EOFException e) {
            // the client hung up
        } catch (IOException | TException e) {
            if (!connections.closed()) {
                violations.add("connection: " + e);
            }
        }
    }

    /** set_keyspace's answer: null for done, else why not. */
    private InvalidRequestException setKeyspace(String keyspace) {
        keyspacesSet.incrementAndGet();
        if (data.describe_keyspaces().contains(keyspace)) {
            return null;
        }
        return new InvalidRequestException("Keyspace '" + keyspace + "' does not exist");
    }

    /** 3.11's set_keyspace_result: nothing, or 1: InvalidRequestException ire. 0.6 has no class for it. */
    private static void writeSetKeyspaceResult(TProtocol out, InvalidRequestException refusal) throws TException {
        out.writeStructBegin(new TStruct("set_keyspace_result"));
        if (refusal != null) {
            out.writeFieldBegin(new TField("ire", TType.STRUCT, (short) 1));
            refusal.write(out);
            out.writeFieldEnd();
        }
        out.writeFieldStop();
        out.writeStructEnd();
    }

    private TBase<?, ?> dispatch(String method, TProtocol in, String keyspace) throws TException {
        return switch (method) {
            case "batch_mutate" -> {
                Map<Short, Object> args = readArgs(in, method, Map.of((short) 1, TType.MAP, (short) 2, TType.I32));
                Cassandra.batch_mutate_result r = new Cassandra.batch_mutate_result();
                try {
                    @SuppressWarnings("unchecked")
                    Map<String, Map<String, List<Mutation>>> mutations =
                            (Map<String, Map<String, List<Mutation>>>) args.get((short) 1);
                    data.batch_mutate(need(keyspace), mutations, level(args.get((short) 2)));
                } catch (InvalidRequestException e) {
                    r.setIre(e);
                }
                yield r;
            }
            case "insert" -> {
                Map<Short, Object> args = readArgs(in, method, Map.of((short) 1, TType.STRING, (short) 2, TType.STRUCT,
                        (short) 3, TType.STRUCT, (short) 4, TType.I32));
                Cassandra.insert_result r = new Cassandra.insert_result();
                ColumnParent parent = (ColumnParent) args.get((short) 2);
                Column column = (Column) args.get((short) 3);
                // 0.6's insert names the column by a path; 0.7's by a parent and the column's own name.
                ColumnPath path = new ColumnPath(parent.getColumn_family()).setColumn(column.getName());
                if (parent.isSetSuper_column()) {
                    path.setSuper_column(parent.getSuper_column());
                }
                try {
                    data.insert(need(keyspace), (String) args.get((short) 1), path,
                            ByteBuffer.wrap(column.getValue()), column.getTimestamp(),
                            level(args.get((short) 4)));
                } catch (InvalidRequestException e) {
                    r.setIre(e);
                }
                yield r;
            }
            case "get" -> {
                Map<Short, Object> args = readArgs(in, method, Map.of((short) 1, TType.STRING, (short) 2, TType.STRUCT,
                        (short) 3, TType.I32));
                Cassandra.get_result r = new Cassandra.get_result();
                try {
                    r.setSuccess(data.get(need(keyspace), (String) args.get((short) 1),
                            (ColumnPath) args.get((short) 2), level(args.get((short) 3))));
                } catch (InvalidRequestException e) {
                    r.setIre(e);
                } catch (NotFoundException e) {
                    r.setNfe(e);
                }
                yield r;
            }
            case "get_slice" -> {
                Map<Short, Object> args = readArgs(in, method, Map.of((short) 1, TType.STRING, (short) 2, TType.STRUCT,
                        (short) 3, TType.STRUCT, (short) 4, TType.I32));
                Cassandra.get_slice_result r = new Cassandra.get_slice_result();
                try {
                    r.setSuccess(data.get_slice(need(keyspace), (String) args.get((short) 1),
                            (ColumnParent) args.get((short) 2), (SlicePredicate) args.get((short) 3),
                            level(args.get((short) 4))));
                } catch (InvalidRequestException e) {
                    r.setIre(e);
                }
                yield r;
            }
            case "multiget_slice" -> {
                Map<Short, Object> args = readArgs(in, method, Map.of((short) 1, TType.LIST, (short) 2, TType.STRUCT,
                        (short) 3, TType.STRUCT, (short) 4, TType.I32));
                Cassandra.multiget_slice_result r = new Cassandra.multiget_slice_result();
                try {
                    @SuppressWarnings("unchecked")
                    List<String> keys = (List<String>) args.get((short) 1);
                    r.setSuccess(data.multiget_slice(need(keyspace), keys, (ColumnParent) args.get((short) 2),
                            (SlicePredicate) args.get((short) 3), level(args.get((short) 4))));
                } catch (InvalidRequestException e) {
                    r.setIre(e);
                }
                yield r;
            }
            case "get_range_slices" -> {
                Map<Short, Object> args = readArgs(in, method, Map.of((short) 1, TType.STRUCT, (short) 2,
                        TType.STRUCT, (short) 3, TType.STRUCT, (short) 4, TType.I32));
                Cassandra.get_range_slices_result r = new Cassandra.get_range_slices_result();
                try {
                    r.setSuccess(data.get_range_slices(need(keyspace), (ColumnParent) args.get((short) 1),
                            (SlicePredicate) args.get((short) 2), (KeyRange) args.get((short) 3),
                            level(args.get((short) 4))));
                } catch (InvalidRequestException e) {
                    r.setIre(e);
                }
                yield r;
            }
            default -> throw new TProtocolException("not a call of this fake: " + method);
        };
    }

    private static String need(String keyspace) throws InvalidRequestException {
        if (keyspace == null) {
            throw new InvalidRequestException("You have not set a keyspace for this session");
        }
        return keyspace;
    }

    private static ConsistencyLevel level(Object value) throws TProtocolException {
        ConsistencyLevel level = ConsistencyLevel.findByValue((Integer) value);
        if (level == null) {
            throw new TProtocolException("consistency level " + value);
        }
        return level;
    }

    private static String setKeyspaceArgs(TProtocol in) throws TException {
        return (String) readArgs(in, "set_keyspace", Map.of((short) 1, TType.STRING)).get((short) 1);
    }

    /**
     * Reads an argument struct whose fields must be exactly {@code expected} (id to wire type), each once. Structs
     * are read as the field's 0.6 class, which has 3.11's field ids.
     */
    private static Map<Short, Object> readArgs(TProtocol in, String method, Map<Short, Byte> expected)
            throws TException {
        Map<Short, Object> values = new LinkedHashMap<>();
        in.readStructBegin();
        for (TField f = in.readFieldBegin(); f.type != TType.STOP; f = in.readFieldBegin()) {
            Byte type = expected.get(f.id);
            if (type == null || type != f.type) {
                throw new TProtocolException(method + " has field " + f.id + " of type " + f.type + "; 3.11 has "
                        + (type == null ? "no such field" : "type " + type));
            }
            if (values.put(f.id, readValue(in, method, f.id, f.type)) != null) {
                throw new TProtocolException(method + " has field " + f.id + " twice");
            }
            in.readFieldEnd();
        }
        in.readStructEnd();
        in.readMessageEnd();
        if (!values.keySet().equals(expected.keySet())) {
            throw new TProtocolException(method + " has fields " + values.keySet() + ", 3.11 requires "
                    + expected.keySet());
        }
        return values;
    }

    private static Object readValue(TProtocol in, String method, short id, byte type) throws TException {
        switch (type) {
            case TType.STRING:
                return new String(bytes(in), StandardCharsets.UTF_8);
            case TType.I32:
                return in.readI32();
            case TType.LIST: { // multiget_slice's keys: list<binary>
                TList list = in.readListBegin();
                expectType(method, "keys element", list.elemType, TType.STRING);
                List<String> keys = new ArrayList<>();
                for (int i = 0; i < list.size; i++) {
                    keys.add(new String(bytes(in), StandardCharsets.UTF_8));
                }
                in.readListEnd();
                return keys;
            }
            case TType.MAP: { // batch_mutate's map<binary, map<string, list<Mutation>>>
                TMap rows = in.readMapBegin();
                expectType(method, "row key", rows.keyType, TType.STRING);
                expectType(method, "row", rows.valueType, TType.MAP);
                Map<String, Map<String, List<Mutation>>> out = new LinkedHashMap<>();
                for (int i = 0; i < rows.size; i++) {
                    String key = new String(bytes(in), StandardCharsets.UTF_8);
                    TMap families = in.readMapBegin();
                    expectType(method, "column family name", families.keyType, TType.STRING);
                    expectType(method, "mutations", families.valueType, TType.LIST);
                    Map<String, List<Mutation>> byFamily = new LinkedHashMap<>();
                    for (int j = 0; j < families.size; j++) {
                        String family = in.readString();
                        TList list = in.readListBegin();
                        expectType(method, "mutation", list.elemType, TType.STRUCT);
                        List<Mutation> mutations = new ArrayList<>();
                        for (int k = 0; k < list.size; k++) {
                            Mutation m = new Mutation();
                            m.read(in);
                            mutations.add(m);
                        }
                        in.readListEnd();
                        byFamily.put(family, mutations);
                    }
                    in.readMapEnd();
                    out.put(key, byFamily);
                }
                in.readMapEnd();
                return out;
            }
            case TType.STRUCT: {
                TBase<?, ?> struct = switch (method + "/" + id) {
                    case "get_slice/2", "multiget_slice/2", "get_range_slices/1" -> new ColumnParent();
                    case "get_slice/3", "multiget_slice/3", "get_range_slices/2" -> new SlicePredicate();
                    case "get_range_slices/3" -> new KeyRange();
                    case "insert/2" -> new ColumnParent();
                    case "insert/3" -> new Column();
                    case "get/2" -> new ColumnPath();
                    default -> throw new TProtocolException(method + " has no struct field " + id);
                };
                struct.read(in);
                return struct;
            }
            default:
                throw new TProtocolException(method + " field " + id + " of type " + type);
        }
    }

    private static byte[] bytes(TProtocol in) throws TException {
        ByteBuffer b = in.readBinary();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    private static void expectType(String method, String what, byte actual, byte wanted) throws TProtocolException {
        if (actual != wanted) {
            throw new TProtocolException(method + ": " + what + " of type " + actual + ", 3.11 has " + wanted);
        }
    }
}
