package sibyl.dht;

/** An OrderPreservingPartitioner token: the key itself, in {@code String.compareTo} order. */
public final class StringToken extends Token {
    private final String value;

    public StringToken(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }

    @Override
    public int compareTo(Token o) {
        return value.compareTo(((StringToken) o).value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StringToken t && value.equals(t.value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return value;
    }
}
