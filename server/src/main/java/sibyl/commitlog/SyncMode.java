package sibyl.commitlog;

import java.time.Duration;
import java.util.Objects;

/** When the commit log forces its writes to disk, relative to acknowledging them (CommitLogSync). */
public sealed interface SyncMode {
    /** Acknowledge at once; fsync every {@code period} (CommitLogSyncPeriodInMS). */
    record Periodic(Duration period) implements SyncMode {
        public Periodic {
            Objects.requireNonNull(period, "period");
            if (period.isNegative() || period.isZero()) {
                throw new IllegalArgumentException("CommitLogSyncPeriodInMS must be positive: " + period.toMillis());
            }
        }
    }

    /**
     * Acknowledge only after the fsync covering the write; writers arriving within {@code window}
     * (CommitLogSyncBatchWindowInMS) of the first share that fsync.
     */
    record Batch(Duration window) implements SyncMode {
        public Batch {
            Objects.requireNonNull(window, "window");
            if (window.isNegative()) {
                throw new IllegalArgumentException("CommitLogSyncBatchWindowInMS must not be negative: " + window);
            }
        }
    }
}
