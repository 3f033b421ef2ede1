package sibyl.engine;

import java.time.Duration;
import java.util.Objects;

/**
 * When a memtable is full and is flushed: MemtableThroughputInMB, MemtableOperationsInMillions
 * and MemtableFlushAfterMinutes, whichever is passed first. Immutable.
 *
 * @param throughputBytes serialized bytes applied
 * @param operations      column operations applied
 * @param flushAfter      age since the memtable began
 */
public record MemtableLimits(long throughputBytes, long operations, Duration flushAfter) {
    public MemtableLimits {
        Objects.requireNonNull(flushAfter, "flushAfter");
        if (throughputBytes <= 0 || operations <= 0 || flushAfter.isNegative() || flushAfter.isZero()) {
            throw new IllegalArgumentException("memtable limits must be positive: " + throughputBytes + " bytes, "
                    + operations + " operations, " + flushAfter);
        }
    }

    /** True when the memtable's size or operation count is past its limit; checked after writes. */
    public boolean isFullBySize(Memtable memtable) {
        return memtable.throughputBytes() >= throughputBytes || memtable.operationCount() >= operations;
    }

    /** True when the memtable holds data and has lived longer than the age limit; checked periodically. */
    public boolean isTooOld(Memtable memtable, long nowMillis) {
        return !memtable.isEmpty() && nowMillis - memtable.createdAtMillis() >= flushAfter.toMillis();
    }
}
