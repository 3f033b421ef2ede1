package sibyl.dht;

/**
 * Maps row keys to tokens, which fix the order of rows on the ring and in storage.
 * Implementations are stateless and thread-safe.
 */
public interface Partitioner {
    Token getToken(String key);

    /** The smallest token; every other token sorts after it. */
    Token getMinimumToken();

    /** The wire form of a token (describe_ring, describe_splits, KeyRange tokens): each token's own toString. */
    default String toString(Token token) {
        return token.toString();
    }

    /** Parses a token's wire form; throws IllegalArgumentException when it is not one. */
    Token fromString(String token);

    /** For example {@code org.apache.cassandra.dht.RandomPartitioner}. */
    String className();

    /** True when token order is the order of the keys themselves. */
    boolean preservesOrder();

    default DecoratedKey decorateKey(String key) {
        return new DecoratedKey(getToken(key), key);
    }
}
