package sibyl.engine;

import java.time.Duration;
import java.util.Objects;
import sibyl.config.StorageConf;

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

    /** MemtableThroughputInMB, MemtableOperationsInMillions and MemtableFlushAfterMinutes as the configuration gives them. */
    public static MemtableLimits from(StorageConf conf) {
        return new MemtableLimits((long) conf.memtableThroughputInMB() << 20,
                // A value under half an operation means after every write, as 0.6 read it.
                Math.max(1, Math.round(conf.memtableOperationsInMillions() * 1_000_000)),
                Duration.ofMinutes(conf.memtableFlushAfterMinutes()));
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
