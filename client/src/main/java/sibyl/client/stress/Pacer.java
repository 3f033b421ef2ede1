package sibyl.client.stress;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * When one blocking thread starts its calls under a fixed rate: one period apart from a first start. A thread that
 * fell behind (a slow call, no core) starts its next call at once, but the calls it missed are not made up with a
 * burst; the schedule goes on one period after the late start. Used by one thread.
 */
public final class Pacer {
    private final long periodNanos;
    private long slot;

    /** @param firstNanos the {@link System#nanoTime} of the first start */
    public Pacer(long periodNanos, long firstNanos) {
        if (periodNanos <= 0) throw new IllegalArgumentException("period must be positive: " + periodNanos);
        this.periodNanos = periodNanos;
        this.slot = firstNanos;
    }

    /** Parks until the next start, or until {@code giveUp}, asked after each wake-up, says to wait no longer. */
    public void await(BooleanSupplier giveUp) {
        long now;
        while ((now = System.nanoTime()) - slot < 0 && !giveUp.getAsBoolean()) {
            LockSupport.parkNanos(slot - now);
        }
        slot = Math.max(slot, now - periodNanos) + periodNanos;
    }
}
