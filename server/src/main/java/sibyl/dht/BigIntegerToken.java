package sibyl.dht;

import java.math.BigInteger;

/** A RandomPartitioner token: a number in [0, 2^127]. */
public final class BigIntegerToken extends Token {
    private final BigInteger value;

    public BigIntegerToken(BigInteger value) {
        super(prefixOf(value));
        this.value = value;
    }

    /**
     * Bits 127 to 64 of the value, RandomPartitioner's range being [0, 2^127]; values outside it clamp to the
     * lowest or highest prefix, which keeps the prefix order-preserving (equal prefixes defer to the full compare).
     */
    private static long prefixOf(BigInteger value) {
        if (value.signum() <= 0) return 0;
        if (value.bitLength() > 127) return -1L; // all ones: the highest unsigned
        return value.shiftRight(63).longValue();
    }

    public BigInteger value() {
        return value;
    }

    @Override
    public int compareTo(Token o) {
        return value.compareTo(((BigIntegerToken) o).value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BigIntegerToken t && value.equals(t.value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
