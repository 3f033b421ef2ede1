package sibyl.dht;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Token = abs(MD5 of the key's bytes ({@link BinaryKeys}: its UTF-8), read as a signed two's-complement number), a number in
 * [0, 2^127]. The empty key maps to the minimum token 0. Token strings are decimal.
 */
public final class RandomPartitioner implements Partitioner {
    public static final String CLASS_NAME = "org.apache.cassandra.dht.RandomPartitioner";
    private static final BigIntegerToken MINIMUM = new BigIntegerToken(BigInteger.ZERO);

    @Override
    public Token getToken(String key) {
        if (key.isEmpty()) return MINIMUM;
        ByteBuffer digest = ByteBuffer.wrap(md5(BinaryKeys.encode(key)));
        long high = digest.getLong(0);
        long low = digest.getLong(8);
        if (high < 0) { // negative as a signed 128-bit number: take its absolute value, -x = ~x + 1
            low = -low;
            high = ~high + (low == 0 ? 1 : 0);
        }
        return BigIntegerToken.ofUnsigned(high, low);
    }

    @Override
    public Token getMinimumToken() {
        return MINIMUM;
    }

    @Override
    public Token fromString(String token) {
        try {
            return new BigIntegerToken(new BigInteger(token));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a RandomPartitioner token (a decimal number): " + token, e);
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

    /** Every key of every call is hashed: looking the algorithm up each time cost more than hashing. */
    private static final ThreadLocal<MessageDigest> MD5 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has MD5", e);
        }
    });

    private static byte[] md5(byte[] data) {
        return MD5.get().digest(data);
    }
}
