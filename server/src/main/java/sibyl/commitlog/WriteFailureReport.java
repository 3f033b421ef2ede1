package sibyl.commitlog;

import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import sibyl.db.WriteFailedException;

/**
 * Tells the operator that the commit log cannot be written, without a line per refused write: a
 * full disk refuses every write, and thousands of lines a second would only fill what is left.
 * A failure is logged at ERROR (the first with its cause), at most one line per
 * {@link #INTERVAL_SECONDS} s, however often the log fails and recovers in between; the others
 * are counted. The first write that succeeds after a reported failure logs at INFO how many were
 * refused. Not thread-safe: the commit log calls it under its lock.
 */
final class WriteFailureReport {
    static final long INTERVAL_SECONDS = 10;
    private static final long NEVER = Long.MIN_VALUE;

    private final Logger log;
    private final long intervalNanos;
    private boolean failing;
    private boolean reported; // an ERROR line went out for the failures since the last success
    private long lastReportNanos = NEVER;
    private long refused; // since the last INFO line

    WriteFailureReport(Logger log) {
        this.log = log;
        this.intervalNanos = TimeUnit.SECONDS.toNanos(INTERVAL_SECONDS);
    }

    /** A write was refused because the log could not be written or synced. */
    void failed(WriteFailedException e) {
        refused++;
        failing = true;
        long now = System.nanoTime();
        if (lastReportNanos != NEVER && now - lastReportNanos < intervalNanos) return;
        if (reported) {
            log.error("The commit log still cannot be written; {} writes refused so far: {}", refused, e.getMessage());
        } else {
            log.error("The commit log cannot be written, so writes are refused until it can: {}", e.getMessage(),
                    e.getCause());
        }
        reported = true;
        lastReportNanos = now;
    }

    /** A write reached the log. */
    void succeeded() {
        if (!failing) return;
        failing = false;
        if (!reported) return; // a short run inside the interval: counted into the next report
        log.info("The commit log is written again, after refusing {} writes", refused);
        reported = false;
        refused = 0;
    }
}
