package sibyl.dht;

import java.util.Objects;

/**
 * The tokens in [left, right], both inclusive, never wrapping; a null right means no upper
 * bound. This is what a key range asks for: [token(start key), token(end key)].
 */
public final class Bounds {
    private final Token left;
    private final Token right;

    /** @param right the inclusive upper bound, or null for none */
    public Bounds(Token left, Token right) {
        this.left = Objects.requireNonNull(left, "left");
        this.right = right;
    }

    public Token left() {
        return left;
    }

    /** The inclusive upper bound, or null when there is none. */
    public Token right() {
        return right;
    }

    public boolean contains(Token t) {
        return t.compareTo(left) >= 0 && (right == null || t.compareTo(right) <= 0);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Bounds b && left.equals(b.left) && Objects.equals(right, b.right);
    }

    @Override
    public int hashCode() {
        return Objects.hash(left, right);
    }

    @Override
    public String toString() {
        return "[" + left + ", " + (right == null ? "" : right) + "]";
    }
}
