package sibyl.dht;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Tokens held as two longs order, compare equal and print exactly as the BigIntegers they stand for. */
class BigIntegerTokenTest {
    private static final BigInteger TOP = BigInteger.TWO.pow(127);
    private static final BigInteger TWO_TO_THE_128 = BigInteger.TWO.pow(128);

    @Test
    void randomPartitionerTokensAreTheAbsoluteValueOfTheSignedDigest() throws Exception {
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        RandomPartitioner partitioner = new RandomPartitioner();
        for (int i = 0; i < 20_000; i++) {
            String key = "key" + i;
            BigInteger expected = new BigInteger(md5.digest(key.getBytes(StandardCharsets.UTF_8))).abs();
            BigIntegerToken token = (BigIntegerToken) partitioner.getToken(key);
            assertEquals(expected, token.value(), key);
            assertEquals(new BigIntegerToken(expected), token, key);
            assertEquals(new BigIntegerToken(expected).hashCode(), token.hashCode(), key);
        }
    }

    @Test
    void compareEqualsAndStringAgreeWithBigIntegerAcrossBothForms() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        List<BigInteger> values = new ArrayList<>(List.of(BigInteger.ZERO, BigInteger.ONE, BigInteger.ONE.negate(),
                TOP, TOP.subtract(BigInteger.ONE), TOP.add(BigInteger.ONE), BigInteger.TWO.pow(63),
                BigInteger.TWO.pow(64), BigInteger.TWO.pow(64).subtract(BigInteger.ONE), TWO_TO_THE_128,
                TWO_TO_THE_128.subtract(BigInteger.ONE), TWO_TO_THE_128.add(BigInteger.ONE), TWO_TO_THE_128.negate()));
        for (int i = 0; i < 300; i++) {
            BigInteger v = new BigInteger(1 + random.nextInt(140), random);
            values.add(random.nextInt(10) == 0 ? v.negate() : v);
        }
        for (BigInteger a : values) {
            BigIntegerToken ta = new BigIntegerToken(a);
            assertEquals(a, ta.value(), "seed " + seed);
            assertEquals(a.toString(), ta.toString(), "seed " + seed);
            for (BigInteger b : values) {
                BigIntegerToken tb = new BigIntegerToken(b);
                String what = a + " vs " + b + ", seed " + seed;
                assertEquals(Integer.signum(a.compareTo(b)), Integer.signum(ta.compareTo(tb)), what);
                assertEquals(a.equals(b), ta.equals(tb), what);
                if (a.equals(b)) assertEquals(ta.hashCode(), tb.hashCode(), what);
            }
        }
    }
}
