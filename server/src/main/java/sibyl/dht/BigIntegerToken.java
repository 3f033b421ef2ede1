package sibyl.dht;

import java.math.BigInteger;

/** A RandomPartitioner token: a number in [0, 2^127]. */
public final class BigIntegerToken extends Token {
    private final BigInteger value;

    public BigIntegerToken(BigInteger value) {
        this.value = value;
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
