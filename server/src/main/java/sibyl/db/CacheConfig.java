package sibyl.db;

import java.time.Duration;
import java.util.Objects;

/**
 * One column family's caches as configured. Immutable.
 *
 * @param keys          KeysCached: the key cache's size
 * @param rows          RowsCached: the row cache's size
 * @param keySavePeriod KeyCacheSavePeriodInSeconds: how often the key cache's keys are saved; zero = never
 * @param rowSavePeriod RowCacheSavePeriodInSeconds: likewise for the row cache
 * @param preloadRows   PreloadRowCache: fill the row cache from the column family's rows at start-up
 */
public record CacheConfig(CacheCapacity keys, CacheCapacity rows, Duration keySavePeriod, Duration rowSavePeriod,
                          boolean preloadRows) {
    /** No caches. */
    public static final CacheConfig NONE = sized(CacheCapacity.NONE, CacheCapacity.NONE);

    public CacheConfig {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(rows, "rows");
        if (keySavePeriod.isNegative() || rowSavePeriod.isNegative()) {
            throw new IllegalArgumentException("cache save periods cannot be negative");
        }
    }

    /** Caches of these sizes, neither saved nor preloaded. */
    public static CacheConfig sized(CacheCapacity keys, CacheCapacity rows) {
        return new CacheConfig(keys, rows, Duration.ZERO, Duration.ZERO, false);
    }

    /** These sizes, with the key and row caches saved every {@code keySavePeriod} and {@code rowSavePeriod}. */
    public CacheConfig savedEvery(Duration keySavePeriod, Duration rowSavePeriod) {
        return new CacheConfig(keys, rows, keySavePeriod, rowSavePeriod, preloadRows);
    }

    public CacheConfig withPreloadRows(boolean preloadRows) {
        return new CacheConfig(keys, rows, keySavePeriod, rowSavePeriod, preloadRows);
    }
}
