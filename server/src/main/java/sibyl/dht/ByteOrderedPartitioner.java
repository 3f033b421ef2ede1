package sibyl.dht;

/**
 * Token = the key's bytes ({@link BinaryKeys}), in unsigned byte order; the empty key is the minimum token. Token
 * strings are lowercase hex; one of odd length reads as if it began with a 0, as in 3.11.
 */
public final class ByteOrderedPartitioner implements Partitioner {
    public static final String CLASS_NAME = "org.apache.cassandra.dht.ByteOrderedPartitioner";
    private static final BytesToken MINIMUM = new BytesToken(new byte[0]);

    @Override
    public Token getToken(String key) {
        if (key.isEmpty()) return MINIMUM;
        return new BytesToken(BinaryKeys.encode(key));
    }

    @Override
    public Token getMinimumToken() {
        return MINIMUM;
    }

    /** @throws IllegalArgumentException with 3.11's text when {@code token} holds a character that is not hex */
    @Override
    public Token fromString(String token) {
        String even = token.length() % 2 == 1 ? "0" + token : token;
        try {
            return new BytesToken(java.util.HexFormat.of().parseHex(even));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Non-hex characters in " + even, e);
        }
    }

    @Override
    public String className() {
        return CLASS_NAME;
    }

    @Override
    public boolean preservesOrder() {
        return true;
    }
}
