package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.cassandra.thrift.Cassandra;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Bad bytes sent to a real node close that one connection; a well-behaved client that
 * connected before the abuse keeps being served, on the same connection.
 */
class HostileInputTest {
    @RegisterExtension
    static final NodeExtension NODE = NodeExtension.embedded();
    @NodeExtension.Connected(framed = true)
    static Cassandra.Client bystander;

    @BeforeAll
    static void bystanderIsServed() throws Exception {
        assertEquals("2.2.0", bystander.describe_version());
    }

    /** Sends {@code bytes}, optionally half-closes, and asserts the server closes the connection. */
    private static void assertClosedAfter(byte[] bytes, boolean halfClose) throws Exception {
        try (Socket s = new Socket("127.0.0.1", NODE.node().port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(bytes);
            out.flush();
            if (halfClose) s.shutdownOutput();
            InputStream in = s.getInputStream();
            // A closed connection reads end-of-stream; nothing but a close is an acceptable answer.
            assertEquals(-1, in.read(), "the server closed the connection without replying");
        }
        assertEquals("2.2.0", bystander.describe_version());
        assertEquals("Test Cluster", NODE.node().client(false).describe_cluster_name());
    }

    @Test
    void httpRequestLine() throws Exception {
        assertClosedAfter("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII), false);
    }

    @Test
    void frameOfTwoGigabytes() throws Exception {
        assertClosedAfter(ByteBuffer.allocate(8).putInt(0x7fff_fff0).put(new byte[] {(byte) 0x80, 1, 0, 1}).array(), false);
    }

    @Test
    void stringLongerThanTheFrame() throws Exception {
        // frame of 20 bytes: strict header "get_slice"... with a name length far beyond the frame
        ByteBuffer b = ByteBuffer.allocate(24);
        b.putInt(20).putInt(0x80010001).putInt(1_000_000).put("describe".getBytes(StandardCharsets.US_ASCII));
        assertClosedAfter(b.array(), false);
    }

    @Test
    void truncatedMessageThenClose() throws Exception {
        ByteBuffer b = ByteBuffer.allocate(4 + 4 + 15 + 4);
        b.putInt(0x80010001).putInt(15).put("describe_versio".getBytes(StandardCharsets.US_ASCII)).putInt(7);
        assertClosedAfter(b.array(), true);
    }

    @Test
    void randomBytes() throws Exception {
        java.util.Random r = new java.util.Random(42);
        for (int i = 0; i < 20; i++) {
            byte[] junk = new byte[64];
            r.nextBytes(junk);
            junk[0] = (byte) (0x90 | (junk[0] & 0x0f)); // top bit set and not a strict header: never Thrift
            assertClosedAfter(junk, false);
        }
    }
}
