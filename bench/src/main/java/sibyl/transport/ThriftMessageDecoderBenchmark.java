package sibyl.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;
import org.slf4j.LoggerFactory;
import sibyl.bench.ThriftMessages;

/**
 * The decoder of a connection's pipeline: framing detection, scanning, budget accounting and cutting each request out
 * of the network buffer into a {@link ThriftCall}. A network read of {@value #MESSAGES_PER_READ} pipelined
 * get_slice requests goes through an embedded channel; the score is per message.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ThriftMessageDecoderBenchmark {
    static final int MESSAGES_PER_READ = 16;

    /** A {@link WireMode} name (the enum is package-private, which JMH's generated code cannot reach). */
    @Param({"UNFRAMED", "FRAMED"})
    public String mode;

    private final RequestBudget budget = new RequestBudget(1L << 30);
    private EmbeddedChannel channel;
    private ByteBuf read;

    @Setup
    public void setUp() {
        byte[] message = ThriftMessages.callMessage("get_slice", ThriftMessages.getSliceArgs(42, 10));
        read = Unpooled.buffer();
        for (int i = 0; i < MESSAGES_PER_READ; i++) {
            if (WireMode.valueOf(mode) == WireMode.FRAMED) {
                read.writeInt(message.length);
            }
            read.writeBytes(message);
        }
        channel = new EmbeddedChannel(new WireModeDetector(16 << 20, budget,
                new BurstLog(LoggerFactory.getLogger(ThriftMessageDecoderBenchmark.class), "refusals")));
    }

    @TearDown
    public void tearDown() {
        channel.finishAndReleaseAll();
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES_PER_READ)
    public void decodeOneRead(Blackhole bh) {
        channel.writeInbound(read.retainedDuplicate());
        ThriftCall call;
        while ((call = channel.readInbound()) != null) {
            budget.release(call.heldBytes());
            bh.consume(call);
        }
    }
}
