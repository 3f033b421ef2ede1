package sibyl.client.stress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.thrift.TException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import sibyl.client.ClientException;
import sibyl.client.HostAddress;

/** The blocking connection of a thread-per-connection run, against a server that misbehaves on cue. */
class BlockingConnectionTest {
    private static final ColumnPath C0 = new ColumnPath("Standard1").setColumn(Payload.columnName(0));
    private static final Pattern DONE = Pattern.compile("Done: (\\d+) \\w+ operations in .*, (\\d+) errors");

    /** A get whose reply it keeps. */
    private static final class Get implements StressCall {
        ColumnOrSuperColumn read;

        @Override
        public String operation() {
            return "get of k";
        }

        @Override
        public void send(Cassandra.Client client) throws TException {
            client.send_get("Keyspace1", "k", C0, ConsistencyLevel.ONE);
        }

        @Override
        public void receive(Cassandra.Client client) throws TException {
            read = client.recv_get();
        }
    }

    private static final StressCall INSERT = new StressCall() {
        @Override
        public String operation() {
            return "insert of k";
        }

        @Override
        public void send(Cassandra.Client client) throws TException {
            client.send_insert("Keyspace1", "k", C0, ByteBuffer.wrap(new byte[] {1}), 1, ConsistencyLevel.ONE);
        }

        @Override
        public void receive(Cassandra.Client client) throws TException {
            client.recv_insert();
        }
    };

    private static BlockingConnection connection(ScriptedServer server, boolean framed) {
        return new BlockingConnection(List.of(new HostAddress("127.0.0.1", server.port())), framed, 1 << 20, 5_000,
                null);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aReplyThatArrivesInPiecesIsReadWhole(boolean framed) throws Exception {
        try (ScriptedServer server = new ScriptedServer(framed, request -> ScriptedServer.Action.REPLY_IN_PIECES)) {
            BlockingConnection c = connection(server, framed);
            c.ensureOpen();
            for (int i = 0; i < 3; i++) {
                Get get = new Get();
                c.call(get, System.nanoTime());
                assertArrayEquals(ScriptedServer.VALUE, get.read.getColumn().getValue(), "call " + i);
                c.call(INSERT, System.nanoTime());
            }
            assertTrue(c.isOpen());
            assertEquals(1, server.accepted(), "one connection for every call");
            c.finish();
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aServerThatClosesMidReplyBreaksTheCallAndTheNextOneReconnects(boolean framed) throws Exception {
        try (ScriptedServer server = new ScriptedServer(framed, request -> request == 1
                ? ScriptedServer.Action.CLOSE_MID_REPLY : ScriptedServer.Action.REPLY)) {
            BlockingConnection c = connection(server, framed);
            c.ensureOpen();
            c.call(new Get(), System.nanoTime());
            ClientException e = assertThrows(ClientException.class, () -> c.call(new Get(), System.nanoTime()));
            assertEquals(ClientException.Kind.CONNECTION, e.kind(), e.getMessage());
            assertTrue(e.getMessage().startsWith("get of k: connection failed: 127.0.0.1:" + server.port()),
                    e.getMessage());
            assertFalse(c.isOpen(), "a broken connection is closed");
            c.ensureOpen();
            Get get = new Get();
            c.call(get, System.nanoTime());
            assertArrayEquals(ScriptedServer.VALUE, get.read.getColumn().getValue());
            assertEquals(2, server.accepted());
            c.finish();
        }
    }

    @Test
    void aRefusalKeepsTheConnection() throws Exception {
        try (ScriptedServer server = new ScriptedServer(false, request -> request == 0
                ? ScriptedServer.Action.REFUSE : ScriptedServer.Action.REPLY)) {
            BlockingConnection c = connection(server, false);
            c.ensureOpen();
            ClientException e = assertThrows(ClientException.class, () -> c.call(INSERT, System.nanoTime()));
            assertEquals(ClientException.Kind.INVALID_REQUEST, e.kind());
            assertEquals("refused by the script", e.why());
            assertTrue(c.isOpen());
            c.call(INSERT, System.nanoTime());
            assertEquals(1, server.accepted());
            c.finish();
        }
    }

    @Test
    @Timeout(60) // without the timeout thread the call would wait for ever
    void aCallWithoutReplyIsGivenUpAfterTheTimeoutAndTheNextOneReconnects() throws Exception {
        try (ScriptedServer server = new ScriptedServer(false, request -> request == 1
                ? ScriptedServer.Action.SILENT : ScriptedServer.Action.REPLY)) {
            BlockingConnection c = connection(server, false);
            c.ensureOpen();
            Thread timeouts = new Thread(new CallTimeouts(List.of(c), 1));
            timeouts.start();
            c.call(INSERT, System.nanoTime()); // answered well within the timeout: not given up
            long start = System.nanoTime();
            ClientException e = assertThrows(ClientException.class, () -> c.call(INSERT, start));
            long waitedMillis = (System.nanoTime() - start) / 1_000_000;
            assertEquals(ClientException.Kind.READ_TIMEOUT, e.kind(), e.getMessage());
            assertEquals("insert of k: no reply in time: no reply from 127.0.0.1:" + server.port(), e.getMessage());
            assertTrue(waitedMillis >= 1_000, "given up after " + waitedMillis + " ms");
            assertTrue(waitedMillis < 1_000 + 20 * CallTimeouts.CHECK_MILLIS, "given up after " + waitedMillis
                    + " ms");
            assertFalse(c.isOpen());
            c.ensureOpen();
            c.call(INSERT, System.nanoTime());
            assertEquals(2, server.accepted());
            c.finish();
            timeouts.join(10_000);
            assertFalse(timeouts.isAlive(), "the timeout thread ends when its connections are done");
        }
    }

    @Test
    void connectingTriesTheHostsInOrderAndNamesEveryFailure() throws Exception {
        int down;
        try (ServerSocket s = new ServerSocket(0)) {
            down = s.getLocalPort();
        }
        HostAddress absent = new HostAddress("127.0.0.1", down);
        BlockingConnection none = new BlockingConnection(List.of(absent), false, 1 << 20, 5_000, null);
        ClientException e = assertThrows(ClientException.class, none::ensureOpen);
        assertEquals(ClientException.Kind.CONNECTION, e.kind());
        assertTrue(e.getMessage().startsWith("connect: connection failed: no host could be reached: 127.0.0.1:"
                + down + ": "), e.getMessage());
        try (ScriptedServer server = new ScriptedServer(false, request -> ScriptedServer.Action.REPLY)) {
            BlockingConnection c = new BlockingConnection(List.of(absent, new HostAddress("127.0.0.1",
                    server.port())), false, 1 << 20, 5_000, null);
            c.ensureOpen();
            c.call(INSERT, System.nanoTime());
            assertEquals(1, server.accepted());
            c.finish();
        }
    }

    @Test
    void aStressThreadCountsABrokenCallAndGoesOnOnANewConnection() throws Exception {
        try (ScriptedServer server = new ScriptedServer(false, request -> request == 5
                ? ScriptedServer.Action.CLOSE_MID_REPLY : ScriptedServer.Action.REPLY)) {
            String out = stress(server, "-o", "insert_column", "--count", "20");
            assertEquals(List.of(19L, 1L), done(out), out);
            assertTrue(out.contains("First error: insert into Keyspace1.Standard1 key '0000000005': connection "
                    + "failed: 127.0.0.1:" + server.port()), out);
            assertEquals(2, server.accepted());
            assertEquals(20, server.requests());
        }
    }

    @Test
    @Timeout(60)
    void aStressThreadGivesUpACallAfterTimeoutAndGoesOn() throws Exception {
        try (ScriptedServer server = new ScriptedServer(false, request -> request == 3
                ? ScriptedServer.Action.SILENT : ScriptedServer.Action.REPLY)) {
            String out = stress(server, "-o", "insert_column", "--count", "10", "--timeout", "1");
            assertEquals(List.of(9L, 1L), done(out), out);
            assertTrue(out.contains("First error: insert into Keyspace1.Standard1 key '0000000003': no reply in "
                    + "time: no reply from 127.0.0.1:" + server.port()), out);
            assertEquals(2, server.accepted());
        }
    }

    private static String stress(ScriptedServer server, String... args) throws IOException {
        String[] all = new String[args.length + 8];
        System.arraycopy(new String[] {"-h", "127.0.0.1", "-p", String.valueOf(server.port()), "-t", "1", "-n",
            "100"}, 0, all, 0, 8);
        System.arraycopy(args, 0, all, 8, args.length);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = Stress.run(all, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(1, status, "errors fail the run: " + text);
        return text;
    }

    /** Operations and errors of the summary line. */
    private static List<Long> done(String out) {
        Matcher m = DONE.matcher(out);
        assertTrue(m.find(), out);
        return List.of(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
    }
}
