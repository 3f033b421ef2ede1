package sibyl.dht;

/**
 * Token = the first half of the MurmurHash3 x64 128 of the key's bytes ({@link BinaryKeys}), as Cassandra 1.2 to 5
 * compute it ({@link Murmur3Hash}): a signed 64-bit number. Long.MIN_VALUE is the minimum token, the empty key's and
 * no other's: a key hashing to it takes Long.MAX_VALUE instead, as in Cassandra, so that the range (minimum, t]
 * holds every key up to t. Token strings are signed decimal.
 */
public final class Murmur3Partitioner implements Partitioner {
    public static final String CLASS_NAME = "org.apache.cassandra.dht.Murmur3Partitioner";
    private static final LongToken MINIMUM = new LongToken(Long.MIN_VALUE);

    @Override
    public Token getToken(String key) {
        if (key.isEmpty()) return MINIMUM;
        long hash = Murmur3Hash.firstHalf(BinaryKeys.encode(key));
        return new LongToken(hash == Long.MIN_VALUE ? Long.MAX_VALUE : hash);
    }

    @Override
    public Token getMinimumToken() {
        return MINIMUM;
    }

    /** @throws IllegalArgumentException with 3.11's text when {@code token} is not a signed 64-bit decimal */
    @Override
    public Token fromString(String token) {
        try {
            return new LongToken(Long.parseLong(token));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Invalid token for Murmur3Partitioner. Got " + token
                    + " but expected a long value (unsigned 8 bytes integer).", e);
        }
    }

    @Override
    public String className() {
        return CLASS_NAME;
    }

    @Override
    public boolean preservesOrder() {
        return false;
    }
}
