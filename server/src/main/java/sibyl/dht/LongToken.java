package sibyl.dht;

/** A Murmur3Partitioner token: a signed 64-bit number, in signed order. */
public final class LongToken extends Token {
    private final long value;

    public LongToken(long value) {
        // Flipping the sign bit turns signed order into the unsigned order prefixes compare in.
        super(value ^ Long.MIN_VALUE);
        this.value = value;
    }

    public long value() {
        return value;
    }

    @Override
    public int compareTo(Token o) {
        return Long.compare(value, ((LongToken) o).value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LongToken t && value == t.value;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(value);
    }

    /** Signed decimal, the form 3.11 puts on the wire. */
    @Override
    public String toString() {
        return Long.toString(value);
    }
}
