package sibyl.dht;

/** An OrderPreservingPartitioner token: the key itself, in {@code String.compareTo} order. */
public final class StringToken extends Token {
    private final String value;

    public StringToken(String value) {
        super(prefixOf(value));
        this.value = value;
    }

    /** The first four UTF-16 units, 16 bits each, a missing one as 0: String.compareTo's order. */
    private static long prefixOf(String value) {
        long prefix = 0;
        for (int i = 0; i < 4; i++) {
            prefix = prefix << 16 | (i < value.length() ? value.charAt(i) : 0);
        }
        return prefix;
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
