package sibyl.service;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts operations and their latencies: the total time, and how many fell into each of a fixed
 * set of buckets, for cfstats and the metrics endpoint's histograms. It sits on every read and
 * write, so recording takes no lock and allocates nothing: a short scan of the bounds and two
 * {@link LongAdder} increments, which stay cheap when many threads record at once.
 *
 * <p>The number of operations is the sum of the buckets, so a {@link #snapshot} is always
 * consistent with itself: its count equals its buckets' sum.
 */
public final class LatencyTracker {
    /**
     * The buckets' upper bounds in nanoseconds, inclusive: 1 µs to 10 s in steps of 1, 2.5 and 5.
     * A point read from a memtable takes a few microseconds, a write in batch commit log mode
     * milliseconds; a last bucket takes anything slower than the last bound.
     */
    private static final long[] BOUNDS_NANOS = {
        1_000L, 2_500L, 5_000L, 10_000L, 25_000L, 50_000L, 100_000L, 250_000L, 500_000L,
        1_000_000L, 2_500_000L, 5_000_000L, 10_000_000L, 25_000_000L, 50_000_000L, 100_000_000L, 250_000_000L,
        500_000_000L, 1_000_000_000L, 2_500_000_000L, 5_000_000_000L, 10_000_000_000L};

    /** What a tracker held at one moment. */
    public record Snapshot(long[] bucketCounts, long totalNanos) {
        /** Operations counted: the sum of the buckets. */
        public long count() {
            long n = 0;
            for (long c : bucketCounts) n += c;
            return n;
        }
    }

    private final LongAdder[] buckets = new LongAdder[BOUNDS_NANOS.length + 1];
    private final LongAdder totalNanos = new LongAdder();

    public LatencyTracker() {
        for (int i = 0; i < buckets.length; i++) buckets[i] = new LongAdder();
    }

    /**
     * The upper bounds of the buckets in nanoseconds, in increasing order; there is one bucket
     * more than bounds, for what is slower than the last.
     */
    public static long[] bucketBoundsNanos() {
        return BOUNDS_NANOS.clone();
    }

    public void record(long nanos) {
        int i = 0;
        while (i < BOUNDS_NANOS.length && nanos > BOUNDS_NANOS[i]) i++;
        buckets[i].increment();
        totalNanos.add(Math.max(0, nanos));
    }

    public long count() {
        long n = 0;
        for (LongAdder b : buckets) n += b.sum();
        return n;
    }

    public long totalNanos() {
        return totalNanos.sum();
    }

    public long totalMicros() {
        return totalNanos.sum() / 1000;
    }

    /** The operations of each bucket (not cumulated) and the total time. */
    public Snapshot snapshot() {
        long[] counts = new long[buckets.length];
        for (int i = 0; i < counts.length; i++) counts[i] = buckets[i].sum();
        return new Snapshot(counts, totalNanos.sum());
    }
}
