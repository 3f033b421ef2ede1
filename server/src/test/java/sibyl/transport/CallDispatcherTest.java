package sibyl.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
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
        EmbeddedChannel channel = new EmbeddedChannel(
                new ThriftMessageDecoder(TestServer.MAX_MESSAGE_BYTES, budget, log),
                new CallDispatcher(connection -> new Cassandra.Processor<>(stub),
                        new CallRunner(TestServer.MAX_MESSAGE_BYTES), budget, full, log, TestServer.MAX_MESSAGE_BYTES));
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
        channel.finishAndReleaseAll();
    }
}
