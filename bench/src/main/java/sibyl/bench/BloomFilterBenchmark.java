package sibyl.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import sibyl.io.BloomFilter;

/**
 * The bloom filter of an SSTable of {@value #KEYS} keys at the 1% false-positive rate SSTables use: a lookup of a
 * key it holds (every hash probed) and of one it does not (most stop at the first clear bit), and an insert.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class BloomFilterBenchmark {
    static final int KEYS = 1_000_000;

    private BloomFilter filter;
    private String[] present;
    private String[] absent;

    @Setup(Level.Trial)
    public void fill() {
        filter = BloomFilter.create(KEYS, 0.01);
        present = new String[KEYS];
        absent = new String[KEYS];
        for (int i = 0; i < KEYS; i++) {
            present[i] = String.format("%010d", i);
            absent[i] = String.format("x%09d", i);
            filter.add(present[i]);
        }
    }

    @State(Scope.Thread)
    public static class Cursor {
        int next;
    }

    @Benchmark
    public boolean containsPresent(Cursor cursor) {
        return filter.mightContain(present[cursor.next++ % KEYS]);
    }

    @Benchmark
    public boolean containsAbsent(Cursor cursor) {
        return filter.mightContain(absent[cursor.next++ % KEYS]);
    }

    @Benchmark
    public void add(Cursor cursor) {
        filter.add(absent[cursor.next++ % KEYS]);
    }
}
