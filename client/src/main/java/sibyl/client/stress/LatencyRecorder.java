package sibyl.client.stress;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One worker thread's latencies, readable by the reporter thread while the worker goes on recording.
 *
 * <p>Exactly one thread records, so it updates the cumulative counters with plain read-then-write
 * (no compare-and-swap, no lock); they are atomics only so the reporter sees their values. The reporter
 * takes what was recorded since its previous look by subtracting the counts it saw then. Because the
 * counters are read one after another, a value recorded during a drain may show up in the bucket
 * counts one interval before or after its sum; totals over the whole run are exact.
 */
final class LatencyRecorder {

    private final AtomicLongArray counts = new AtomicLongArray(LatencyHistogram.BUCKETS);
    private final AtomicLong sum = new AtomicLong();
    private final AtomicLong intervalMax = new AtomicLong();

    // Reader side: only the draining thread touches these.
    private final long[] drained = new long[LatencyHistogram.BUCKETS];
    private long drainedSum;

    /** Records one latency; call from the owning thread only. */
    void record(long micros) {
        int i = LatencyHistogram.index(micros);
        counts.lazySet(i, counts.get(i) + 1);
        sum.lazySet(sum.get() + Math.max(micros, 0));
        if (micros > intervalMax.get()) {
            intervalMax.accumulateAndGet(micros, Math::max);
        }
    }

    /** Adds to {@code into} everything recorded since the previous drain; call from one reader thread only. */
    void drainInto(LatencyHistogram into) {
        for (int i = 0; i < LatencyHistogram.BUCKETS; i++) {
            long now = counts.get(i);
            if (now != drained[i]) {
                into.addToBucket(i, now - drained[i]);
                drained[i] = now;
            }
        }
        long s = sum.get();
        into.addSum(s - drainedSum);
        drainedSum = s;
        // After the counts, so the maximum covers at least every value counted (percentiles are capped by it).
        into.offerMax(intervalMax.getAndSet(0));
    }
}
