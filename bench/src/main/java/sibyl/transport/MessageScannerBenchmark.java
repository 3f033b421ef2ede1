package sibyl.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.concurrent.TimeUnit;
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
 * The transport's message scanning: how long {@link MessageScanner} takes to find the end of a batch_mutate request
 * of one row of {@code columns} columns (the arguments are walked, not decoded), whole or arriving in pieces of
 * {@code pieceBytes} (0: in one piece). In package sibyl.transport because the scanner is package-private.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MessageScannerBenchmark {
    @Param({"1", "10", "100"})
    public int columns;

    @Param({"0", "64"})
    public int pieceBytes;

    private final MessageScanner scanner = new MessageScanner();
    private ByteBuf message;
    private int length;

    @Setup
    public void setUp() {
        byte[] bytes = ThriftMessages.callMessage("batch_mutate", ThriftMessages.batchMutateArgs(42, columns));
        message = Unpooled.wrappedBuffer(bytes);
        length = bytes.length;
    }

    @Benchmark
    public int scanBatchMutate() throws MalformedMessageException {
        scanner.reset(16 << 20, false);
        if (pieceBytes == 0) {
            return scanner.scan(message, 0, length);
        }
        int result = MessageScanner.NEED_MORE;
        for (int available = pieceBytes; result == MessageScanner.NEED_MORE; available += pieceBytes) {
            result = scanner.scan(message, 0, Math.min(available, length));
        }
        return result;
    }
}
