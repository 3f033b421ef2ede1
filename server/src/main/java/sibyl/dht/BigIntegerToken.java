package sibyl.dht;

import java.math.BigInteger;
import java.nio.ByteBuffer;

/**
 * A RandomPartitioner token: a number in [0, 2^127].
 *
 * <p>Every token of a key, and so every key in a memtable, has one of these: a value from 0 to 2^128 - 1 is held
 * as two longs rather than as a {@link BigInteger}, which with its magnitude array took two more objects and 56
 * more bytes a key and slower comparisons. Values outside that range (a range query may name any decimal number)
 * keep their BigInteger. Which form holds a value depends on the value alone, so equal tokens have equal forms.
 */
public final class BigIntegerToken extends Token {
    private static final BigInteger TWO_TO_THE_128 = BigInteger.ONE.shiftLeft(128);

    /** Bits 127..64 and 63..0 of the value, when it lies in [0, 2^128); unsigned. */
    private final long high;
    private final long low;
    /** The value when it lies outside [0, 2^128); null otherwise. */
    private final BigInteger outside;

    public BigIntegerToken(BigInteger value) {
        this(fits(value) ? value.shiftRight(64).longValue() : 0, fits(value) ? value.longValue() : 0,
                fits(value) ? null : value);
    }

    private BigIntegerToken(long high, long low, BigInteger outside) {
        super(outside == null ? prefixOf(high, low) : prefixOf(outside));
        this.high = high;
        this.low = low;
        this.outside = outside;
    }

    /** The token of the 128-bit value {@code high:low}, read unsigned. */
    static BigIntegerToken ofUnsigned(long high, long low) {
        return new BigIntegerToken(high, low, null);
    }

    private static boolean fits(BigInteger value) {
        return value.signum() >= 0 && value.compareTo(TWO_TO_THE_128) < 0;
    }

    /**
     * Bits 126 to 63 of the value, RandomPartitioner's range being [0, 2^127]; values from 2^127 up clamp to the
     * highest prefix and values below 0 to the lowest, which keeps the prefix order-preserving (equal prefixes
     * defer to the full compare).
     */
    private static long prefixOf(long high, long low) {
        if (high < 0) return -1L; // at least 2^127
        return high << 1 | low >>> 63;
    }

    private static long prefixOf(BigInteger outside) {
        return outside.signum() < 0 ? 0 : -1L;
    }

    public BigInteger value() {
        if (outside != null) return outside;
        return new BigInteger(1, ByteBuffer.allocate(16).putLong(high).putLong(low).array());
    }

    @Override
    public int compareTo(Token o) {
        BigIntegerToken other = (BigIntegerToken) o;
        if (outside == null && other.outside == null) {
            int c = Long.compareUnsigned(high, other.high);
            return c != 0 ? c : Long.compareUnsigned(low, other.low);
        }
        return value().compareTo(other.value());
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof BigIntegerToken t)) return false;
        if (outside != null || t.outside != null) return outside != null && outside.equals(t.outside);
        return high == t.high && low == t.low;
    }

    @Override
    public int hashCode() {
        return outside != null ? outside.hashCode() : Long.hashCode(high) * 31 + Long.hashCode(low);
    }

    @Override
    public String toString() {
        return value().toString();
    }
}
