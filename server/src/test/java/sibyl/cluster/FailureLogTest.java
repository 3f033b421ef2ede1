package sibyl.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Level;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import sibyl.testing.LogCapture;

/** The cluster's failures are logged once per burst, on a clock the test moves. */
class FailureLogTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final FailureLog failures = new FailureLog(now::get);

    private void advanceSeconds(long seconds) {
        now.addAndGet(TimeUnit.SECONDS.toNanos(seconds));
    }

    @Test
    void successesBetweenFailuresDoNotEndTheBurst() {
        try (LogCapture log = new LogCapture(ClusterStorageService.class)) {
            // A node down: QUORUM fails, ONE succeeds, many times a second.
            for (int i = 0; i < 1000; i++) {
                failures.failed("too few replicas alive");
                failures.succeeded();
                now.addAndGet(TimeUnit.MILLISECONDS.toNanos(5)); // 5 s in all
            }
            assertEquals(List.of("The cluster fails requests: too few replicas alive"), log.messages(Level.WARN));
            assertEquals(List.of(), log.messages(Level.INFO));
        }
    }

    @Test
    void aLongBurstIsReportedEveryTenSecondsWithWhatWasNotLogged() {
        try (LogCapture log = new LogCapture(ClusterStorageService.class)) {
            failures.failed("no node answered");
            for (int i = 0; i < 9; i++) {
                advanceSeconds(1);
                failures.failed("no node answered");
            }
            advanceSeconds(1);
            failures.failed("no node answered");
            assertEquals(List.of("The cluster fails requests: no node answered",
                    "The cluster still fails requests (9 more since the last report): no node answered"),
                    log.messages(Level.WARN));
        }
    }

    @Test
    void theRecoveryIsLoggedOnceNoFailureHasComeForTenSeconds() {
        try (LogCapture log = new LogCapture(ClusterStorageService.class)) {
            failures.failed("no node answered");
            failures.failed("no node answered");
            advanceSeconds(9);
            failures.succeeded();
            assertEquals(List.of(), log.messages(Level.INFO), "a failure 9 s ago: the burst may go on");
            advanceSeconds(1);
            failures.succeeded();
            failures.succeeded();
            assertEquals(List.of("The cluster serves requests again (1 failures not reported one by one)"),
                    log.messages(Level.INFO));
            // The next failure opens a new burst, logged at once.
            failures.failed("too few replicas alive");
            assertEquals(2, log.messages(Level.WARN).size());
        }
    }

    @Test
    void successesWithoutFailuresLogNothing() {
        try (LogCapture log = new LogCapture(ClusterStorageService.class)) {
            for (int i = 0; i < 100; i++) failures.succeeded();
            assertEquals(List.of(), log.messages(Level.INFO));
        }
    }
}
