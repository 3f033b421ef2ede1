package sibyl.client.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.NotFoundException;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.TimedOutException;
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
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryBuffer;
import org.junit.jupiter.api.Test;
import sibyl.client.BatchMutation;
import sibyl.client.Predicates;
import sibyl.client.fake.FakeCassandra;

/**
 * bin/stress's --dialect 0.7, the calls of Cassandra 0.7 to 3.11: what goes on the wire, read back with a plain
 * protocol reader and compared with 3.11's IDL (field ids and wire types as cassandra-thrift 3.11.19's generated
 * classes declare them), replies in 3.11's shapes, the options, and whole runs against a 3.11 stand-in.
 */
class DialectTest {
    private final TMemoryBuffer requests;
    private final TMemoryBuffer replies;
    private final Cassandra.Client client;
    private final Dialect07Codec codec = new Dialect07Codec("Keyspace1", ConsistencyLevel.QUORUM);

    DialectTest() throws TException {
        requests = new TMemoryBuffer(256);
        replies = new TMemoryBuffer(256);
        client = new Cassandra.Client(new TBinaryProtocol(replies), new TBinaryProtocol(requests));
    }

    /** One call as read off the wire: its envelope and its argument fields as "id:TYPE", scalars with "=value". */
    private record Call(String name, byte type, int seqid, List<String> fields) {
    }

    private Call readCall() throws TException {
        TProtocol in = new TBinaryProtocol(requests);
        TMessage m = in.readMessageBegin();
        List<String> fields = new ArrayList<>();
        in.readStructBegin();
        for (TField f = in.readFieldBegin(); f.type != TType.STOP; f = in.readFieldBegin()) {
            String field = f.id + ":" + typeName(f.type);
            switch (f.type) {
                case TType.STRING -> field += "=" + in.readString();
                case TType.I32 -> field += "=" + in.readI32();
                case TType.I64 -> field += "=" + in.readI64();
                default -> TProtocolUtil.skip(in, f.type);
            }
            fields.add(field);
            in.readFieldEnd();
        }
        in.readStructEnd();
        in.readMessageEnd();
        assertEquals(0, requests.read(new byte[1], 0, 1), "nothing after the call");
        return new Call(m.name, m.type, m.seqid, fields);
    }

    private static String typeName(byte type) {
        return switch (type) {
            case TType.STRING -> "STRING";
            case TType.I32 -> "I32";
            case TType.I64 -> "I64";
            case TType.STRUCT -> "STRUCT";
            case TType.LIST -> "LIST";
            case TType.MAP -> "MAP";
            default -> "type " + type;
        };
    }

    @Test
    void callsCarryNoKeyspaceAndNumberTheirArgumentsAs311Does() throws TException {
        codec.handshake().send(client);
        assertEquals(new Call("set_keyspace", TMessageType.CALL, 1, List.of("1:STRING=Keyspace1")), readCall());

        ColumnParent parent = new ColumnParent("Standard1");
        SlicePredicate predicate = Predicates.first(10);
        codec.sendGetSlice(client, "0000000042", parent, predicate);
        // QUORUM is 2 in both dialects.
        assertEquals(new Call("get_slice", TMessageType.CALL, 2,
                List.of("1:STRING=0000000042", "2:STRUCT", "3:STRUCT", "4:I32=2")), readCall());

        codec.sendMultigetSlice(client, List.of("0000000001", "0000000002"), parent, predicate);
        assertEquals(new Call("multiget_slice", TMessageType.CALL, 3,
                List.of("1:LIST", "2:STRUCT", "3:STRUCT", "4:I32=2")), readCall());

        codec.sendGetRangeSlices(client, parent, predicate, new KeyRange(5).setStart_key("0000000003").setEnd_key(""));
        assertEquals(new Call("get_range_slices", TMessageType.CALL, 4,
                List.of("1:STRUCT", "2:STRUCT", "3:STRUCT", "4:I32=2")), readCall());

        codec.sendBatchMutate(client, mutations(7, "0000000009"));
        assertEquals(new Call("batch_mutate", TMessageType.CALL, 5, List.of("1:MAP", "2:I32=2")), readCall());
    }

    @Test
    void thePlainInsertAndGetNumberTheirArgumentsAs311Does() throws TException {
        ColumnPath path = new ColumnPath("Standard1").setColumn(new byte[] {'C', '0'});
        codec.sendInsert(client, "0000000042", path, new byte[] {'v'}, 1234);
        // insert(1: key, 2: column_parent, 3: column, 4: consistency_level)
        assertEquals(new Call("insert", TMessageType.CALL, 1,
                List.of("1:STRING=0000000042", "2:STRUCT", "3:STRUCT", "4:I32=2")), readCall());

        codec.sendAdd(client, "0000000042", path, 1);
        // add(1: key, 2: column_parent, 3: column CounterColumn, 4: consistency_level)
        assertEquals(new Call("add", TMessageType.CALL, 2,
                List.of("1:STRING=0000000042", "2:STRUCT", "3:STRUCT", "4:I32=2")), readCall());

        codec.sendGet(client, "0000000042", path);
        // get(1: key, 2: column_path, 3: consistency_level)
        assertEquals(new Call("get", TMessageType.CALL, 3, List.of("1:STRING=0000000042", "2:STRUCT", "3:I32=2")),
                readCall());
    }

    @Test
    void thePlainCallsOf06CarryTheKeyspaceAndThePath() throws TException {
        DialectCodec codec06 = Dialect.V0_6.codec("Keyspace1", ConsistencyLevel.QUORUM);
        ColumnPath path = new ColumnPath("Standard1").setColumn(new byte[] {'C', '0'});
        codec06.sendInsert(client, "0000000042", path, new byte[] {'v'}, 1234);
        // 0.6: insert(1: keyspace, 2: key, 3: column_path, 4: value, 5: timestamp, 6: consistency_level)
        assertEquals(new Call("insert", TMessageType.CALL, 1, List.of("1:STRING=Keyspace1", "2:STRING=0000000042",
                "3:STRUCT", "4:STRING=v", "5:I64=1234", "6:I32=2")), readCall());
        codec06.sendGet(client, "0000000042", path);
        // 0.6: get(1: keyspace, 2: key, 3: column_path, 4: consistency_level)
        assertEquals(new Call("get", TMessageType.CALL, 2, List.of("1:STRING=Keyspace1", "2:STRING=0000000042",
                "3:STRUCT", "4:I32=2")), readCall());
    }

    @Test
    void thePlainInsertSendsTheSuperColumnInItsParentAndTheColumnWhole() throws TException {
        ColumnPath path = new ColumnPath("Super1").setSuper_column(new byte[] {'S', '0'})
                .setColumn(new byte[] {'C', '0'});
        codec.sendInsert(client, "k", path, new byte[] {1, 2, 3}, 99);
        TProtocol in = new TBinaryProtocol(requests);
        in.readMessageBegin();
        in.readStructBegin();
        assertEquals("k", keyField(in));
        assertEquals(new ColumnParent("Super1").setSuper_column(new byte[] {'S', '0'}),
                structField(in, new ColumnParent()));
        assertEquals(new Column().setName(new byte[] {'C', '0'}).setValue(new byte[] {1, 2, 3}).setTimestamp(99),
                structField(in, new Column()));
        assertEquals(4, in.readFieldBegin().id);
        in.readI32();
        in.readFieldEnd();
        assertEquals(TType.STOP, in.readFieldBegin().type);
        in.readStructEnd();
        in.readMessageEnd();

        codec.sendGet(client, "k", path);
        in.readMessageBegin();
        in.readStructBegin();
        assertEquals("k", keyField(in));
        assertEquals(path, structField(in, new ColumnPath()));
        assertEquals(3, in.readFieldBegin().id);
        assertEquals(ConsistencyLevel.QUORUM.getValue(), in.readI32());
        in.readFieldEnd();
        assertEquals(TType.STOP, in.readFieldBegin().type);
    }

    @Test
    void thePlainCallsRepliesAreRead() throws TException {
        ColumnPath path = new ColumnPath("Standard1").setColumn(new byte[] {'C', '0'});
        codec.sendGet(client, "k", path);
        Column stored = new Column().setName(new byte[] {'C', '0'}).setValue(new byte[] {7}).setTimestamp(5);
        reply(TMessageType.REPLY, 1, "get",
                out -> new Cassandra.get_result().setSuccess(new ColumnOrSuperColumn().setColumn(stored)).write(out));
        assertEquals(new ColumnOrSuperColumn().setColumn(stored), codec.receiveGet(client));

        codec.sendGet(client, "absent", path);
        reply(TMessageType.REPLY, 2, "get",
                out -> new Cassandra.get_result().setNfe(new NotFoundException()).write(out));
        assertNull(codec.receiveGet(client), "an absent column is null");

        codec.sendInsert(client, "k", path, new byte[] {7}, 5);
        reply(TMessageType.REPLY, 3, "insert", out -> new Cassandra.insert_result().write(out));
        codec.receiveInsert(client);

        codec.sendInsert(client, "k", path, new byte[] {7}, 5);
        reply(TMessageType.REPLY, 4, "insert", out -> new Cassandra.insert_result()
                .setIre(new InvalidRequestException("unconfigured columnfamily Standard1")).write(out));
        assertEquals("unconfigured columnfamily Standard1",
                assertThrows(InvalidRequestException.class, () -> codec.receiveInsert(client)).getWhy());
    }

    @Test
    void the06GetReplyIsReadWithoutMakingTheNotFoundExceptionThroughAStressClient() throws TException {
        DialectCodec codec06 = Dialect.V0_6.codec("Keyspace1", ConsistencyLevel.ONE);
        ColumnPath path = new ColumnPath("Standard1").setColumn(new byte[] {'C', '0'});
        Column stored = new Column().setName(new byte[] {'C', '0'}).setValue(new byte[] {7}).setTimestamp(5);
        for (Cassandra.Client c : List.of(client, new StressClient(new TBinaryProtocol(replies),
                new TBinaryProtocol(requests)))) {
            String which = c.getClass().getSimpleName();
            codec06.sendGet(c, "k", path);
            reply(TMessageType.REPLY, 1, "get", out -> new Cassandra.get_result()
                    .setSuccess(new ColumnOrSuperColumn().setColumn(stored)).write(out));
            assertEquals(new ColumnOrSuperColumn().setColumn(stored), codec06.receiveGet(c), which);

            codec06.sendGet(c, "absent", path);
            reply(TMessageType.REPLY, 2, "get",
                    out -> new Cassandra.get_result().setNfe(new NotFoundException()).write(out));
            assertNull(codec06.receiveGet(c), which + ": an absent column is null");

            codec06.sendGet(c, "k", path);
            reply(TMessageType.REPLY, 3, "get", out -> new Cassandra.get_result()
                    .setIre(new InvalidRequestException("no such column family")).write(out));
            assertEquals("no such column family",
                    assertThrows(InvalidRequestException.class, () -> codec06.receiveGet(c)).getWhy(), which);

            codec06.sendGet(c, "k", path);
            reply(TMessageType.REPLY, 4, "get", out -> new Cassandra.get_result().write(out));
            assertEquals(TApplicationException.MISSING_RESULT,
                    assertThrows(TApplicationException.class, () -> codec06.receiveGet(c)).getType(), which);

            codec06.sendGet(c, "k", path);
            reply(TMessageType.REPLY, 99, "get",
                    out -> new Cassandra.get_result().setNfe(new NotFoundException()).write(out));
            assertEquals(TApplicationException.BAD_SEQUENCE_ID,
                    assertThrows(TApplicationException.class, () -> codec06.receiveGet(c)).getType(), which);
            replies.read(new byte[64], 0, 64); // what was left of that reply; a connection would be dropped
            readCalls(5);
        }
    }

    /** Reads and drops {@code n} calls sent. */
    private void readCalls(int n) throws TException {
        TProtocol in = new TBinaryProtocol(requests);
        for (int i = 0; i < n; i++) {
            in.readMessageBegin();
            TProtocolUtil.skip(in, TType.STRUCT);
            in.readMessageEnd();
        }
    }

    @Test
    void structsInsideTheCallsDecodeToWhatWasSent() throws TException {
        ColumnParent parent = new ColumnParent("Super1").setSuper_column(new byte[] {'S', '1'});
        SlicePredicate predicate = Predicates.first(3);
        codec.sendGetSlice(client, "k", parent, predicate);
        TProtocol in = new TBinaryProtocol(requests);
        in.readMessageBegin();
        in.readStructBegin();
        assertEquals("k", keyField(in));
        assertEquals(parent, structField(in, new ColumnParent()));
        assertEquals(predicate, structField(in, new SlicePredicate()));
        assertEquals(4, in.readFieldBegin().id);
        assertEquals(ConsistencyLevel.QUORUM.getValue(), in.readI32());
        in.readFieldEnd();
        assertEquals(TType.STOP, in.readFieldBegin().type);
        in.readStructEnd();
        in.readMessageEnd();

        Map<String, Map<String, List<Mutation>>> mutations = mutations(11, "0000000001", "0000000002");
        codec.sendBatchMutate(client, mutations);
        in.readMessageBegin();
        in.readStructBegin();
        TField field = in.readFieldBegin();
        assertEquals(1, field.id);
        // map<binary, map<string, list<Mutation>>>
        TMap rows = in.readMapBegin();
        assertEquals(TType.STRING, rows.keyType);
        assertEquals(TType.MAP, rows.valueType);
        Map<String, Map<String, List<Mutation>>> read = new LinkedHashMap<>();
        for (int i = 0; i < rows.size; i++) {
            ByteBuffer key = in.readBinary();
            TMap families = in.readMapBegin();
            assertEquals(TType.STRING, families.keyType);
            assertEquals(TType.LIST, families.valueType);
            Map<String, List<Mutation>> byFamily = new LinkedHashMap<>();
            for (int j = 0; j < families.size; j++) {
                String family = in.readString();
                TList list = in.readListBegin();
                assertEquals(TType.STRUCT, list.elemType);
                List<Mutation> ms = new ArrayList<>();
                for (int k = 0; k < list.size; k++) {
                    Mutation m = new Mutation();
                    m.read(in);
                    ms.add(m);
                }
                byFamily.put(family, ms);
            }
            read.put(StandardCharsets.UTF_8.decode(key).toString(), byFamily);
        }
        assertEquals(mutations, read);
    }

    /** A batch of a column C0 in each of the rows {@code keys} of Standard1. */
    private static Map<String, Map<String, List<Mutation>>> mutations(long timestamp, String... keys) {
        BatchMutation batch = new BatchMutation(timestamp);
        for (int i = 0; i < keys.length; i++) {
            batch.row("Standard1", keys[i]).put(new byte[] {'C', '0'}, new byte[] {(byte) i});
        }
        return batch.toThrift();
    }

    /** Writes a reply message whose result struct {@code body} writes. */
    /** Reads a call's next argument, the row key: a string field. */
    private static String keyField(TProtocol in) throws TException {
        assertEquals(TType.STRING, in.readFieldBegin().type);
        String key = in.readString();
        in.readFieldEnd();
        return key;
    }

    /** Reads a call's next argument, a struct, into {@code into}. */
    private static <T extends TBase<?, ?>> T structField(TProtocol in, T into) throws TException {
        assertEquals(TType.STRUCT, in.readFieldBegin().type);
        into.read(in);
        in.readFieldEnd();
        return into;
    }

    private void reply(byte type, int seqid, String name, ThriftWriter body) throws TException {
        TProtocol out = new TBinaryProtocol(replies);
        out.writeMessageBegin(new TMessage(name, type, seqid));
        body.write(out);
        out.writeMessageEnd();
    }

    @FunctionalInterface
    private interface ThriftWriter {
        void write(TProtocol out) throws TException;
    }

    @Test
    void repliesIn311sShapesAreRead() throws TException {
        codec.sendGetSlice(client, "k", new ColumnParent("Standard1"), Predicates.first(1));
        // A column as 3.11 returns it: with its optional 4: i32 ttl, which 0.6 does not know.
        reply(TMessageType.REPLY, 1, "get_slice", out -> {
            out.writeStructBegin(new TStruct("get_slice_result"));
            out.writeFieldBegin(new TField("success", TType.LIST, (short) 0));
            out.writeListBegin(new TList(TType.STRUCT, 1));
            out.writeStructBegin(new TStruct("ColumnOrSuperColumn"));
            out.writeFieldBegin(new TField("column", TType.STRUCT, (short) 1));
            out.writeStructBegin(new TStruct("Column"));
            out.writeFieldBegin(new TField("name", TType.STRING, (short) 1));
            out.writeBinary(ByteBuffer.wrap(new byte[] {'C', '0'}));
            out.writeFieldEnd();
            out.writeFieldBegin(new TField("value", TType.STRING, (short) 2));
            out.writeBinary(ByteBuffer.wrap(new byte[] {9}));
            out.writeFieldEnd();
            out.writeFieldBegin(new TField("timestamp", TType.I64, (short) 3));
            out.writeI64(77);
            out.writeFieldEnd();
            out.writeFieldBegin(new TField("ttl", TType.I32, (short) 4));
            out.writeI32(3600);
            out.writeFieldEnd();
            out.writeFieldStop();
            out.writeStructEnd();
            out.writeFieldEnd();
            out.writeFieldStop();
            out.writeStructEnd();
            out.writeListEnd();
            out.writeFieldEnd();
            out.writeFieldStop();
            out.writeStructEnd();
        });
        List<ColumnOrSuperColumn> row = codec.receiveGetSlice(client);
        assertEquals(List.of(new ColumnOrSuperColumn().setColumn(
                new Column().setName(new byte[] {'C', '0'}).setValue(new byte[] {9}).setTimestamp(77))), row);

        // 3.11's TimedOutException has fields 0.6's has not (1: i32 acknowledged_by, ...).
        codec.sendBatchMutate(client, Map.of());
        reply(TMessageType.REPLY, 2, "batch_mutate", out -> {
            out.writeStructBegin(new TStruct("batch_mutate_result"));
            out.writeFieldBegin(new TField("te", TType.STRUCT, (short) 3));
            out.writeStructBegin(new TStruct("TimedOutException"));
            out.writeFieldBegin(new TField("acknowledged_by", TType.I32, (short) 1));
            out.writeI32(0);
            out.writeFieldEnd();
            out.writeFieldStop();
            out.writeStructEnd();
            out.writeFieldEnd();
            out.writeFieldStop();
            out.writeStructEnd();
        });
        assertThrows(TimedOutException.class, () -> codec.receiveBatchMutate(client));

        codec.handshake().send(client);
        reply(TMessageType.REPLY, 3, "set_keyspace", out -> {
            out.writeStructBegin(new TStruct("set_keyspace_result"));
            out.writeFieldBegin(new TField("ire", TType.STRUCT, (short) 1));
            new InvalidRequestException("Keyspace 'Keyspace1' does not exist").write(out);
            out.writeFieldEnd();
            out.writeFieldStop();
            out.writeStructEnd();
        });
        InvalidRequestException refused = assertThrows(InvalidRequestException.class,
                () -> codec.handshake().receive(client));
        assertEquals("Keyspace 'Keyspace1' does not exist", refused.getWhy());
    }

    @Test
    void aReplyToAnotherCallOrAnExceptionMessageIsAFailure() throws TException {
        codec.sendBatchMutate(client, Map.of());
        reply(TMessageType.REPLY, 99, "batch_mutate", out -> {
            out.writeStructBegin(new TStruct("batch_mutate_result"));
            out.writeFieldStop();
            out.writeStructEnd();
        });
        TApplicationException wrong = assertThrows(TApplicationException.class,
                () -> codec.receiveBatchMutate(client));
        assertEquals(TApplicationException.BAD_SEQUENCE_ID, wrong.getType());
        replies.read(new byte[64], 0, 64); // what was left of that reply; a connection would be dropped

        codec.sendBatchMutate(client, Map.of());
        reply(TMessageType.EXCEPTION, 2, "batch_mutate",
                out -> new TApplicationException(TApplicationException.INTERNAL_ERROR, "boom").write(out));
        TApplicationException failed = assertThrows(TApplicationException.class,
                () -> codec.receiveBatchMutate(client));
        assertEquals("boom", failed.getMessage());

        codec.sendGetSlice(client, "k", new ColumnParent("Standard1"), Predicates.first(1));
        reply(TMessageType.REPLY, 3, "get_slice", out -> {
            out.writeStructBegin(new TStruct("get_slice_result"));
            out.writeFieldStop();
            out.writeStructEnd();
        });
        assertEquals(TApplicationException.MISSING_RESULT,
                assertThrows(TApplicationException.class, () -> codec.receiveGetSlice(client)).getType());
    }

    // ---- the command line ----

    private record Run(int status, String out, String err) {
    }

    private static Run stress(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Stress.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void dialectOptionIsDocumentedAndRefusesWhat07CannotSay() {
        Run help = stress("--help");
        assertEquals(0, help.status());
        assertTrue(help.out().contains("--dialect D"), help.out());
        assertTrue(help.out().contains("0.7: those of Cassandra 0.7 to 3.11"), help.out());

        Run unframed = stress("--dialect", "0.7", "-n", "10");
        assertEquals(2, unframed.status());
        assertEquals("stress: --dialect 0.7 needs --framed: Cassandra 0.7 to 3.11 speak framed Thrift only "
                + "(--help shows the usage)\n", unframed.err());

        Run zero = stress("--dialect", "0.7", "--framed", "-e", "ZERO", "-n", "10");
        assertEquals(2, zero.status());
        assertTrue(zero.err().startsWith("stress: --dialect 0.7 takes consistency ONE, QUORUM, ALL or ANY, "
                + "not ZERO"), zero.err());

        Run unknown = stress("--dialect", "0.8");
        assertEquals(2, unknown.status());
        assertTrue(unknown.err().startsWith("stress: unknown dialect '0.8'"), unknown.err());
    }

    @Test
    void thePlainCallsTakeOneColumn() {
        Run help = stress("--help");
        assertTrue(help.out().contains("insert_column is the plain"), help.out());
        for (String op : List.of("insert_column", "get_column")) {
            Run columns = stress("-o", op, "-c", "5", "-n", "10");
            assertEquals(2, columns.status(), columns.out());
            assertEquals("stress: -o " + op + " sends one column per call; -c must be 1, not 5 "
                    + "(--help shows the usage)\n", columns.err());
            Run supers = stress("-o", op, "-y", "super", "--supers", "2", "-n", "10");
            assertEquals(2, supers.status(), supers.out());
            assertTrue(supers.err().startsWith("stress: -o " + op + " sends one column per call; --supers must be "
                    + "1, not 2"), supers.err());
        }
    }

    // ---- whole runs against a 3.11 stand-in ----

    private static Run stress07(Fake07Server server, String... args) {
        List<String> all = new ArrayList<>(List.of("--dialect", "0.7", "--framed", "-h", "127.0.0.1", "-p",
                String.valueOf(server.port()), "--seed", "7"));
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--event-loops") && args[i + 1].equals("0")) {
                i++; // 0 here: a thread per connection, which is bin/stress without the option
            } else {
                all.add(args[i]);
            }
        }
        return stress(all.toArray(String[]::new));
    }

    @Test
    void bothClientModesSetTheKeyspaceOncePerConnectionThenWriteAndReadBack() throws Exception {
        try (Fake07Server server = new Fake07Server(0)) {
            Run insert = stress07(server, "-n", "600", "-t", "3", "-c", "4");
            assertEquals(0, insert.status(), insert.out() + insert.err());
            assertTrue(insert.out().contains("dialect 0.7"), insert.out());
            assertEquals(600, server.data().rowCount(FakeCassandra.KEYSPACE, "Standard1"));
            assertEquals(2400, server.data().columnCount(FakeCassandra.KEYSPACE, "Standard1"));
            assertEquals(3, server.keyspacesSet());

            Run loops = stress07(server, "-o", "read", "-n", "600", "-t", "4", "-c", "4", "--count", "300",
                    "--verify", "--event-loops", "2");
            assertEquals(0, loops.status(), loops.out() + loops.err());
            assertTrue(loops.out().contains("Verify: 0 mismatched columns, 0 missing rows"), loops.out());
            assertEquals(3 + 4, server.keyspacesSet());

            for (String op : List.of("multiget", "range_slice", "mixed")) {
                for (String loopCount : List.of("0", "1")) {
                    Run r = stress07(server, "-o", op, "-n", "600", "-t", "2", "-c", "4", "--count", "100",
                            "--verify", "--range-count", "5", "--event-loops", loopCount);
                    assertEquals(0, r.status(), op + " " + r.out() + r.err());
                    assertTrue(r.out().contains("Verify: 0 mismatched columns, 0 missing rows"), op + r.out());
                }
            }
            assertEquals(List.of(), server.violations());
            assertEquals(server.connectionsAccepted(), server.keyspacesSet());
        }
    }

    @Test
    void thePlainInsertAndGetRunInBothClientModesAndReadBackWhatWasWritten() throws Exception {
        try (Fake07Server server = new Fake07Server(0)) {
            for (String family : List.of("standard", "super")) {
                String cf = family.equals("super") ? "Super1" : "Standard1";
                Run insert = stress07(server, "-o", "insert_column", "-y", family, "-n", "300", "-t", "3");
                assertEquals(0, insert.status(), insert.out() + insert.err());
                assertTrue(insert.out().contains("Done: 300 insert_column operations"), insert.out());
                assertEquals(300, server.data().rowCount(FakeCassandra.KEYSPACE, cf));
                assertEquals(300, server.data().columnCount(FakeCassandra.KEYSPACE, cf), family);
                for (String loopCount : List.of("0", "2")) {
                    Run get = stress07(server, "-o", "get_column", "-y", family, "-n", "300", "-t", "4",
                            "--count", "200", "--verify", "--event-loops", loopCount);
                    assertEquals(0, get.status(), get.out() + get.err());
                    assertTrue(get.out().contains("Done: 200 get_column operations in"), get.out());
                    assertTrue(get.out().contains("Verify: 0 mismatched columns, 0 missing rows"), get.out());
                    // What get_slice of one column reads back is the same column.
                    Run read = stress07(server, "-o", "read", "-c", "1", "-y", family, "-n", "300", "-t", "2",
                            "--count", "100", "--verify", "--event-loops", loopCount);
                    assertTrue(read.out().contains("Verify: 0 mismatched columns, 0 missing rows"), read.out());
                }
                // Keys never written: the get answers NotFoundException, a missing row, not an error.
                Run beyond = stress07(server, "-o", "get_column", "-y", family, "-n", "400", "-t", "2",
                        "--distribution", "sequential", "--verify");
                assertEquals(0, beyond.status(), beyond.out() + beyond.err());
                assertTrue(beyond.out().contains("Verify: 0 mismatched columns, 100 missing rows"), beyond.out());
                assertTrue(beyond.out().contains(", 0 errors"), beyond.out());
            }
            assertEquals(List.of(), server.violations());
        }
    }

    @Test
    void aReopenedConnectionSetsItsKeyspaceAgain() throws Exception {
        // The stand-in hangs up at every connection's 20th call (the handshake is the first).
        try (Fake07Server server = new Fake07Server(20)) {
            for (String loopCount : List.of("0", "1")) {
                Run r = stress07(server, "-n", "100000", "-t", "2", "-d", "1.5", "--event-loops", loopCount,
                        "--timeout", "2");
                assertEquals(1, r.status(), "the hang-ups are errors");
                // Every reopened connection was usable: 18 operations succeeded on each, none refused for want of a
                // keyspace ("You have not set a keyspace" would be the first error).
                assertTrue(r.out().contains("First error: batch_mutate in Keyspace1 (1 rows): connection failed"),
                        r.out());
                assertTrue(server.connectionsAccepted() > 4, "connections: " + server.connectionsAccepted() + r.out() + r.err());
            }
            assertEquals(server.connectionsAccepted(), server.keyspacesSet());
            assertEquals(List.of(), server.violations());
        }
    }

    @Test
    void anUnknownKeyspaceStopsTheRunBeforeItStarts() throws Exception {
        try (Fake07Server server = new Fake07Server(0)) {
            for (String loopCount : List.of("0", "1")) {
                Run r = stress07(server, "-K", "Nowhere", "-n", "10", "-t", "2", "--event-loops", loopCount);
                assertEquals(2, r.status(), r.out() + r.err());
                assertTrue(r.err().startsWith("stress: cannot start: set_keyspace Nowhere: invalid request: "
                        + "Keyspace 'Nowhere' does not exist"), loopCount + ": " + r.err());
            }
        }
    }
}
