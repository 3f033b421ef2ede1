package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BackoffTest {
    private final AtomicLong now = new AtomicLong(1_000);
    private final Backoff<String> backoff = new Backoff<>(Duration.ofSeconds(10), Duration.ofSeconds(35), now::get);

    @Test
    void eachFailureInARowDoublesTheWaitUpToTheMaximum() {
        assertEquals(Duration.ofSeconds(10), backoff.failed("a"));
        assertEquals(Duration.ofSeconds(20), backoff.failed("a"));
        assertEquals(Duration.ofSeconds(35), backoff.failed("a"));
        assertEquals(Duration.ofSeconds(35), backoff.failed("a"));
        assertEquals(Duration.ofSeconds(10), backoff.failed("b"), "failures count per subject");
    }

    @Test
    void theWaitRunsFromTheLastFailureAndASuccessStartsOver() {
        assertEquals(0, backoff.waitNanos("a"), "nothing failed yet");
        backoff.failed("a");
        assertEquals(Duration.ofSeconds(10).toNanos(), backoff.waitNanos("a"));
        now.addAndGet(Duration.ofSeconds(4).toNanos());
        assertEquals(Duration.ofSeconds(6).toNanos(), backoff.waitNanos("a"));
        now.addAndGet(Duration.ofSeconds(6).toNanos());
        assertEquals(0, backoff.waitNanos("a"), "the wait is over");

        assertEquals(Duration.ofSeconds(20), backoff.failed("a"));
        backoff.succeeded("a");
        assertEquals(0, backoff.waitNanos("a"));
        assertEquals(Duration.ofSeconds(10), backoff.failed("a"), "a success starts over");
    }
}
