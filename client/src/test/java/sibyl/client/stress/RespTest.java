package sibyl.client.stress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;
import sibyl.client.ClientException;
import sibyl.client.HostAddress;

/**
 * bin/stress --redis on the wire: the commands as RESP2 encodes them, replies of every RESP2 type read whole, in
 * pieces (as an event loop sees them arrive) and refused when malformed, and the codec's SET and GET.
 */
class RespTest {
    private static final HostAddress HOST = new HostAddress("127.0.0.1", 6379);

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    private static RespReply read(String bytes) throws TException {
        TMemoryInputTransport in = new TMemoryInputTransport(ascii(bytes));
        RespReply reply = new RespReader(1024).read(in);
        assertEquals(0, in.getBytesRemainingInBuffer(), "the whole reply and nothing more was read: " + bytes);
        return reply;
    }

    @Test
    void commandsAreArraysOfBulkStrings() {
        assertEquals("*3\r\n$3\r\nSET\r\n$10\r\n0000000042\r\n$5\r\nv\r\nxy\r\n",
                text(RespCommand.encode(ascii("SET"), ascii("0000000042"), ascii("v\r\nxy"))));
        assertEquals("*2\r\n$3\r\nGET\r\n$0\r\n\r\n", text(RespCommand.encode(ascii("GET"), new byte[0])));
        assertEquals("*1\r\n$6\r\nDBSIZE\r\n", text(RespCommand.encode(ascii("DBSIZE"))));
        byte[] big = new byte[12345];
        Arrays.fill(big, (byte) 'x');
        byte[] encoded = RespCommand.encode(ascii("SET"), ascii("k"), big);
        assertTrue(text(encoded).startsWith("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$12345\r\nxxx"), text(encoded));
        assertEquals(4 + 9 + 7 + 8 + 12345 + 2, encoded.length);
        assertTrue(text(encoded).endsWith("x\r\n"));
    }

    @Test
    void everyReplyTypeIsRead() throws TException {
        assertEquals(new RespReply.SimpleString("OK"), read("+OK\r\n"));
        assertEquals(new RespReply.ErrorReply("ERR unknown command 'FOO'"), read("-ERR unknown command 'FOO'\r\n"));
        assertEquals(new RespReply.IntegerReply(1000), read(":1000\r\n"));
        assertEquals(new RespReply.IntegerReply(-3), read(":-3\r\n"));
        assertEquals(new RespReply.IntegerReply(Long.MIN_VALUE + 1), read(":-9223372036854775807\r\n"));
        assertEquals("a\r\nb", text(((RespReply.BulkString) read("$4\r\na\r\nb\r\n")).bytes()),
                "a bulk string is read by its length, CRLF inside it included");
        assertEquals(0, ((RespReply.BulkString) read("$0\r\n\r\n")).bytes().length);
        assertTrue(((RespReply.BulkString) read("$-1\r\n")).isNil(), "nil, GET's answer for a missing key");
        assertNull(((RespReply.ArrayReply) read("*-1\r\n")).elements());
        assertEquals(List.of(), ((RespReply.ArrayReply) read("*0\r\n")).elements());
        List<RespReply> nested = ((RespReply.ArrayReply) read("*3\r\n:1\r\n*2\r\n+a\r\n$-1\r\n-E x\r\n")).elements();
        assertEquals(3, nested.size());
        assertEquals(new RespReply.IntegerReply(1), nested.get(0));
        List<RespReply> inner = ((RespReply.ArrayReply) nested.get(1)).elements();
        assertEquals(new RespReply.SimpleString("a"), inner.get(0));
        assertTrue(((RespReply.BulkString) inner.get(1)).isNil());
        assertEquals(new RespReply.ErrorReply("E x"), nested.get(2));
    }

    @Test
    void repliesFollowingEachOtherAreReadOneAtATime() throws TException {
        TMemoryInputTransport in = new TMemoryInputTransport(ascii("+OK\r\n$2\r\nhi\r\n:7\r\n"));
        RespReader reader = new RespReader(1024);
        assertEquals(new RespReply.SimpleString("OK"), reader.read(in));
        assertEquals("hi", text(((RespReply.BulkString) reader.read(in)).bytes()));
        assertEquals(new RespReply.IntegerReply(7), reader.read(in));
    }

    /**
     * An event loop reads what has arrived so far and, when the reply is not whole, waits for more and reads again
     * from its start (LoopConnection): every cut of a reply must end in the transport running dry, never in a
     * protocol error or a wrong reply.
     */
    @Test
    void aReplyCutAnywhereRunsOutOfBytesAndThenReadsWhole() throws TException {
        for (String reply : List.of("+OK\r\n", "-WRONGTYPE Operation against a key\r\n", ":12345\r\n",
                "$34\r\nabcdefghijklmnopqrstuvwxyzABCDEFGH\r\n", "$-1\r\n", "$0\r\n\r\n",
                "*2\r\n$3\r\nfoo\r\n*1\r\n:-1\r\n", "*-1\r\n")) {
            byte[] whole = ascii(reply);
            RespReader reader = new RespReader(1024);
            for (int cut = 0; cut < whole.length; cut++) {
                TMemoryInputTransport part = new TMemoryInputTransport(Arrays.copyOf(whole, cut));
                assertThrows(TTransportException.class, () -> reader.read(part), reply + " cut at " + cut);
                assertEquals(0, part.getBytesRemainingInBuffer(), "every byte that arrived was used: " + cut);
            }
            assertEquals(RespReply.describe(read(reply)),
                    RespReply.describe(reader.read(new TMemoryInputTransport(whole))), reply);
        }
    }

    @Test
    void malformedRepliesAreProtocolErrors() {
        for (String bad : List.of("OK\r\n", "+OK\n", "+OK\rx", "$abc\r\n", "$\r\n", ":12a\r\n", "$-2\r\n",
                "$3\r\nabcde\r\n", ":99999999999999999999\r\n", "*-5\r\n", "$2000\r\n")) {
            TProtocolException e = assertThrows(TProtocolException.class, () -> read(bad), bad);
            assertFalse(e.getMessage().isEmpty());
        }
        TProtocolException tooLong = assertThrows(TProtocolException.class, () -> read("$2000\r\n"));
        assertEquals("a bulk string of 2000 bytes (at most 1024 are accepted)", tooLong.getMessage());
        String longLine = "+" + "x".repeat(RespReader.MAX_LINE_BYTES + 1) + "\r\n";
        assertThrows(TProtocolException.class, () -> read(longLine));
        assertThrows(TProtocolException.class, () -> read("*1\r\n".repeat(40) + ":1\r\n"), "nested too deep");
    }

    // ---- the codec ----

    private final TMemoryBuffer requests;
    private final TMemoryBuffer replies;
    /** The codec writes to and reads from a generated client's transports, as bin/stress hands them to it. */
    private final Cassandra.Client client;
    private final RespCodec codec = new RespCodec();
    private final ColumnPath c0 = new ColumnPath("Standard1").setColumn(Payload.columnName(0));

    RespTest() throws TException {
        requests = new TMemoryBuffer(4096); // its initial size is also the most it lets be read
        replies = new TMemoryBuffer(4096);
        client = new Cassandra.Client(new TBinaryProtocol(replies), new TBinaryProtocol(requests));
    }

    private String sent() throws TTransportException {
        byte[] b = new byte[requests.length()];
        requests.read(b, 0, b.length);
        return text(b);
    }

    private void reply(String bytes) throws TTransportException {
        replies.write(ascii(bytes));
    }

    @Test
    void theInsertIsASetOfTheKeyToTheValueOfColumnC0() throws TException {
        byte[] value = Payload.value(42, -1, 0, 34);
        codec.sendInsert(client, Payload.key(42), c0, value, 1234);
        assertEquals("*3\r\n$3\r\nSET\r\n$10\r\n0000000042\r\n$34\r\n" + text(value) + "\r\n", sent());
        reply("+OK\r\n");
        codec.receiveInsert(client);

        codec.sendInsert(client, "k", c0, new byte[] {'v'}, 1);
        reply("-OOM command not allowed when used memory > 'maxmemory'.\r\n");
        RedisErrorReply refused = assertThrows(RedisErrorReply.class, () -> codec.receiveInsert(client));
        assertEquals("OOM command not allowed when used memory > 'maxmemory'.", refused.getMessage());

        codec.sendInsert(client, "k", c0, new byte[] {'v'}, 1);
        reply("$-1\r\n");
        TProtocolException odd = assertThrows(TProtocolException.class, () -> codec.receiveInsert(client));
        assertEquals("SET was answered $-1, which Redis never answers it", odd.getMessage());
    }

    @Test
    void theGetIsAGetOfTheKeyAnsweredAsColumnC0OrNotFound() throws TException {
        codec.sendGet(client, Payload.key(7), c0);
        assertEquals("*2\r\n$3\r\nGET\r\n$10\r\n0000000007\r\n", sent());
        reply("$3\r\nabc\r\n");
        ColumnOrSuperColumn read = codec.receiveGet(client);
        assertArrayEquals(Payload.columnName(0), read.getColumn().getName());
        assertEquals("abc", text(read.getColumn().getValue()));

        codec.sendGet(client, Payload.key(8), c0);
        reply("$-1\r\n");
        assertNull(codec.receiveGet(client), "nil: no such key");

        codec.sendGet(client, Payload.key(9), c0);
        reply("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        RedisErrorReply refused = assertThrows(RedisErrorReply.class, () -> codec.receiveGet(client));
        assertEquals("WRONGTYPE Operation against a key holding the wrong kind of value", refused.getMessage());

        codec.sendGet(client, Payload.key(9), c0);
        reply("+OK\r\n");
        assertThrows(TProtocolException.class, () -> codec.receiveGet(client));
    }

    /** An error reply is the server refusing one command; a reply out of protocol means the connection is lost. */
    @Test
    void anErrorReplyKeepsTheConnectionAndABrokenReplyDropsIt() {
        ClientException refused = ClientException.wrap("GET 0000000001", new RedisErrorReply("ERR no"), HOST);
        assertEquals(ClientException.Kind.SERVER_ERROR, refused.kind());
        assertFalse(refused.brokeConnection());
        assertEquals("GET 0000000001: server error: ERR no", refused.getMessage());
        ClientException broken = ClientException.wrap("GET 0000000001", new TProtocolException("x"), HOST);
        assertTrue(broken.brokeConnection());
        assertInstanceOf(TProtocolException.class, broken.getCause());
    }

    @Test
    void theCallsRedisHasNotAreNeverMade() {
        assertThrows(UnsupportedOperationException.class, () -> codec.sendBatchMutate(client, java.util.Map.of()));
        assertThrows(UnsupportedOperationException.class, () -> codec.receiveGetSlice(client));
        assertNull(codec.handshake());
    }
}
