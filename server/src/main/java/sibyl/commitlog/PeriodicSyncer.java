package sibyl.commitlog;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.db.LogPosition;

/**
 * CommitLogSync=periodic: each writer writes its own entry to the file (the OS then holds it, so
 * it survives the process being killed) and returns at once; a background thread fsyncs every
 * period, so a machine crash loses at most about one period of acknowledged writes.
 */
final class PeriodicSyncer implements Syncer {
    private static final Logger log = LoggerFactory.getLogger(PeriodicSyncer.class);

    private final CommitLog commitLog;
    private final Duration period;
    private final ScheduledExecutorService timer;

    PeriodicSyncer(CommitLog commitLog, Duration period) {
        this.commitLog = commitLog;
        this.period = period;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "commitlog-periodic-sync");
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public LogPosition append(CommitLog.Pending entry) {
        return commitLog.write(List.of(entry)).ends().get(0);
    }

    @Override
    public void start() {
        long nanos = period.toNanos();
        timer.scheduleWithFixedDelay(this::syncQuietly, nanos, nanos, TimeUnit.NANOSECONDS);
    }

    /** A periodic task that throws is never run again, so nothing may escape. */
    private void syncQuietly() {
        try {
            commitLog.syncActive();
        } catch (RuntimeException e) {
            log.error("Periodic commit log sync failed", e);
        }
    }

    @Override
    public void close() {
        timer.shutdown();
        try {
            if (!timer.awaitTermination(30, TimeUnit.SECONDS)) log.warn("Periodic commit log sync did not stop within 30 s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
