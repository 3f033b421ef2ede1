package sibyl.service;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts operations and their total latency, for cfstats. "Recent" figures cover the
 * operations since the previous call to {@link #recentMeanMicros()}, as 0.6's were: a
 * monitoring tool polling the value sees the latency of its last interval.
 */
public final class LatencyTracker {
    private final LongAdder count = new LongAdder();
    private final LongAdder totalNanos = new LongAdder();
    private final AtomicLong recentCountMark = new AtomicLong();
    private final AtomicLong recentNanosMark = new AtomicLong();

    public void record(long nanos) {
        count.increment();
        totalNanos.add(nanos);
    }

    public long count() {
        return count.sum();
    }

    public long totalMicros() {
        return totalNanos.sum() / 1000;
    }

    /** Mean latency in microseconds of the operations since the last call; NaN when there were none. */
    public synchronized double recentMeanMicros() {
        long n = count.sum();
        long nanos = totalNanos.sum();
        long dn = n - recentCountMark.getAndSet(n);
        long dnanos = nanos - recentNanosMark.getAndSet(nanos);
        return dn == 0 ? Double.NaN : dnanos / 1000.0 / dn;
    }
}
