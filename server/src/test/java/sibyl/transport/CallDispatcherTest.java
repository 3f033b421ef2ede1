package sibyl.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** What a connection's dispatcher does when the worker pool turns a call away. */
class CallDispatcherTest {

    @Test
    void aCallTheWorkerQueueRefusesIsAnsweredWithAnOverloadErrorAndTheConnectionStays() throws Exception {
        Executor full = task -> {
            throw new RejectedExecutionException("queue full");
        };
        RequestBudget budget = new RequestBudget(TestServer.MAX_MESSAGE_BYTES);
        BurstLog log = new BurstLog(LoggerFactory.getLogger(CallDispatcherTest.class), "refusals");
        StubCassandra stub = new StubCassandra();
        ProcessorFactory factory = connection -> new Cassandra.Processor<>(stub);
        EmbeddedChannel channel = new EmbeddedChannel(
                new WireModeDetector(TestServer.MAX_MESSAGE_BYTES, budget, log),
                new CallDispatcher(factory, new CallRunner(TestServer.MAX_MESSAGE_BYTES), budget, full,
                        CallPlacement.of(factory), log, TestServer.MAX_MESSAGE_BYTES, new UnfinishedConnections()));
        for (int seqId = 1; seqId <= 3; seqId++) {
            channel.writeInbound(Unpooled.wrappedBuffer(
                    WireBytes.call("describe_version", seqId, new Cassandra.describe_version_args(), true)));
            ByteBuf reply = channel.readOutbound();
            byte[] bytes = new byte[reply.readableBytes()];
            reply.readBytes(bytes);
            reply.release();
            TProtocol in = new TBinaryProtocol(new TMemoryInputTransport(bytes));
            TMessage header = in.readMessageBegin();
            assertEquals(TMessageType.EXCEPTION, header.type);
            assertEquals(seqId, header.seqid);
            TApplicationException e = TApplicationException.readFrom(in);
            assertEquals(TApplicationException.UNKNOWN, e.getType());
            assertEquals("Server overloaded: the queue of calls waiting for a worker is full; describe_version was not"
                    + " run, retry later", e.getMessage());
            assertTrue(channel.isActive(), "the connection stays open");
        }
        assertEquals(0, stub.calls.get());
        assertEquals(0, budget.held(), "the refused calls hold no budget");
        assertEquals(3, log.total(), "each refusal counted for the metrics");
        channel.finishAndReleaseAll();
    }

    @Test
    void aQuickCallRunsOnTheNetworkThreadAndASlowOneSendsItsMethodToTheWorkers() throws Exception {
        RequestBudget budget = new RequestBudget(TestServer.MAX_MESSAGE_BYTES);
        BurstLog log = new BurstLog(LoggerFactory.getLogger(CallDispatcherTest.class), "refusals");
        StubCassandra stub = new StubCassandra();
        ProcessorFactory factory = new ProcessorFactory() {
            @Override
            public org.apache.thrift.TProcessor newProcessor(ConnectionContext connection) {
                return new Cassandra.Processor<>(stub);
            }

            @Override
            public boolean isQuick(String method) {
                return method.equals("describe_version");
            }
        };
        java.util.List<Runnable> handedToWorkers = new java.util.ArrayList<>();
        CallPlacement placement = new CallPlacement(factory, 1_000_000, 3_600_000_000_000L);
        EmbeddedChannel channel = new EmbeddedChannel(
                new WireModeDetector(TestServer.MAX_MESSAGE_BYTES, budget, log),
                new CallDispatcher(factory, new CallRunner(TestServer.MAX_MESSAGE_BYTES), budget,
                        handedToWorkers::add, placement, log, TestServer.MAX_MESSAGE_BYTES,
                        new UnfinishedConnections()));

        channel.writeInbound(Unpooled.wrappedBuffer(
                WireBytes.call("describe_version", 1, new Cassandra.describe_version_args(), true)));
        assertEquals(1, replySeqId(channel.readOutbound()), "answered at once, on the network thread");
        assertEquals(0, handedToWorkers.size());

        // The method's calls have lately taken 10 ms each on the network thread: it backs off for an hour.
        ThriftCall slow = new ThriftCall(WireMode.FRAMED, "describe_version".getBytes(StandardCharsets.UTF_8),
                "describe_version", TMessageType.CALL, 0, false);
        for (int i = 0; i < 32; i++) {
            long start = System.nanoTime();
            placement.ranOnNetworkThread(slow, start, start + 10_000_000);
        }
        assertTrue(placement.backingOff("describe_version"));

        channel.writeInbound(Unpooled.wrappedBuffer(
                WireBytes.call("describe_version", 2, new Cassandra.describe_version_args(), true)));
        assertNull(channel.readOutbound(), "after a slow run the method waits for a worker");
        assertEquals(1, handedToWorkers.size());
        assertEquals(1, stub.calls.get());

        channel.writeInbound(Unpooled.wrappedBuffer(
                WireBytes.call("describe_cluster_name", 3, new Cassandra.describe_cluster_name_args(), true)));
        handedToWorkers.get(0).run();
        channel.runPendingTasks();
        assertEquals(2, replySeqId(channel.readOutbound()));
        assertEquals(2, handedToWorkers.size(), "a method the application does not call quick goes to a worker,"
                + " after the call before it");
        handedToWorkers.get(1).run();
        channel.runPendingTasks();
        assertEquals(3, replySeqId(channel.readOutbound()));
        assertEquals(0, budget.held());
        channel.finishAndReleaseAll();
    }

    private static int replySeqId(ByteBuf reply) throws Exception {
        byte[] bytes = new byte[reply.readableBytes()];
        reply.readBytes(bytes);
        reply.release();
        TMessage header = new TBinaryProtocol(new TMemoryInputTransport(bytes)).readMessageBegin();
        assertEquals(TMessageType.REPLY, header.type);
        return header.seqid;
    }
}
