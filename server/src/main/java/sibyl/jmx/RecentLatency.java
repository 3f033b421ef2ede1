package sibyl.jmx;

import sibyl.service.LatencyTracker;

/**
 * The mean latency of the operations since the previous question, over one tracker or several
 * taken together: what 0.6's {@code Recent...LatencyMicros} attributes showed, so a monitoring
 * tool polling the value sees the latency of its last interval.
 */
final class RecentLatency {
    private final LatencyTracker[] trackers;
    private long countMark; // guarded by this
    private long nanosMark; // guarded by this

    RecentLatency(LatencyTracker... trackers) {
        this.trackers = trackers.clone();
    }

    /** Mean latency in microseconds of the operations since the last call; NaN when there were none. */
    synchronized double sinceLastMicros() {
        long count = 0;
        long nanos = 0;
        for (LatencyTracker t : trackers) {
            count += t.count();
            nanos += t.totalNanos();
        }
        long dn = count - countMark;
        long dnanos = nanos - nanosMark;
        countMark = count;
        nanosMark = nanos;
        return dn == 0 ? Double.NaN : dnanos / 1000.0 / dn;
    }
}
