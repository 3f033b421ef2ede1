package sibyl.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.concurrent.TimeUnit;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.thrift.TBase;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import sibyl.transport.ByteBufTransport;
import sibyl.transport.ReplyProtocol;

/**
 * Decoding and encoding get_slice and batch_mutate messages with the generated classes, the way the server's
 * CallRunner reads a request (TBinaryProtocol from a byte array) and writes a reply (ReplyProtocol into a Netty
 * buffer); and a get_slice reply through libthrift's TBinaryProtocol, for comparison.
 * {@code columns} is the number of columns in the row sent (batch_mutate) or returned (get_slice).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ThriftCodecBenchmark {
    private static final TConfiguration CONFIG = TConfiguration.custom()
            .setMaxMessageSize(16 << 20).setMaxFrameSize(16 << 20).build();

    @Param({"1", "10", "100"})
    public int columns;

    private Cassandra.get_slice_args getSliceArgs;
    private Cassandra.get_slice_result getSliceResult;
    private Cassandra.batch_mutate_args batchMutateArgs;
    private byte[] getSliceCall;
    private byte[] getSliceReply;
    private byte[] batchMutateCall;
    private ByteBuf out;

    @Setup
    public void setUp() {
        getSliceArgs = ThriftMessages.getSliceArgs(42, columns);
        getSliceResult = ThriftMessages.getSliceResult(42, columns);
        batchMutateArgs = ThriftMessages.batchMutateArgs(42, columns);
        getSliceCall = ThriftMessages.callMessage("get_slice", getSliceArgs);
        getSliceReply = ThriftMessages.replyMessage("get_slice", getSliceResult);
        batchMutateCall = ThriftMessages.callMessage("batch_mutate", batchMutateArgs);
        out = PooledByteBufAllocator.DEFAULT.buffer(4096);
    }

    @Benchmark
    public Cassandra.get_slice_args decodeGetSliceArgs() throws TException {
        return read(getSliceCall, new Cassandra.get_slice_args());
    }

    @Benchmark
    public Cassandra.get_slice_result decodeGetSliceResult() throws TException {
        return read(getSliceReply, new Cassandra.get_slice_result());
    }

    @Benchmark
    public Cassandra.batch_mutate_args decodeBatchMutateArgs() throws TException {
        return read(batchMutateCall, new Cassandra.batch_mutate_args());
    }

    @Benchmark
    public int encodeGetSliceArgs() throws TException {
        return write("get_slice", getSliceArgs);
    }

    @Benchmark
    public int encodeGetSliceResult() throws TException {
        return write("get_slice", getSliceResult);
    }

    @Benchmark
    public int encodeBatchMutateArgs() throws TException {
        return write("batch_mutate", batchMutateArgs);
    }

    /** The get_slice reply through libthrift's own binary protocol, which the server used before ReplyProtocol. */
    @Benchmark
    public int encodeGetSliceResultLibthrift() throws TException {
        out.clear();
        return write(new TBinaryProtocol(new ByteBufTransport(out)), "get_slice", getSliceResult);
    }

    private static <T extends TBase<?, ?>> T read(byte[] message, T into) throws TException {
        TBinaryProtocol in = new TBinaryProtocol(new TMemoryInputTransport(CONFIG, message), 16 << 20, 16 << 20,
                false, true);
        in.readMessageBegin();
        into.read(in);
        in.readMessageEnd();
        return into;
    }

    private int write(String method, TBase<?, ?> body) throws TException {
        out.clear();
        return write(new ReplyProtocol(new ByteBufTransport(out)), method, body);
    }

    /** Writes a reply message of {@code body} with {@code protocol}, which writes into {@code out}. */
    private int write(TBinaryProtocol protocol, String method, TBase<?, ?> body) throws TException {
        protocol.writeMessageBegin(new TMessage(method, org.apache.thrift.protocol.TMessageType.REPLY, 1));
        body.write(protocol);
        protocol.writeMessageEnd();
        return out.writerIndex();
    }

}
