package sibyl.config;

import java.math.BigDecimal;

/**
 * The size of a key or row cache as storage-conf.xml gives it: either an absolute number of
 * entries or a fraction of the column family's keys. The text forms are a number above 1
 * ({@code 200000}), a fraction of at most 1 ({@code 0.5}, {@code 1}) or a percentage
 * ({@code 50%}). Zero in any form means no cache.
 */
public final class CacheSize {
    /** No cache at all. */
    public static final CacheSize NONE = new CacheSize(0, 0, false);

    private final long count;
    private final double fraction;
    private final boolean isFraction;

    private CacheSize(long count, double fraction, boolean isFraction) {
        this.count = count;
        this.fraction = fraction;
        this.isFraction = isFraction;
    }

    public static CacheSize ofCount(long count) {
        if (count < 0) {
            throw new IllegalArgumentException("a cache size cannot be negative: " + count);
        }
        return count == 0 ? NONE : new CacheSize(count, 0, false);
    }

    public static CacheSize ofFraction(double fraction) {
        if (!(fraction >= 0 && fraction <= 1)) {
            throw new IllegalArgumentException("a cache fraction must be between 0 and 1: " + fraction);
        }
        return fraction == 0 ? NONE : new CacheSize(0, fraction, true);
    }

    /**
     * Reads the configuration text form as 0.6 read it: a number ({@link Double#parseDouble}'s
     * syntax, so {@code 1e3} is 1000) or a percentage. A value above 1 counts entries and is cut
     * to a whole number ({@code 10.7} is 10 entries); a value above 0 and at most 1 is a fraction
     * of the keys. Refused, unlike 0.6: NaN and infinities, and percentages above 100% (0.6 read
     * {@code 150%} as 1.5 and so cached a single entry). A negative size failed in 0.6 when the
     * cache was sized; here it is refused when read.
     *
     * @throws IllegalArgumentException with a message fit to show the user
     */
    public static CacheSize parse(String text) {
        String trimmed = text.trim();
        if (trimmed.endsWith("%")) {
            double percent = parseNumber(trimmed.substring(0, trimmed.length() - 1).trim(), text);
            if (percent > 100) {
                throw new IllegalArgumentException("a percentage above 100% is not a cache size: '" + text + "'");
            }
            return ofFraction(percent / 100);
        }
        double value = parseNumber(trimmed, text);
        if (value <= 1) {
            return ofFraction(value);
        }
        return ofCount((long) value);
    }

    private static double parseNumber(String number, String original) {
        double value = ConfigValue.decimal(number).orElseThrow(() -> new IllegalArgumentException(
                "not a number, fraction or percentage: '" + original + "'"));
        if (value < 0) {
            throw new IllegalArgumentException("a cache size cannot be negative: '" + original + "'");
        }
        return value;
    }

    /** True when the size is a fraction of the keys rather than an entry count. */
    public boolean isFraction() {
        return isFraction;
    }

    /** The entry count; 0 when this is a fraction or no cache. */
    public long count() {
        return count;
    }

    /** The fraction of keys, 0..1; 0 when this is a count or no cache. */
    public double fraction() {
        return fraction;
    }

    public boolean isNone() {
        return count == 0 && fraction == 0;
    }

    /** The number of entries for a column family that holds {@code keys} keys. */
    public long entriesFor(long keys) {
        return isFraction ? (long) Math.ceil(fraction * keys) : count;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CacheSize that
                && count == that.count
                && Double.compare(fraction, that.fraction) == 0
                && isFraction == that.isFraction;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(count) * 31 + Double.hashCode(fraction);
    }

    /** The configuration text form: {@code 1000}, {@code 50%}, {@code 0}. */
    @Override
    public String toString() {
        if (!isFraction) {
            return Long.toString(count);
        }
        return BigDecimal.valueOf(fraction * 100).stripTrailingZeros().toPlainString() + "%";
    }
}
