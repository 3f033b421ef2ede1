package sibyl.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TType;
import org.junit.jupiter.api.Test;
import sibyl.testing.LogCapture;

/**
 * The bytes of requests held over all connections stay within {@link TransportLimits#maxHeldBytes}: a call that
 * would pass it is read, dropped and answered with an overload error, and its connection stays in step.
 */
class RequestBudgetTest {
    private static final int LIMIT = TestServer.MAX_MESSAGE_BYTES;

    /** A describe_partitioner call (gated in the stub) carrying an unknown field of {@code padding} bytes. */
    private static byte[] paddedGatedCall(int seqId, int padding) {
        return new WireBytes().strictHeader("describe_partitioner", TMessageType.CALL, seqId)
                .field(TType.STRING, 99).i32(padding).raw(new byte[padding]).stop().toArray();
    }

    private static byte[] propertyCall(int seqId, int length) {
        return WireBytes.call("get_string_property", seqId, new Cassandra.get_string_property_args("p".repeat(length)),
                true);
    }

    @Test
    void aCallPastTheBudgetIsAnsweredWithAnOverloadErrorAndTheConnectionStaysInStep() throws Exception {
        TransportLimits limits = new TransportLimits(LIMIT, 10, 0, LIMIT);
        try (TestServer server = new TestServer(limits, 4)) {
            // Holds 40 KB of the 64 KB budget while the stub keeps it waiting.
            RawClient holder = server.raw().send(paddedGatedCall(1, 40 * 1024));
            assertTrue(server.stub.gatedCallStarted.await(10, java.util.concurrent.TimeUnit.SECONDS));

            for (boolean framed : new boolean[] {false, true}) {
                RawClient client = server.raw();
                byte[] big = propertyCall(2, 30 * 1024);
                client.send(framed ? WireBytes.framed(big) : big);
                RawClient.Reply refused = client.readReply(framed, new Cassandra.get_string_property_result());
                assertEquals(2, refused.header().seqid);
                assertEquals("get_string_property", refused.header().name);
                assertEquals(TApplicationException.UNKNOWN, refused.exception().getType());
                assertTrue(refused.exception().getMessage().startsWith("Server overloaded: the server holds its limit of "
                        + LIMIT + " bytes of requests; get_string_property was not run"), refused.exception().getMessage());

                // The same, arriving in pieces, so that it is dropped after part of it was buffered.
                byte[] big3 = propertyCall(3, 30 * 1024);
                byte[] whole = framed ? WireBytes.framed(big3) : big3;
                for (int at = 0; at < whole.length; at += 7000) {
                    client.send(Arrays.copyOfRange(whole, at, Math.min(whole.length, at + 7000)));
                }
                assertEquals(TApplicationException.UNKNOWN,
                        client.readReply(framed, new Cassandra.get_string_property_result()).exception().getType());

                // A small call fits beside the held one.
                Cassandra.get_string_property_result result = new Cassandra.get_string_property_result();
                byte[] small = propertyCall(4, 10);
                client.send(framed ? WireBytes.framed(small) : small);
                RawClient.Reply reply = client.readReply(framed, result);
                assertNull(reply.exception());
                assertEquals(4, reply.header().seqid);
                assertEquals("p".repeat(10), result.getSuccess());
            }
            assertEquals(3, server.stub.calls.get(), "only the held call and the two small ones ran");
            assertEquals(4, server.server.callsRefusedForRequestBytes(), "refusals counted for the metrics");
            assertEquals(0, server.server.callsRefusedForWorkers());

            server.stub.gate.countDown();
            Cassandra.describe_partitioner_result held = new Cassandra.describe_partitioner_result();
            holder.readReply(false, held);
            assertEquals("org.apache.cassandra.dht.RandomPartitioner", held.getSuccess());

            // With the budget free again, the large call runs.
            RawClient client = server.raw().send(propertyCall(5, 30 * 1024));
            Cassandra.get_string_property_result result = new Cassandra.get_string_property_result();
            assertNull(client.readReply(false, result).exception());
            assertEquals(30 * 1024, result.getSuccess().length());
            Await.until("every byte reserved is released", () -> server.server.heldRequestBytes() == 0);
        }
    }

    @Test
    void aLongHeaderArrivingWhileTheBudgetIsSpentClosesItsConnection() throws Exception {
        TransportLimits limits = new TransportLimits(LIMIT, 10, 0, LIMIT);
        try (TestServer server = new TestServer(limits, 4); LogCapture log = new LogCapture(ThriftMessageDecoder.class)) {
            RawClient holder = server.raw().send(paddedGatedCall(1, 60 * 1024));
            assertTrue(server.stub.gatedCallStarted.await(10, java.util.concurrent.TimeUnit.SECONDS));
            // A strict header whose method name is 8,000 bytes long: its first 6,000 do not fit the budget, and
            // the header cannot be kept without them.
            byte[] header = new WireBytes().i32(0x80010000 | TMessageType.CALL).i32(8000).raw(new byte[6000]).toArray();
            server.raw().send(header).assertClosedByServer();
            Await.until("a warning", () -> log.messages(ch.qos.logback.classic.Level.WARN).size() == 1);
            assertTrue(log.messages(ch.qos.logback.classic.Level.WARN).get(0).endsWith("a message header longer than "
                    + ThriftMessageDecoder.MAX_UNRESERVED_HEADER_BYTES + " bytes arrives while the server holds its "
                    + "limit of " + LIMIT + " bytes of requests"), log.messages(ch.qos.logback.classic.Level.WARN).get(0));
            server.stub.gate.countDown();
            holder.readReply(false, new Cassandra.describe_partitioner_result());
        }
    }

    @Test
    void theBudgetIsReleasedWhenCallsFinishAndConnectionsClose() throws Exception {
        TransportLimits limits = new TransportLimits(LIMIT, 10, 0, LIMIT);
        try (TestServer server = new TestServer(limits, 4); LogCapture log = new LogCapture(RequestBudget.class)) {
            // Many large calls one after another, and half-sent ones abandoned: none may leak budget.
            for (int i = 0; i < 20; i++) {
                RawClient client = server.raw();
                byte[] big = propertyCall(i, 50 * 1024);
                client.send(big);
                Cassandra.get_string_property_result result = new Cassandra.get_string_property_result();
                assertNull(client.readReply(false, result).exception(), "call " + i);
                client.send(Arrays.copyOf(big, big.length / 2));
                client.close();
                int closed = i + 1;
                Await.until("connection " + i + " closed", () -> server.closedConnections.get() == closed);
            }
            RawClient last = server.raw().send(propertyCall(99, 60 * 1024));
            assertNull(last.readReply(false, new Cassandra.get_string_property_result()).exception());
            // Half a message buffered, then dropped with its connection; and pipelined calls, some refused.
            last.send(Arrays.copyOf(propertyCall(100, 50 * 1024), 30 * 1024)).close();
            RawClient pipelined = server.raw();
            for (int i = 0; i < 5; i++) pipelined.send(propertyCall(200 + i, 30 * 1024));
            for (int i = 0; i < 5; i++) pipelined.readReply(false, new Cassandra.get_string_property_result());
            pipelined.close();
            Await.until("every byte reserved is released", () -> server.server.heldRequestBytes() == 0);
            assertEquals(List.of(), log.messages(ch.qos.logback.classic.Level.ERROR), "nothing released twice");
        }
    }

    @Test
    void callsWaitingForABusyWorkerHoldNoMoreThanTheBudget() throws Exception {
        long budget = 4 * LIMIT;
        TransportLimits limits = new TransportLimits(LIMIT, 100, 0, budget);
        try (TestServer server = new TestServer(limits, 1)) {
            // The only worker is kept busy, holding 10 KB of the budget.
            RawClient holder = server.raw().send(paddedGatedCall(1, 10 * 1024));
            assertTrue(server.stub.gatedCallStarted.await(10, java.util.concurrent.TimeUnit.SECONDS));
            int flood = 40;
            int messageBytes = propertyCall(0, 60 * 1024).length;
            List<RawClient> clients = new ArrayList<>();
            for (int i = 0; i < flood; i++) {
                clients.add(server.raw().send(propertyCall(i, 60 * 1024)));
            }
            // Those admitted wait for the worker; the rest must be answered while it is still busy.
            java.util.concurrent.ExecutorService readers = java.util.concurrent.Executors.newFixedThreadPool(flood);
            try {
                java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();
                List<java.util.concurrent.Future<Boolean>> outcomes = new ArrayList<>();
                for (RawClient client : clients) {
                    outcomes.add(readers.submit(() -> {
                        RawClient.Reply reply = client.readReply(false, new Cassandra.get_string_property_result());
                        if (reply.exception() != null) {
                            assertEquals(TApplicationException.UNKNOWN, reply.exception().getType());
                            refused.incrementAndGet();
                            return false;
                        }
                        return true;
                    }));
                }
                long maxAdmitted = (budget - 10 * 1024) / messageBytes;
                Await.until("all but the " + maxAdmitted + " calls the budget has room for are refused",
                        () -> refused.get() >= flood - maxAdmitted);
                int refusedWhileBusy = refused.get();
                assertTrue(refusedWhileBusy < flood, "at least one call was admitted");
                server.stub.gate.countDown();
                holder.readReply(false, new Cassandra.describe_partitioner_result());
                int admitted = 0;
                for (java.util.concurrent.Future<Boolean> outcome : outcomes) {
                    if (outcome.get(10, java.util.concurrent.TimeUnit.SECONDS)) admitted++;
                }
                assertEquals(flood - refusedWhileBusy, admitted, "nothing was refused once the worker was free");
                assertEquals(1 + admitted, server.stub.calls.get());
                Await.until("every byte reserved is released", () -> server.server.heldRequestBytes() == 0);
            } finally {
                readers.shutdownNow();
            }
        }
    }

    @Test
    void theDefaultBudgetHoldsManyMessagesWithinAQuarterOfTheHeap() {
        long budget = new TransportLimits(16 * 1024 * 1024, 1024, 0).maxHeldBytes();
        assertTrue(budget >= 16 * 1024 * 1024, "at least one message");
        assertTrue(budget <= Math.max(16 * 1024 * 1024, Runtime.getRuntime().maxMemory() / 4), "a quarter of the heap");
        assertEquals(Math.min(64L * 1024, Math.max(1024, Runtime.getRuntime().maxMemory() / 4)),
                new TransportLimits(1024, 10, 0).maxHeldBytes());
    }
}
