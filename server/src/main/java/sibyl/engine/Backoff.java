package sibyl.engine;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * How long work that keeps failing for the same subject (a store's compaction on a full disk)
 * waits before it is tried again: {@code first} after one failure, twice as long after each
 * further one in a row, never more than {@code max}; a success starts over. So a fault that
 * lasts costs an attempt and a log line every few minutes, not one per trigger. Thread-safe.
 *
 * @param <K> what failures are counted per
 */
final class Backoff<K> {
    private record Failures(int count, long retryAtNanos) {
    }

    private final Duration first;
    private final Duration max;
    private final LongSupplier nanoTime;
    private final Map<K, Failures> failures = new ConcurrentHashMap<>();

    /** @param nanoTime the clock, {@link System#nanoTime} but in tests */
    Backoff(Duration first, Duration max, LongSupplier nanoTime) {
        if (first.isNegative() || first.isZero()) throw new IllegalArgumentException("first wait must be positive: " + first);
        if (max.compareTo(first) < 0) throw new IllegalArgumentException("max wait " + max + " is below the first " + first);
        this.first = first;
        this.max = max;
        this.nanoTime = nanoTime;
    }

    /** Records a failure; returns how long to wait before the next attempt. */
    Duration failed(K subject) {
        Failures f = failures.compute(subject, (k, old) -> {
            int count = old == null ? 1 : old.count() + 1;
            return new Failures(count, nanoTime.getAsLong() + waitAfter(count).toNanos());
        });
        return waitAfter(f.count());
    }

    /** Records a success: the next failure waits {@code first} again. */
    void succeeded(K subject) {
        failures.remove(subject);
    }

    /** Nanoseconds until {@code subject} may be tried again; 0 when it may be now. */
    long waitNanos(K subject) {
        Failures f = failures.get(subject);
        return f == null ? 0 : Math.max(0, f.retryAtNanos() - nanoTime.getAsLong());
    }

    private Duration waitAfter(int failuresInARow) {
        // Doubling stops at max; 2^30 × first is past any max worth setting.
        Duration wait = first.multipliedBy(1L << Math.min(30, failuresInARow - 1));
        return wait.compareTo(max) > 0 ? max : wait;
    }
}
