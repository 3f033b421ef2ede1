package sibyl.cluster;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs the cluster failing requests once per burst: the first failure, then at most one line per
 * ten seconds with how many failed meanwhile, and one line once requests succeed again and none has
 * failed for ten seconds. A burst is not over at the first success: with a node down, writes at ONE
 * succeed between the QUORUM writes that fail, and each of those would otherwise open a new burst.
 */
final class FailureLog {
    private static final Logger log = LoggerFactory.getLogger(ClusterStorageService.class);
    static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final LongSupplier nanoTime;
    private boolean failing;
    private long lastLogged;
    private long suppressed;
    /** When the last failure came, and whether one has come since the last recovery; read without the lock. */
    private volatile long lastFailure;
    private volatile boolean anyFailure;

    FailureLog() {
        this(System::nanoTime);
    }

    /** @param nanoTime the clock, {@link System#nanoTime} but in tests */
    FailureLog(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    void failed(String why) {
        long now = nanoTime.getAsLong();
        synchronized (this) {
            lastFailure = now;
            anyFailure = true;
            if (!failing) {
                failing = true;
                lastLogged = now;
                suppressed = 0;
                log.warn("The cluster fails requests: {}", why);
            } else if (now - lastLogged >= QUIET_NANOS) {
                log.warn("The cluster still fails requests ({} more since the last report): {}", suppressed, why);
                lastLogged = now;
                suppressed = 0;
            } else {
                suppressed++;
            }
        }
    }

    void succeeded() {
        if (!anyFailure) return; // the common case: no lock, no clock
        long now = nanoTime.getAsLong();
        if (now - lastFailure < QUIET_NANOS) return; // failures still come: the burst goes on
        synchronized (this) {
            if (failing && now - lastFailure >= QUIET_NANOS) {
                failing = false;
                anyFailure = false;
                log.info("The cluster serves requests again ({} failures not reported one by one)", suppressed);
            }
        }
    }
}
