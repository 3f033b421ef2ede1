package sibyl.bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.MarshalTypes;

/**
 * One comparison of two column names by each built-in comparator, over a ring of name pairs that share a prefix (so
 * byte-wise comparators cannot stop at the first byte) and differ near the end.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ComparatorBenchmark {
    private static final int PAIRS = 1024;

    @Param({"BytesType", "AsciiType", "UTF8Type", "LongType", "LexicalUUIDType", "TimeUUIDType"})
    public String comparator;

    private AbstractType type;
    private byte[][] left;
    private byte[][] right;
    private int next;

    @Setup
    public void setUp() {
        type = MarshalTypes.forName(comparator);
        left = new byte[PAIRS][];
        right = new byte[PAIRS][];
        for (int i = 0; i < PAIRS; i++) {
            left[i] = name(i, 0);
            right[i] = name(i, 1 + i % 3);
        }
    }

    private byte[] name(int i, int delta) {
        switch (comparator) {
            case "LongType":
                return ByteBuffer.allocate(8).putLong(1_000_000_000L * i + delta).array();
            case "LexicalUUIDType":
            case "TimeUUIDType":
                // version 1 UUIDs: the same clock sequence and node, timestamps differing by delta
                long time = 0x1e0_0000_0000_0000L + 1000L * i + delta;
                long msb = (time << 32) | ((time >>> 16) & 0xffff0000L) | 0x1000L | ((time >>> 48) & 0x0fff);
                UUID uuid = new UUID(msb, 0x8000_1234_5678_9abcL);
                return ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits())
                        .putLong(uuid.getLeastSignificantBits()).array();
            default:
                return String.format("user:%08d:column-%02d", i, delta).getBytes(StandardCharsets.UTF_8);
        }
    }

    @Benchmark
    public int compare() {
        int i = next;
        next = (i + 1) & (PAIRS - 1);
        return type.compare(left[i], right[i]);
    }
}
