package sibyl.transport;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for a condition, polling, up to a timeout. */
final class Await {
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    private Await() {
    }

    static void until(String what, BooleanSupplier condition) {
        until(what, DEFAULT_TIMEOUT, condition);
    }

    static void until(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out after " + timeout.toMillis() + " ms waiting until " + what);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted waiting until " + what);
            }
        }
    }
}
