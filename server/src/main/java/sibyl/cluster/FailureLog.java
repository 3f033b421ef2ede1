package sibyl.cluster;

import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs the cluster failing requests once per burst: the first failure, then at most one line per
 * ten seconds with how many failed meanwhile, and one line when requests succeed again.
 */
final class FailureLog {
    private static final Logger log = LoggerFactory.getLogger(ClusterStorageService.class);
    private static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(10);

    private boolean failing;
    private long lastLogged;
    private long suppressed;
    private volatile boolean anyFailure;

    void failed(String why) {
        anyFailure = true;
        synchronized (this) {
            long now = System.nanoTime();
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
        if (!anyFailure) return; // the common case: no lock
        synchronized (this) {
            if (failing) {
                failing = false;
                anyFailure = false;
                log.info("The cluster serves requests again ({} failures not reported one by one)", suppressed);
            }
        }
    }
}
