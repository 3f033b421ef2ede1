package sibyl.client.stress;

import java.util.Arrays;

/**
 * Latencies in microseconds, counted in log-linear buckets (the HdrHistogram layout): values below
 * {@value #SUB_BUCKETS} have a bucket each; above that every power of two is split into
 * {@value #HALF} equal buckets, so a bucket is never wider than 1/{@value #HALF} of the values it
 * holds (relative error under 0.8%). Values above {@link #MAX_VALUE} (about 19 hours) count as it.
 * Count, sum and maximum are exact. Not thread-safe: one per thread, or see {@link LatencyRecorder}.
 */
public final class LatencyHistogram {

    static final int SUB_BUCKET_BITS = 8;
    static final int SUB_BUCKETS = 1 << SUB_BUCKET_BITS;
    static final int HALF = SUB_BUCKETS / 2;
    static final long MAX_VALUE = (1L << 36) - 1;
    /** Buckets needed to reach MAX_VALUE. */
    static final int BUCKETS = index(MAX_VALUE) + 1;

    private final long[] counts = new long[BUCKETS];
    private long count;
    private long sum;
    private long max;

    /** The bucket of {@code value} (negative values count as 0, values above MAX_VALUE as it). */
    static int index(long value) {
        long v = Math.min(Math.max(value, 0), MAX_VALUE);
        if (v < SUB_BUCKETS) {
            return (int) v;
        }
        int shift = (63 - Long.numberOfLeadingZeros(v)) - (SUB_BUCKET_BITS - 1); // v >> shift in [HALF, SUB)
        return SUB_BUCKETS + (shift - 1) * HALF + (int) ((v >> shift) - HALF);
    }

    /** Smallest value in bucket {@code i}. */
    static long lowestValue(int i) {
        if (i < SUB_BUCKETS) {
            return i;
        }
        int k = i - SUB_BUCKETS;
        int shift = k / HALF + 1;
        return (long) (k % HALF + HALF) << shift;
    }

    /** Largest value in bucket {@code i}. */
    static long highestValue(int i) {
        if (i < SUB_BUCKETS) {
            return i;
        }
        int shift = (i - SUB_BUCKETS) / HALF + 1;
        return lowestValue(i) + (1L << shift) - 1;
    }

    public void record(long micros) {
        counts[index(micros)]++;
        count++;
        sum += Math.max(micros, 0);
        max = Math.max(max, micros);
    }

    /** Adds {@code n} values that fell in bucket {@code index}; with {@link #addSum} and {@link #offerMax}. */
    void addToBucket(int index, long n) {
        counts[index] += n;
        count += n;
    }

    void addSum(long micros) {
        sum += micros;
    }

    void offerMax(long micros) {
        max = Math.max(max, micros);
    }

    public void add(LatencyHistogram other) {
        for (int i = 0; i < BUCKETS; i++) {
            counts[i] += other.counts[i];
        }
        count += other.count;
        sum += other.sum;
        max = Math.max(max, other.max);
    }

    public void reset() {
        Arrays.fill(counts, 0);
        count = 0;
        sum = 0;
        max = 0;
    }

    public long count() {
        return count;
    }

    /** Mean in microseconds; 0 when empty. */
    public double mean() {
        return count == 0 ? 0 : (double) sum / count;
    }

    public long max() {
        return max;
    }

    /**
     * The value below or at which {@code percent}% of the recorded values fall, to the precision of the
     * buckets (the highest value of the bucket holding that rank, never above the recorded maximum);
     * 0 when empty.
     */
    public long percentile(double percent) {
        if (count == 0) {
            return 0;
        }
        if (percent < 0 || percent > 100) {
            throw new IllegalArgumentException("percentile must be within 0..100: " + percent);
        }
        long rank = Math.max(1, (long) Math.ceil(percent / 100.0 * count));
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return Math.min(highestValue(i), max);
            }
        }
        return max;
    }
}
