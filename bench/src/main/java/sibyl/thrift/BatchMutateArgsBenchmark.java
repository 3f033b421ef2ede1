package sibyl.thrift;

import java.util.concurrent.TimeUnit;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import sibyl.bench.ThriftMessages;

/**
 * Decoding a batch_mutate request of one row of {@code columns} columns as the server decodes it, with
 * {@link BatchMutateArgs}, next to ThriftCodecBenchmark's decoding by the generated class. In package
 * sibyl.thrift because BatchMutateArgs is package-private.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class BatchMutateArgsBenchmark {
    private static final TConfiguration CONFIG = TConfiguration.custom()
            .setMaxMessageSize(16 << 20).setMaxFrameSize(16 << 20).build();

    @Param({"1", "10", "100"})
    public int columns;

    private byte[] call;

    @Setup
    public void setUp() {
        call = ThriftMessages.callMessage("batch_mutate", ThriftMessages.batchMutateArgs(42, columns));
    }

    @Benchmark
    public Cassandra.batch_mutate_args decode() throws TException {
        TBinaryProtocol in = new TBinaryProtocol(new TMemoryInputTransport(CONFIG, call), 16 << 20, 16 << 20,
                false, true);
        in.readMessageBegin();
        BatchMutateArgs args = new BatchMutateArgs();
        args.read(in);
        in.readMessageEnd();
        return args;
    }
}
