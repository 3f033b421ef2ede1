package sibyl.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import sibyl.testing.OnThreads;

/** Calls through real sockets with the generated client: both framings, both header styles, errors, ordering. */
class ThriftServerTest {
    private TestServer server;

    @BeforeEach
    void start() throws Exception {
        server = new TestServer();
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    @Test
    void servesUnframedAndFramedStrictAndOldStyleOnOnePort() throws Exception {
        for (boolean framed : new boolean[] {false, true}) {
            for (boolean strict : new boolean[] {true, false}) {
                Cassandra.Client client = server.client(framed, strict);
                String mode = (framed ? "framed" : "unframed") + (strict ? " strict" : " old-style");
                assertEquals(StubCassandra.VERSION, client.describe_version(), mode);
                assertEquals(StubCassandra.CLUSTER, client.describe_cluster_name(), mode);
                assertEquals(StubCassandra.KEYSPACES, client.describe_keyspaces(), mode);
            }
        }
    }

    @Test
    void handlerExceptionBecomesInternalErrorAndTheConnectionStaysOpen() throws Exception {
        for (boolean framed : new boolean[] {false, true}) {
            Cassandra.Client client = server.client(framed, true);
            TApplicationException error = assertThrows(TApplicationException.class, () -> client.get_slice("Keyspace1",
                    "key", new ColumnParent("Standard1"), new SlicePredicate(), ConsistencyLevel.ONE));
            assertEquals(TApplicationException.INTERNAL_ERROR, error.getType());
            assertEquals("Internal error processing get_slice", error.getMessage());
            assertEquals(StubCassandra.VERSION, client.describe_version());
        }
    }

    /** libthrift's generated code catches Exceptions only; an Error escapes it and is answered by the transport. */
    @Test
    void handlerErrorBecomesInternalErrorAndTheConnectionStaysOpen() throws Exception {
        for (boolean framed : new boolean[] {false, true}) {
            Cassandra.Client client = server.client(framed, false);
            TApplicationException error = assertThrows(TApplicationException.class, () -> client.describe_ring("Keyspace1"));
            assertEquals(TApplicationException.INTERNAL_ERROR, error.getType());
            assertEquals("Internal error processing describe_ring", error.getMessage());
            assertEquals(StubCassandra.VERSION, client.describe_version());
        }
    }

    @Test
    void unknownMethodGetsUnknownMethodAndTheConnectionStaysOpen() throws Exception {
        RawClient raw = server.raw();
        raw.send(new WireBytes().strictHeader("no_such_method", TMessageType.CALL, 9)
                .field(TType.STRING, 1).string("ignored").stop().toArray());
        RawClient.Reply reply = raw.readReply(false, null);
        assertEquals(9, reply.header().seqid);
        assertEquals(TApplicationException.UNKNOWN_METHOD, reply.exception().getType());
        assertEquals("Invalid method name: 'no_such_method'", reply.exception().getMessage());
        assertDescribeVersionWorks(raw, false);
    }

    @Test
    void missingRequiredArgumentsGetProtocolError() throws Exception {
        for (boolean framed : new boolean[] {false, true}) {
            RawClient raw = server.raw();
            byte[] noKeyspace = new WireBytes().strictHeader("describe_ring", TMessageType.CALL, 1).stop().toArray();
            raw.send(framed ? WireBytes.framed(noKeyspace) : noKeyspace);
            TApplicationException error = raw.readReply(framed, null).exception();
            assertEquals(TApplicationException.PROTOCOL_ERROR, error.getType());
            assertTrue(error.getMessage().startsWith("Required field 'keyspace' was not present! Struct: describe_ring_args"),
                    error.getMessage());

            byte[] noCount = new WireBytes().oldHeader("describe_splits", TMessageType.CALL, 2)
                    .field(TType.STRING, 1).string("a").field(TType.STRING, 2).string("b").stop().toArray();
            raw.send(framed ? WireBytes.framed(noCount) : noCount);
            error = raw.readReply(framed, null).exception();
            assertEquals(TApplicationException.PROTOCOL_ERROR, error.getType());
            assertTrue(error.getMessage().startsWith("Required field 'keys_per_split' was not found in serialized data!"),
                    error.getMessage());
            assertDescribeVersionWorks(raw, framed);
        }
        assertEquals(2, server.stub.calls.get(), "only the two describe_version calls reached the handler");
    }

    @Test
    void pipelinedCallsAreAnsweredInOrder() throws Exception {
        for (boolean framed : new boolean[] {false, true}) {
            RawClient raw = server.raw();
            WireBytes all = new WireBytes();
            int calls = 200;
            for (int seqId = 1; seqId <= calls; seqId++) {
                byte[] call = WireBytes.call("get_string_property", seqId,
                        new Cassandra.get_string_property_args("p" + seqId), seqId % 3 != 0);
                all.raw(framed ? WireBytes.framed(call) : call);
            }
            raw.send(all.toArray());
            for (int seqId = 1; seqId <= calls; seqId++) {
                Cassandra.get_string_property_result result = new Cassandra.get_string_property_result();
                RawClient.Reply reply = raw.readReply(framed, result);
                assertNull(reply.exception());
                assertEquals(seqId, reply.header().seqid);
                assertEquals("get_string_property", reply.header().name);
                assertEquals("p" + seqId, result.getSuccess());
            }
        }
    }

    @Test
    void aClientThatShutsDownItsOutputStillGetsItsReplies() throws Exception {
        for (boolean framed : new boolean[] {false, true}) {
            RawClient raw = server.raw();
            for (int seqId = 1; seqId <= 3; seqId++) {
                byte[] call = WireBytes.call("get_string_property", seqId,
                        new Cassandra.get_string_property_args("p" + seqId), true);
                raw.send(framed ? WireBytes.framed(call) : call);
            }
            raw.socket().shutdownOutput();
            for (int seqId = 1; seqId <= 3; seqId++) {
                Cassandra.get_string_property_result result = new Cassandra.get_string_property_result();
                assertEquals(seqId, raw.readReply(framed, result).header().seqid);
                assertEquals("p" + seqId, result.getSuccess());
            }
            raw.assertClosedByServer();
        }
    }

    @Test
    void manyConcurrentClients() throws Exception {
        int clients = 32;
        int callsEach = 100;
        OnThreads.run(clients, Duration.ofSeconds(60), clientNumber -> {
            Cassandra.Client client = server.client(clientNumber % 2 == 0, clientNumber % 4 < 2);
            for (int call = 0; call < callsEach; call++) {
                String property = clientNumber + "/" + call;
                assertEquals(property, client.get_string_property(property));
                assertEquals(StubCassandra.VERSION, client.describe_version());
            }
        });
        assertEquals(clients * callsEach * 2, server.stub.calls.get());
    }

    @Test
    void messagesUpToTheLimitAreServed() throws Exception {
        for (boolean framed : new boolean[] {false, true}) {
            RawClient raw = server.raw();
            String property = "x".repeat(TestServer.MAX_MESSAGE_BYTES - propertyCallOverhead());
            byte[] call = WireBytes.call("get_string_property", 1, new Cassandra.get_string_property_args(property), true);
            assertEquals(TestServer.MAX_MESSAGE_BYTES, call.length);
            raw.send(framed ? WireBytes.framed(call) : call);
            Cassandra.get_string_property_result result = new Cassandra.get_string_property_result();
            raw.readReply(framed, result);
            assertEquals(property, result.getSuccess());
        }
    }

    @Test
    void connectionContextKnowsThePeerAndRunsCloseActionsOnce() throws Exception {
        RawClient raw = server.raw();
        assertDescribeVersionWorks(raw, false);
        assertEquals(1, server.connections.size());
        assertEquals(raw.socket().getLocalSocketAddress(), server.connections.get(0).remoteAddress());
        raw.close();
        Await.until("the close action has run", () -> server.closedConnections.get() == 1);
        int[] late = new int[1];
        server.connections.get(0).onClose(() -> late[0]++);
        assertEquals(1, late[0], "an action registered after the close runs at once");
        assertEquals(1, server.closedConnections.get());
    }

    /** Bytes a get_string_property call takes besides its argument's characters. */
    static int propertyCallOverhead() {
        return WireBytes.call("get_string_property", 1, new Cassandra.get_string_property_args(""), true).length;
    }

    static void assertDescribeVersionWorks(RawClient raw, boolean framed) throws Exception {
        byte[] call = WireBytes.call("describe_version", 42, new Cassandra.describe_version_args(), true);
        raw.send(framed ? WireBytes.framed(call) : call);
        Cassandra.describe_version_result result = new Cassandra.describe_version_result();
        RawClient.Reply reply = raw.readReply(framed, result);
        assertEquals(42, reply.header().seqid);
        assertEquals(StubCassandra.VERSION, result.getSuccess());
    }
}
