package sibyl.hardening;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.Callable;

/** Bounded polling: waits for a condition, checking every 10 ms, and fails the test after the timeout. */
final class Poll {
    private Poll() {
    }

    static void until(String what, Duration timeout, Callable<Boolean> condition) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.call()) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out after " + timeout.toMillis() + " ms waiting until " + what);
            }
            Thread.sleep(10);
        }
    }
}
