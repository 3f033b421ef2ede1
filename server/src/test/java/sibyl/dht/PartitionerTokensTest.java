package sibyl.dht;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Murmur3Partitioner's and ByteOrderedPartitioner's tokens of known keys are those a real Cassandra 3.11.19 gives
 * them: the keys and 3.11's tokens are in {@code <Partitioner>-tokens.txt} beside this test, written by the client's
 * PartitionerDifferentialIT (its class comment has the command) from a 3.11 started with that partitioner.
 */
class PartitionerTokensTest {
    private final Murmur3Partitioner murmur3 = new Murmur3Partitioner();
    private final ByteOrderedPartitioner byteOrdered = new ByteOrderedPartitioner();

    @Test
    void murmur3TokensAreThoseOfCassandra311() throws IOException {
        assertSameTokens(murmur3, "Murmur3Partitioner-tokens.txt");
    }

    @Test
    void byteOrderedTokensAreThoseOfCassandra311() throws IOException {
        assertSameTokens(byteOrdered, "ByteOrderedPartitioner-tokens.txt");
    }

    private static void assertSameTokens(Partitioner partitioner, String resource) throws IOException {
        Map<String, String> expected = read(resource);
        assertTrue(expected.size() >= 60, "the data holds " + expected.size() + " keys");
        for (Map.Entry<String, String> e : expected.entrySet()) {
            String key = BinaryKeys.decode(HexFormat.of().parseHex(e.getKey()));
            Token token = partitioner.getToken(key);
            assertEquals(e.getValue(), partitioner.toString(token), "the token of key 0x" + e.getKey());
            assertEquals(token, partitioner.fromString(e.getValue()));
        }
    }

    private static Map<String, String> read(String resource) throws IOException {
        Map<String, String> tokens = new LinkedHashMap<>();
        try (InputStream in = PartitionerTokensTest.class.getResourceAsStream(resource)) {
            if (in == null) throw new IOException("no test data " + resource);
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) continue;
                String[] parts = line.split(" ");
                tokens.put(parts[0], parts[1]);
            }
        }
        return tokens;
    }

    @Test
    void murmur3MinimumIsTheEmptyKeysAndSignedDecimalIsItsForm() {
        assertEquals(new LongToken(Long.MIN_VALUE), murmur3.getMinimumToken());
        assertEquals(murmur3.getMinimumToken(), murmur3.getToken(""));
        assertEquals("-9223372036854775808", murmur3.toString(murmur3.getMinimumToken()));
        for (int i = 0; i < 1000; i++) assertTrue(murmur3.getToken("k" + i).compareTo(murmur3.getMinimumToken()) > 0);
        assertEquals(new LongToken(-5), murmur3.fromString("-5"));
        assertEquals("org.apache.cassandra.dht.Murmur3Partitioner", murmur3.className());
        assertFalse(murmur3.preservesOrder());
    }

    @Test
    void murmur3RefusesABadTokenWith311sText() {
        for (String bad : List.of("abc", "", "9223372036854775808", "1.5")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> murmur3.fromString(bad));
            assertEquals("Invalid token for Murmur3Partitioner. Got " + bad
                    + " but expected a long value (unsigned 8 bytes integer).", e.getMessage());
        }
    }

    @Test
    void byteOrderedTokensAreTheKeysBytesInUnsignedOrder() {
        List<String> keys = new ArrayList<>(List.of("", "a", "a\u0000", "ab", "b", "\u00e9", "\uffee", "\ud83d\ude00",
                BinaryKeys.decode(new byte[] {(byte) 0xff}), BinaryKeys.decode(new byte[] {(byte) 0x80, 'a'})));
        keys.sort((x, y) -> byteOrdered.getToken(x).compareTo(byteOrdered.getToken(y)));
        List<String> byBytes = new ArrayList<>(keys);
        byBytes.sort((x, y) -> java.util.Arrays.compareUnsigned(BinaryKeys.encode(x), BinaryKeys.encode(y)));
        assertEquals(byBytes, keys);
        // UTF-8 byte order puts U+1F600 after U+FFEE, where 0.6's UTF-16 order (OrderPreservingPartitioner) does not.
        assertTrue(byteOrdered.getToken("\ud83d\ude00").compareTo(byteOrdered.getToken("\uffee")) > 0);
        assertEquals(byteOrdered.getMinimumToken(), byteOrdered.getToken(""));
        assertEquals("", byteOrdered.toString(byteOrdered.getMinimumToken()));
        assertTrue(byteOrdered.preservesOrder());
    }

    @Test
    void byteOrderedTokenStringsAreHexAnOddOneReadWithALeadingZero() {
        assertEquals("6b6579", byteOrdered.toString(byteOrdered.getToken("key")));
        assertEquals(byteOrdered.getToken("key"), byteOrdered.fromString("6B6579"));
        assertEquals(new BytesToken(new byte[] {0x0a, (byte) 0xbc}), byteOrdered.fromString("abc"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> byteOrdered.fromString("xyz1"));
        assertEquals("Non-hex characters in xyz1", e.getMessage());
    }

    @Test
    void bothAreFoundByShortAndFullName() {
        for (String name : List.of("Murmur3Partitioner", "ByteOrderedPartitioner")) {
            assertEquals("org.apache.cassandra.dht." + name, Partitioners.forName(name).className());
            assertEquals("org.apache.cassandra.dht." + name, Partitioners.forName("org.apache.cassandra.dht." + name).className());
        }
    }
}
