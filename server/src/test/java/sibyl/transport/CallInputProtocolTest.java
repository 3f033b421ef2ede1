package sibyl.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.junit.jupiter.api.Test;

class CallInputProtocolTest {
    private static final int LIMIT = 1 << 20;

    private final TMemoryInputTransport input = newInput();
    private final CallInputProtocol protocol = new CallInputProtocol(input, LIMIT, LIMIT);

    private static TMemoryInputTransport newInput() {
        try {
            return new TMemoryInputTransport(new TConfiguration(), new byte[0]);
        } catch (TException e) {
            throw new AssertionError(e);
        }
    }

    private static byte[] encode(ThrowingWriter writer) throws TException {
        TMemoryBuffer buffer = new TMemoryBuffer(256);
        writer.write(new TBinaryProtocol(buffer));
        byte[] out = new byte[buffer.length()];
        System.arraycopy(buffer.getArray(), 0, out, 0, out.length);
        return out;
    }

    @FunctionalInterface
    private interface ThrowingWriter {
        void write(TProtocol out) throws TException;
    }

    private static byte[] insertCall(String keyspace, String key, String cf, byte[] column, byte[] value, long ts)
            throws TException {
        return encode(out -> {
            out.writeMessageBegin(new TMessage("insert", TMessageType.CALL, 7));
            new Cassandra.insert_args(keyspace, key, new ColumnPath(cf).setColumn(column), ByteBuffer.wrap(value), ts,
                    ConsistencyLevel.ONE).write(out);
            out.writeMessageEnd();
        });
    }

    private Cassandra.insert_args readInsert(byte[] message) throws TException {
        input.reset(message);
        TMessage header = protocol.readMessageBegin();
        assertEquals("insert", header.name);
        Cassandra.insert_args args = new Cassandra.insert_args();
        args.read(protocol);
        protocol.readMessageEnd();
        return args;
    }

    private static Cassandra.insert_args readInsertPlainly(byte[] message) throws TException {
        TBinaryProtocol plain = new TBinaryProtocol(new TMemoryInputTransport(message), LIMIT, LIMIT, false, true);
        plain.readMessageBegin();
        Cassandra.insert_args args = new Cassandra.insert_args();
        args.read(plain);
        return args;
    }

    @Test
    void decodesCallsAsTheBinaryProtocolDoes() throws TException {
        Random random = new Random(15);
        for (int i = 0; i < 500; i++) {
            String keyspace = random.nextInt(4) == 0 ? "Keyspace" + random.nextInt(3) : "Keyspace1";
            String key = randomString(random, random.nextInt(70));
            String cf = random.nextBoolean() ? "Standard1" : "Ünïcode" + random.nextInt(2);
            byte[] column = new byte[random.nextInt(20)];
            random.nextBytes(column);
            byte[] value = new byte[random.nextInt(100)];
            random.nextBytes(value);
            byte[] message = insertCall(keyspace, key, cf, column, value, random.nextLong());
            assertEquals(readInsertPlainly(message), readInsert(message), "call " + i);
        }
    }

    private static String randomString(Random random, int length) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < length; i++) {
            int kind = random.nextInt(10);
            s.append(kind == 0 ? (char) (0xa0 + random.nextInt(200)) : kind == 1 ? '€' : (char) ('!' + random.nextInt(90)));
        }
        return s.toString();
    }

    @Test
    void namesReadOnEveryCallAreTheSameStringsWhateverKeysComeBetween() throws TException {
        byte[] value = {1, 2, 3};
        Cassandra.insert_args first = readInsert(insertCall("Keyspace1", "k0", "Standard1", value, value, 1));
        for (int i = 1; i < 2000; i++) {
            Cassandra.insert_args args = readInsert(insertCall("Keyspace1", "key" + i, "Standard1", value, value, 1));
            assertSame(first.keyspace, args.keyspace, "call " + i);
            assertSame(first.column_path.column_family, args.column_path.column_family, "call " + i);
            assertEquals("key" + i, args.key);
        }
    }

    @Test
    void stringsThatDifferInTheirBytesAreNotTakenForEachOther() throws TException {
        List<String> all = new ArrayList<>();
        for (int i = 0; i < 3000; i++) all.add("n" + i);
        for (int round = 0; round < 3; round++) {
            for (String s : all) {
                input.reset(encode(out -> out.writeString(s)));
                assertEquals(s, protocol.readString());
            }
        }
        // the same length, one byte apart
        input.reset(encode(out -> out.writeString("Standard1")));
        String standard1 = protocol.readString();
        input.reset(encode(out -> out.writeString("Standard2")));
        assertEquals("Standard2", protocol.readString());
        input.reset(encode(out -> out.writeString("Standard1")));
        assertEquals(standard1, protocol.readString());
    }

    @Test
    void stringsTheCacheDoesNotTakeAreStillDecoded() throws TException {
        String nonAscii = "Kéyspace";
        String longName = "x".repeat(CallInputProtocol.CACHED_STRING_BYTES + 1);
        for (String s : List.of(nonAscii, longName, "", "€")) {
            input.reset(encode(out -> out.writeString(s)));
            String first = protocol.readString();
            input.reset(encode(out -> out.writeString(s)));
            String second = protocol.readString();
            assertEquals(s, first);
            assertEquals(s, second);
            if (!s.isEmpty() && (s.length() > CallInputProtocol.CACHED_STRING_BYTES || !isAscii(s))) {
                assertNotSame(first, second, s);
            }
        }
    }

    private static boolean isAscii(String s) {
        return StandardCharsets.US_ASCII.newEncoder().canEncode(s);
    }

    @Test
    void lengthsTheBinaryProtocolFailsOnFailAlike() throws TException {
        for (int length : new int[] {-1, -100, LIMIT + 1}) {
            byte[] bytes = encode(out -> {
                out.writeI32(length);
                out.writeString("abc");
            });
            TMemoryInputTransport plainInput = newInput();
            plainInput.reset(bytes);
            TBinaryProtocol plain = new TBinaryProtocol(plainInput, LIMIT, LIMIT, false, true);
            // libthrift 0.17 refuses some of these with a TProtocolException and fails on others (a negative
            // length reaches the String constructor); either way the two must fail alike
            Exception expected = assertThrows(Exception.class, plain::readString);
            input.reset(bytes);
            Exception actual = assertThrows(Exception.class, protocol::readString);
            assertEquals(expected.getClass(), actual.getClass());
            assertEquals(expected.getMessage(), actual.getMessage());
        }
    }

    @Test
    void aStringCutShortIsAnErrorAsInTheBinaryProtocol() throws TException {
        byte[] whole = encode(out -> out.writeString("Keyspace1"));
        byte[] cut = java.util.Arrays.copyOf(whole, whole.length - 2);
        input.reset(cut);
        assertThrows(TException.class, protocol::readString);
    }

    @Test
    void fieldHeadersCarryTheirTypeAndIdWhetherSharedOrNot() throws TException {
        short[] ids = {0, 1, 5, 63, 64, 1000, -1, Short.MIN_VALUE, Short.MAX_VALUE};
        byte[] types = {1, 2, 3, 4, 6, 8, 10, 11, 12, 13, 14, 15, 19, 20, 100, -5};
        for (byte type : types) {
            for (short id : ids) {
                byte[] bytes = encode(out -> out.writeFieldBegin(new TField("name", type, id)));
                input.reset(bytes);
                TField field = protocol.readFieldBegin();
                assertEquals(type, field.type);
                assertEquals(id, field.id);
                assertEquals("", field.name);
            }
        }
        input.reset(encode(TProtocol::writeFieldStop));
        assertEquals(0, protocol.readFieldBegin().type);
    }
}
