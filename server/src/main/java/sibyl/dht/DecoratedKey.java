package sibyl.dht;

import java.util.Objects;

/**
 * A row key with its token: the order of rows in storage, by token and then by key (keys of
 * equal tokens still need a total order in a sorted map).
 *
 * <p>Besides real keys there are two kinds of position markers with no key, one sorting before
 * and one after every key of a token, so sorted maps of keys can be cut at token boundaries.
 */
public final class DecoratedKey implements Comparable<DecoratedKey> {
    private static final int BEFORE = -1;
    private static final int KEY = 0;
    private static final int AFTER = 1;

    private final Token token;
    /** The token's order prefix, here so that most comparisons touch no other object. */
    private final long orderPrefix;
    private final String key;
    private final int kind;

    /** @param token the node's partitioner's token of {@code key} ({@link Partitioner#decorateKey}) */
    public DecoratedKey(Token token, String key) {
        this(token, Objects.requireNonNull(key, "key"), KEY);
    }

    private DecoratedKey(Token token, String key, int kind) {
        this.token = Objects.requireNonNull(token, "token");
        this.orderPrefix = token.orderPrefix();
        this.key = key;
        this.kind = kind;
    }

    /** A marker sorting before every key of {@code token} (and after every smaller token's). */
    public static DecoratedKey startOf(Token token) {
        return new DecoratedKey(token, null, BEFORE);
    }

    /** A marker sorting after every key of {@code token} (and before every larger token's). */
    public static DecoratedKey endOf(Token token) {
        return new DecoratedKey(token, null, AFTER);
    }

    public Token token() {
        return token;
    }

    /** The key, or null for a position marker. */
    public String key() {
        return key;
    }

    public boolean isMarker() {
        return kind != KEY;
    }

    @Override
    public int compareTo(DecoratedKey o) {
        int c = Long.compareUnsigned(orderPrefix, o.orderPrefix);
        if (c != 0) return c;
        c = token.compareTo(o.token);
        if (c != 0) return c;
        if (kind != KEY || o.kind != KEY) return Integer.compare(kind, o.kind);
        return key.compareTo(o.key);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof DecoratedKey d) || kind != d.kind || orderPrefix != d.orderPrefix) return false;
        // A key's token is a function of the key (one partitioner per node), so equal keys need no token compare,
        // which in a memtable lookup cost a cache miss or three on the stored token.
        return key != null ? key.equals(d.key) : token.equals(d.token);
    }

    @Override
    public int hashCode() {
        // Equal keys have equal tokens, hence equal prefixes; the prefix spares hashing the token itself.
        return (Long.hashCode(orderPrefix) * 31 + Objects.hashCode(key)) * 31 + kind;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case BEFORE -> "DecoratedKey(start of " + token + ")";
            case AFTER -> "DecoratedKey(end of " + token + ")";
            default -> "DecoratedKey(" + token + ", " + key + ")";
        };
    }
}
