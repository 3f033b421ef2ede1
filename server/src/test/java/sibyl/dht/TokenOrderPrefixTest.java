package sibyl.dht;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** A token's order prefix never contradicts the token's order, and decorated keys still sort by token, then key. */
class TokenOrderPrefixTest {
    private final Random random = new Random(20261125);

    @Test
    void bigIntegerTokensIncludingTheEdgesOfTheRange() {
        List<Token> tokens = new ArrayList<>();
        BigInteger top = BigInteger.TWO.pow(127);
        for (BigInteger edge : List.of(BigInteger.ONE.negate(), BigInteger.ZERO, BigInteger.ONE, top,
                top.subtract(BigInteger.ONE), top.add(BigInteger.ONE), BigInteger.TWO.pow(63),
                BigInteger.TWO.pow(64), BigInteger.TWO.pow(64).subtract(BigInteger.ONE))) {
            tokens.add(new BigIntegerToken(edge));
        }
        RandomPartitioner partitioner = new RandomPartitioner();
        for (int i = 0; i < 2000; i++) {
            tokens.add(partitioner.getToken("key" + i));
            // near neighbours: equal high bits, different low bits
            BigInteger base = new BigInteger(120, random);
            tokens.add(new BigIntegerToken(base));
            tokens.add(new BigIntegerToken(base.add(BigInteger.ONE)));
        }
        assertConsistent(tokens);
    }

    @Test
    void stringTokens() {
        List<Token> tokens = new ArrayList<>();
        for (String s : List.of("", "a", "a\u0000", "ab", "abcd", "abcde", "abce", "\uffff", "\uffff\uffff\uffff\uffff",
                "b", "\u00e9")) {
            tokens.add(new StringToken(s));
        }
        for (int i = 0; i < 3000; i++) tokens.add(new StringToken(randomString(6, "ab\u0000\uffff\u00e9z")));
        assertConsistent(tokens);
    }

    @Test
    void bytesTokens() {
        List<Token> tokens = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            byte[] bytes = new byte[random.nextInt(11)];
            for (int j = 0; j < bytes.length; j++) bytes[j] = (byte) new int[] {0, 1, 0x7f, 0x80, 0xff}[random.nextInt(5)];
            tokens.add(new BytesToken(bytes));
        }
        assertConsistent(tokens);
    }

    @Test
    void longTokensInSignedOrder() {
        List<Token> tokens = new ArrayList<>();
        for (long edge : new long[] {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE}) {
            tokens.add(new LongToken(edge));
        }
        Murmur3Partitioner partitioner = new Murmur3Partitioner();
        for (int i = 0; i < 3000; i++) {
            tokens.add(partitioner.getToken("key" + i));
            tokens.add(new LongToken(random.nextLong()));
        }
        assertConsistent(tokens);
    }

    @Test
    void decoratedKeysSortByTokenThenKeyWithMarkersAroundEachToken() {
        Function<Token, List<DecoratedKey>> around = t -> List.of(DecoratedKey.startOf(t), new DecoratedKey(t, "a"),
                new DecoratedKey(t, "b"), DecoratedKey.endOf(t));
        List<Token> tokens = List.of(new StringToken("a"), new StringToken("a\u0000"), new StringToken("ab"),
                new StringToken("abcde"), new StringToken("abcdf"));
        List<DecoratedKey> expected = new ArrayList<>();
        for (Token t : tokens) expected.addAll(around.apply(t));
        List<DecoratedKey> shuffled = new ArrayList<>(expected);
        java.util.Collections.shuffle(shuffled, random);
        java.util.Collections.sort(shuffled);
        assertEquals(expected, shuffled);
    }

    private void assertConsistent(List<Token> tokens) {
        int decided = 0;
        for (int i = 0; i < tokens.size(); i++) {
            Token a = tokens.get(i);
            for (int j = Math.max(0, i - 50); j < Math.min(tokens.size(), i + 50); j++) {
                Token b = tokens.get(j);
                int byPrefix = Long.compareUnsigned(a.orderPrefix(), b.orderPrefix());
                if (byPrefix != 0) {
                    decided++;
                    assertEquals(Integer.signum(a.compareTo(b)), Integer.signum(byPrefix), a + " vs " + b);
                }
                DecoratedKey ka = new DecoratedKey(a, "k");
                DecoratedKey kb = new DecoratedKey(b, "k");
                assertEquals(Integer.signum(a.compareTo(b)), Integer.signum(ka.compareTo(kb)), a + " vs " + b);
            }
        }
        assertTrue(decided > tokens.size(), "the prefix decides most comparisons: " + decided);
    }

    private String randomString(int maxLength, String alphabet) {
        StringBuilder s = new StringBuilder();
        int n = random.nextInt(maxLength + 1);
        for (int i = 0; i < n; i++) s.append(alphabet.charAt(random.nextInt(alphabet.length())));
        return s.toString();
    }
}
