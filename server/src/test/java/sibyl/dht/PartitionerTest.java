package sibyl.dht;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class PartitionerTest {
    private final RandomPartitioner rp = new RandomPartitioner();
    private final OrderPreservingPartitioner opp = new OrderPreservingPartitioner();
    private final CollatingOrderPreservingPartitioner copp = new CollatingOrderPreservingPartitioner();

    @Test
    void randomPartitionerTokenIsAbsoluteSignedMd5() throws Exception {
        // MD5("a") = 0cc175b9c0f1b6a831c399e269772661: high bit clear, the token is the digest.
        assertEquals(new BigInteger("0cc175b9c0f1b6a831c399e269772661", 16), value(rp.getToken("a")));
        // MD5("abc") = 900150983cd24fb0d6963f7d28e17f72: high bit set, negative, so the token is its negation.
        BigInteger abc = new BigInteger("900150983cd24fb0d6963f7d28e17f72", 16);
        assertEquals(BigInteger.ONE.shiftLeft(128).subtract(abc), value(rp.getToken("abc")));
        // Non-ASCII keys are hashed as UTF-8.
        byte[] digest = MessageDigest.getInstance("MD5").digest("ключ".getBytes(StandardCharsets.UTF_8));
        assertEquals(new BigInteger(digest).abs(), value(rp.getToken("ключ")));
        // A 0.7+ key of bytes that are not UTF-8 is hashed as those bytes, as Cassandra 0.7+ hashes keys.
        byte[] raw = {(byte) 0xff, 'k', (byte) 0x80};
        digest = MessageDigest.getInstance("MD5").digest(raw);
        assertEquals(new BigInteger(digest).abs(), value(rp.getToken(BinaryKeys.decode(raw))));
    }

    private static BigInteger value(Token t) {
        return ((BigIntegerToken) t).value();
    }

    @Test
    void randomPartitionerMinimumAndStrings() {
        assertEquals(rp.getMinimumToken(), rp.getToken(""));
        assertEquals("0", rp.toString(rp.getMinimumToken()));
        Token t = rp.getToken("key1");
        assertEquals(t, rp.fromString(rp.toString(t)));
        assertTrue(rp.toString(t).chars().allMatch(Character::isDigit));
        assertThrows(IllegalArgumentException.class, () -> rp.fromString("abc"));
        assertEquals("org.apache.cassandra.dht.RandomPartitioner", rp.className());
        assertFalse(rp.preservesOrder());
        for (int i = 0; i < 100; i++) assertTrue(rp.getToken("k" + i).compareTo(rp.getMinimumToken()) > 0);
    }

    @Test
    void orderPreservingUsesUtf16Order() {
        // U+FFEE sorts after U+1F600 in UTF-16 units (the surrogate 0xD83D is smaller).
        assertTrue(opp.getToken("\uffee").compareTo(opp.getToken("\ud83d\ude00")) > 0);
        assertTrue(opp.getToken("").compareTo(opp.getToken("a")) < 0);
        assertEquals(opp.getMinimumToken(), opp.getToken(""));
        assertEquals("abc", opp.toString(opp.fromString("abc")));
        assertEquals("org.apache.cassandra.dht.OrderPreservingPartitioner", opp.className());
    }

    @Test
    void collatingOrderIsEnglishDictionaryOrder() {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 100; i++) keys.add(Integer.toString(i));
        keys.addAll(List.of("-b", "b", "-a", "a"));
        keys.sort(Comparator.comparing(copp::getToken));
        List<String> expected = new ArrayList<>();
        TreeSet<String> numbers = new TreeSet<>();
        for (int i = 0; i < 100; i++) numbers.add(Integer.toString(i)); // String order: 0,1,10,...,19,2,20,...
        expected.addAll(numbers);
        expected.addAll(List.of("a", "-a", "b", "-b"));
        assertEquals(expected, keys);
        assertEquals("0", keys.get(0));
        assertEquals(List.of("0", "1", "10", "11"), keys.subList(0, 4));
    }

    @Test
    void collatingTokensAreLowercaseHex() {
        Token t = copp.getToken("Hello");
        String s = copp.toString(t);
        assertTrue(s.matches("[0-9a-f]+"), s);
        assertEquals(t, copp.fromString(s));
        assertEquals("", copp.toString(copp.getMinimumToken()));
        assertEquals(copp.getMinimumToken(), copp.getToken(""));
        assertThrows(IllegalArgumentException.class, () -> copp.fromString("xyz"));
    }

    @Test
    void forNameTakesShortAndFullNames() {
        assertInstanceOf(RandomPartitioner.class, Partitioners.forName("org.apache.cassandra.dht.RandomPartitioner"));
        assertInstanceOf(OrderPreservingPartitioner.class, Partitioners.forName("OrderPreservingPartitioner"));
        assertInstanceOf(CollatingOrderPreservingPartitioner.class,
                Partitioners.forName("org.apache.cassandra.dht.CollatingOrderPreservingPartitioner"));
        assertThrows(IllegalArgumentException.class, () -> Partitioners.forName("SimplePartitioner"));
    }

    @Test
    void decoratedKeysSortByTokenThenKeyWithMarkersAround() {
        Token t = new StringToken("m");
        DecoratedKey a = new DecoratedKey(t, "a");
        DecoratedKey b = new DecoratedKey(t, "b");
        DecoratedKey before = new DecoratedKey(new StringToken("l"), "z");
        DecoratedKey after = new DecoratedKey(new StringToken("n"), "a");
        List<DecoratedKey> sorted = new ArrayList<>(List.of(after, DecoratedKey.endOf(t), b, a,
                DecoratedKey.startOf(t), before));
        sorted.sort(null);
        assertEquals(List.of(before, DecoratedKey.startOf(t), a, b, DecoratedKey.endOf(t), after), sorted);
        assertTrue(DecoratedKey.startOf(t).isMarker());
        assertNull(DecoratedKey.endOf(t).key());
        assertEquals(opp.decorateKey("x"), new DecoratedKey(new StringToken("x"), "x"));
    }
}
