package sibyl.dht;

import java.util.Objects;

/**
 * The tokens in (left, right] on the ring. When left >= right the range wraps past the end of
 * the ring back to the minimum; left == right is the whole ring, beginning just after left.
 */
public final class Range {
    private final Token left;
    private final Token right;

    public Range(Token left, Token right) {
        this.left = Objects.requireNonNull(left, "left");
        this.right = Objects.requireNonNull(right, "right");
    }

    public Token left() {
        return left;
    }

    public Token right() {
        return right;
    }

    public boolean isWrapAround() {
        return left.compareTo(right) >= 0;
    }

    public boolean contains(Token t) {
        if (isWrapAround()) {
            return t.compareTo(left) > 0 || t.compareTo(right) <= 0;
        }
        return t.compareTo(left) > 0 && t.compareTo(right) <= 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Range r && left.equals(r.left) && right.equals(r.right);
    }

    @Override
    public int hashCode() {
        return Objects.hash(left, right);
    }

    @Override
    public String toString() {
        return "(" + left + ", " + right + "]";
    }
}
