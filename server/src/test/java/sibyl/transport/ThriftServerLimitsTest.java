package sibyl.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TType;
import org.junit.jupiter.api.Test;
import sibyl.testing.LogCapture;

/** Input that is not Thrift or breaks the limits closes only its own connection, with one WARN line. */
class ThriftServerLimitsTest {

    @Test
    void garbageClosesOnlyItsConnection() throws Exception {
        long[] seeds = {1, 2, 3, 4, 5};
        try (TestServer server = new TestServer(); LogCapture log = new LogCapture(ThriftMessageDecoder.class)) {
            Cassandra.Client bystander = server.client(false, true);
            assertEquals(StubCassandra.VERSION, bystander.describe_version());
            List<byte[]> garbage = new ArrayList<>();
            for (long seed : seeds) {
                byte[] bytes = new byte[512];
                new Random(seed).nextBytes(bytes);
                garbage.add(bytes);
            }
            garbage.add("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            for (int i = 0; i < garbage.size(); i++) {
                RawClient raw = server.raw().send(garbage.get(i));
                raw.assertClosedByServer();
                String peer = raw.socket().getLocalSocketAddress().toString();
                int count = i + 1;
                Await.until("one warning per connection", () -> log.messages(Level.WARN).size() == count);
                String warning = log.messages(Level.WARN).get(i);
                assertTrue(warning.startsWith("Closing Thrift connection from " + peer + ": "), warning);
                assertEquals(StubCassandra.VERSION, bystander.describe_version());
            }
            assertTrue(log.messages(Level.WARN).get(seeds.length).contains("\"GET / HT\""));
        }
    }

    @Test
    void twoGigabyteFramesAreRefused() throws Exception {
        try (TestServer server = new TestServer(); LogCapture log = new LogCapture(ThriftMessageDecoder.class)) {
            // As the first frame: detection refuses it.
            server.raw().send(new WireBytes().i32(Integer.MAX_VALUE).strictHeader("m", TMessageType.CALL, 1).toArray())
                    .assertClosedByServer();
            server.raw().send(new WireBytes().i32(Integer.MIN_VALUE).strictHeader("m", TMessageType.CALL, 1).toArray())
                    .assertClosedByServer();
            // After a good frame: the frame length check refuses it.
            RawClient raw = server.raw();
            ThriftServerTest.assertDescribeVersionWorks(raw, true);
            raw.send(new WireBytes().i32(Integer.MAX_VALUE).strictHeader("m", TMessageType.CALL, 1).toArray())
                    .assertClosedByServer();
            Await.until("three warnings", () -> log.messages(Level.WARN).size() == 3);
            assertTrue(log.messages(Level.WARN).get(2).endsWith(
                    "frame length 2147483647 exceeds the 65536-byte message limit"), log.messages(Level.WARN).get(2));
        }
    }

    /** An empty frame (a framed transport flushed with nothing written) is passed over, as Cassandra's is. */
    @Test
    void emptyFramesArePassedOver() throws Exception {
        try (TestServer server = new TestServer(); LogCapture log = new LogCapture(ThriftMessageDecoder.class)) {
            RawClient raw = server.raw();
            ThriftServerTest.assertDescribeVersionWorks(raw, true);
            raw.send(new WireBytes().i32(0).i32(0).toArray());
            ThriftServerTest.assertDescribeVersionWorks(raw, true);
            // An empty frame and a call in one write, and an empty frame split across two.
            byte[] call = WireBytes.framed(WireBytes.call("describe_version", 42,
                    new Cassandra.describe_version_args(), true));
            raw.send(new WireBytes().i32(0).toArray()).send(new byte[] {0, 0}).send(new byte[] {0, 0});
            raw.send(call);
            Cassandra.describe_version_result result =
                    new Cassandra.describe_version_result();
            raw.readReply(true, result);
            assertEquals(StubCassandra.VERSION, result.getSuccess());
            raw.send(new WireBytes().i32(0).toArray());
            raw.close(); // as Hector closes its connections: an empty frame, then the close
            ThriftServerTest.assertDescribeVersionWorks(server.raw(), true);
            assertEquals(List.of(), log.messages(Level.WARN));
        }
    }

    @Test
    void messagesOverTheLimitAreRefused() throws Exception {
        try (TestServer server = new TestServer(); LogCapture log = new LogCapture(ThriftMessageDecoder.class)) {
            String property = "x".repeat(TestServer.MAX_MESSAGE_BYTES + 1 - ThriftServerTest.propertyCallOverhead());
            byte[] call = WireBytes.call("get_string_property", 1, new Cassandra.get_string_property_args(property), true);
            server.raw().send(call).assertClosedByServer();
            server.raw().send(WireBytes.framed(call)).assertClosedByServer();
            Await.until("two warnings", () -> log.messages(Level.WARN).size() == 2);
            // Everything fits but the STOP that ends the arguments, one byte past the limit.
            assertTrue(log.messages(Level.WARN).get(0).endsWith("message exceeds the 65536-byte limit"),
                    log.messages(Level.WARN).get(0));
            assertTrue(log.messages(Level.WARN).get(1).endsWith("65537 exceeds the 65536-byte message limit"),
                    log.messages(Level.WARN).get(1));
            assertEquals(0, server.stub.calls.get());
        }
    }

    @Test
    void aStringLongerThanTheLimitIsRefusedBeforeItsBytesArrive() throws Exception {
        try (TestServer server = new TestServer(); LogCapture log = new LogCapture(ThriftMessageDecoder.class)) {
            server.raw().send(new WireBytes().strictHeader("get_string_property", TMessageType.CALL, 1)
                    .field(TType.STRING, 1).i32(1_000_000_000).toArray()).assertClosedByServer();
            Await.until("a warning", () -> log.messages(Level.WARN).size() == 1);
            assertTrue(log.messages(Level.WARN).get(0).endsWith(
                    "declared string length 1000000000 at offset 34 exceeds the 65536-byte message limit"),
                    log.messages(Level.WARN).get(0));
        }
    }

    @Test
    void aStringLongerThanItsFrameIsRefused() throws Exception {
        try (TestServer server = new TestServer(); LogCapture log = new LogCapture(ThriftMessageDecoder.class)) {
            byte[] message = new WireBytes().strictHeader("get_string_property", TMessageType.CALL, 1)
                    .field(TType.STRING, 1).i32(1000).raw("abc".getBytes(StandardCharsets.UTF_8)).stop().toArray();
            server.raw().send(WireBytes.framed(message)).assertClosedByServer();
            Await.until("a warning", () -> log.messages(Level.WARN).size() == 1);
            assertTrue(log.messages(Level.WARN).get(0).endsWith("does not fit in its " + message.length + "-byte frame"),
                    log.messages(Level.WARN).get(0));
        }
    }

    @Test
    void aTruncatedMessageFollowedByCloseReachesNoHandler() throws Exception {
        try (TestServer server = new TestServer(); LogCapture log = new LogCapture(ThriftMessageDecoder.class)) {
            byte[] call = WireBytes.call("get_string_property", 1, new Cassandra.get_string_property_args("abc"), true);
            for (boolean framed : new boolean[] {false, true}) {
                byte[] bytes = framed ? WireBytes.framed(call) : call;
                RawClient raw = server.raw().send(Arrays.copyOf(bytes, bytes.length - 2));
                raw.socket().shutdownOutput();
                raw.assertClosedByServer();
            }
            Await.until("both connections' close actions ran", () -> server.closedConnections.get() == 2);
            assertEquals(0, server.stub.calls.get());
            assertEquals(List.of(), log.messages(Level.WARN), "a client leaving early is not a protocol violation");
        }
    }

    @Test
    void deepNestingIsRefusedAndModerateNestingSkipped() throws Exception {
        try (TestServer server = new TestServer(); LogCapture log = new LogCapture(ThriftMessageDecoder.class)) {
            // describe_version takes no arguments, so the processor skips the unknown nested field.
            RawClient raw = server.raw().send(MessageScannerTest.nestedStructs(30));
            Cassandra.describe_version_result result = new Cassandra.describe_version_result();
            raw.readReply(false, result);
            assertEquals(StubCassandra.VERSION, result.getSuccess());

            server.raw().send(MessageScannerTest.nestedStructs(100)).assertClosedByServer();
            Await.until("a warning", () -> log.messages(Level.WARN).size() == 1);
            assertTrue(log.messages(Level.WARN).get(0).endsWith("nested deeper than 64 levels"));
        }
    }

    @Test
    void connectionsOverTheLimitAreClosedAndLoggedOncePerBurst() throws Exception {
        TransportLimits limits = new TransportLimits(TestServer.MAX_MESSAGE_BYTES, 2, 0);
        try (TestServer server = new TestServer(limits, 2); LogCapture log = new LogCapture(ConnectionLimiter.class)) {
            Cassandra.Client first = server.client(false, true);
            Cassandra.Client second = server.client(true, true);
            assertEquals(StubCassandra.VERSION, first.describe_version());
            assertEquals(StubCassandra.VERSION, second.describe_version());
            for (int i = 0; i < 5; i++) {
                server.raw().assertClosedByServer();
            }
            assertEquals(2, server.server.openConnections());
            assertEquals(5, server.server.refusedConnections());
            assertEquals(1, log.messages(Level.WARN).size(), log.messages(Level.WARN).toString());
            assertTrue(log.messages(Level.WARN).get(0).contains("the limit of 2 open connections is reached"));

            first.getInputProtocol().getTransport().close();
            Await.until("a new connection is served", () -> {
                try (RawClient raw = new RawClient(server.address())) {
                    ThriftServerTest.assertDescribeVersionWorks(raw, false);
                    return true;
                } catch (Exception refused) {
                    return false;
                }
            });
            // Connections refused while the first one's slot was being freed count in the same burst.
            List<String> summary = log.messages(Level.INFO);
            assertEquals(1, summary.size(), summary.toString());
            String count = summary.get(0).substring(summary.get(0).lastIndexOf(": ") + 2);
            assertTrue(summary.get(0).contains("during the last burst") && Integer.parseInt(count) >= 5, summary.get(0));
            assertEquals(StubCassandra.VERSION, second.describe_version());
        }
    }

    @Test
    void idleConnectionsAreClosed() throws Exception {
        TransportLimits limits = new TransportLimits(TestServer.MAX_MESSAGE_BYTES, 10, 1);
        try (TestServer server = new TestServer(limits, 2)) {
            RawClient idle = server.raw();
            ThriftServerTest.assertDescribeVersionWorks(idle, false);
            long start = System.nanoTime();
            idle.assertClosedByServer();
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(elapsedMillis >= 900, "closed after " + elapsedMillis + " ms, before the 1 s timeout");

            RawClient silent = server.raw(); // never sends a byte
            silent.assertClosedByServer();
        }
    }

    @Test
    void aCallLongerThanTheIdleTimeoutIsNotIdleness() throws Exception {
        TransportLimits limits = new TransportLimits(TestServer.MAX_MESSAGE_BYTES, 10, 1);
        try (TestServer server = new TestServer(limits, 2)) {
            Cassandra.Client client = server.client(false, true);
            CompletableFuture<String> slow = CompletableFuture.supplyAsync(() -> {
                try {
                    return client.describe_partitioner();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertTrue(server.stub.gatedCallStarted.await(10, TimeUnit.SECONDS));
            Thread.sleep(2500); // lets two idle periods pass while the call runs
            server.stub.gate.countDown();
            assertEquals("org.apache.cassandra.dht.RandomPartitioner", slow.get(10, TimeUnit.SECONDS));
            assertEquals(StubCassandra.VERSION, client.describe_version());
        }
    }

    @Test
    void aSlowSenderHoldsNoWorker() throws Exception {
        try (TestServer server = new TestServer(new TransportLimits(TestServer.MAX_MESSAGE_BYTES, 10, 0), 1)) {
            byte[] call = WireBytes.call("describe_version", 7, new Cassandra.describe_version_args(), true);
            RawClient slowClient = server.raw();
            CountDownLatch halfSent = new CountDownLatch(1);
            CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> {
                try {
                    for (int i = 0; i < call.length; i++) {
                        slowClient.send(new byte[] {call[i]});
                        if (i == call.length / 2) {
                            halfSent.countDown();
                        }
                        Thread.sleep(50);
                    }
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertTrue(halfSent.await(10, TimeUnit.SECONDS));
            Cassandra.Client fast = server.client(true, true);
            for (int i = 0; i < 10; i++) {
                assertEquals(StubCassandra.VERSION, fast.describe_version());
            }
            assertFalse(sending.isDone(), "the single worker served others while the slow message was arriving");
            sending.get(30, TimeUnit.SECONDS);
            Cassandra.describe_version_result result = new Cassandra.describe_version_result();
            assertEquals(7, slowClient.readReply(false, result).header().seqid);
            assertEquals(StubCassandra.VERSION, result.getSuccess());
        }
    }
}
