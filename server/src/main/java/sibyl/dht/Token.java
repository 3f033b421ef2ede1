package sibyl.dht;

/**
 * A position on the ring. Tokens of one partitioner compare with each other; comparing tokens of
 * different partitioners is a programming error and throws ClassCastException.
 */
public abstract class Token implements Comparable<Token> {
    private final long orderPrefix;

    /** A token with no order prefix: every comparison takes {@link #compareTo}. */
    Token() {
        this(0);
    }

    /** @param orderPrefix see {@link #orderPrefix()} */
    Token(long orderPrefix) {
        this.orderPrefix = orderPrefix;
    }

    /**
     * The first 64 bits of the token's order, compared unsigned: when two tokens' prefixes differ, they order as
     * their tokens do; when equal, the tokens may still differ. Sorted maps of keys compare this long, held in the
     * {@link DecoratedKey}, before following pointers into the tokens themselves, which on a skip list of a
     * hundred thousand rows was a fifth of a read's CPU time in cache misses.
     */
    public final long orderPrefix() {
        return orderPrefix;
    }
}
