package sibyl.dht;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The lossless mapping of binary row keys onto the store's text keys. */
class BinaryKeysTest {
    private static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) b[i] = (byte) values[i];
        return b;
    }

    private static void roundTrips(byte[] key) {
        assertArrayEquals(key, BinaryKeys.encode(BinaryKeys.decode(key)), () -> "round trip of " + hex(key));
    }

    private static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) s.append(String.format("%02x", x & 0xFF));
        return s.toString();
    }

    @Test
    void theEmptyKeyIsTheEmptyText() {
        assertEquals("", BinaryKeys.decode(new byte[0]));
        assertArrayEquals(new byte[0], BinaryKeys.encode(""));
    }

    @Test
    void validUtf8DecodesAsA06ClientsKeyOfTheSameBytes() {
        for (String key : new String[] {"row1", "caf\u00e9", "\u65e5\u672c", "\ud83d\ude00 smile", "\u0000nul",
                "\u007f\u0080\u07ff\u0800\uffff", new String(Character.toChars(0x10FFFF))}) {
            byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
            assertEquals(key, BinaryKeys.decode(utf8), key);
            assertArrayEquals(utf8, BinaryKeys.encode(key), key);
        }
    }

    @Test
    void everyCodePointRoundTripsThroughItsUtf8() {
        for (int cp = 0; cp <= 0x10FFFF; cp++) {
            if (cp >= 0xD800 && cp <= 0xDFFF) continue;
            String text = new String(Character.toChars(cp));
            byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
            String decoded = BinaryKeys.decode(utf8);
            if (!text.equals(decoded)) assertEquals(text, decoded, "U+" + Integer.toHexString(cp));
            byte[] encoded = BinaryKeys.encode(text);
            if (!java.util.Arrays.equals(utf8, encoded)) assertArrayEquals(utf8, encoded, "U+" + Integer.toHexString(cp));
        }
    }

    @Test
    void eachByteOfAnInvalidSequenceStandsAsALoneLowSurrogate() {
        // A lone continuation byte, C0 and C1 leads, F5 to FF.
        for (int b : new int[] {0x80, 0xBF, 0xC0, 0xC1, 0xF5, 0xFF}) {
            assertEquals(String.valueOf((char) (0xDC00 | b)), BinaryKeys.decode(bytes(b)), Integer.toHexString(b));
        }
        // Overlong forms of '/' and of U+0000.
        assertEquals("\udcc0\udcaf", BinaryKeys.decode(bytes(0xC0, 0xAF)));
        assertEquals("\udce0\udc80\udcaf", BinaryKeys.decode(bytes(0xE0, 0x80, 0xAF)));
        assertEquals("\udcf0\udc80\udc80\udcaf", BinaryKeys.decode(bytes(0xF0, 0x80, 0x80, 0xAF)));
        // An encoded surrogate (U+D800) is not UTF-8.
        assertEquals("\udced\udca0\udc80", BinaryKeys.decode(bytes(0xED, 0xA0, 0x80)));
        // Above U+10FFFF.
        assertEquals("\udcf4\udc90\udc80\udc80", BinaryKeys.decode(bytes(0xF4, 0x90, 0x80, 0x80)));
        // Truncated sequences: at the end, and followed by ASCII.
        assertEquals("a\udce6\udc97", BinaryKeys.decode(bytes('a', 0xE6, 0x97)));
        assertEquals("\udce6\udc97z", BinaryKeys.decode(bytes(0xE6, 0x97, 'z')));
        // A valid sequence right after an invalid byte is still decoded.
        assertEquals("\udcff\u00e9", BinaryKeys.decode(bytes(0xFF, 0xC3, 0xA9)));
        for (byte[] key : new byte[][] {bytes(0xC0, 0xAF), bytes(0xED, 0xA0, 0x80), bytes(0xF4, 0x90, 0x80, 0x80),
                bytes('a', 0xE6, 0x97), bytes(0xFF, 0xC3, 0xA9), bytes(0xED, 0xB2, 0x80)}) {
            roundTrips(key);
        }
    }

    @Test
    void aSupplementaryCharacterWhoseLowHalfLooksLikeAnEscapeStaysOneCharacter() {
        // U+10080 is D800 DC80: the low half is the escape of byte 0x80, but follows its high half.
        String text = new String(Character.toChars(0x10080));
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        assertEquals(text, BinaryKeys.decode(utf8));
        assertArrayEquals(utf8, BinaryKeys.encode(text));
        roundTrips(bytes(0xF0, 0x90, 0x82, 0x80, 0x80)); // that character, then a stray continuation byte
    }

    @Test
    void randomByteKeysRoundTripAndDistinctKeysStayDistinct() {
        Random random = new Random(20_1_0);
        Map<String, byte[]> seen = new HashMap<>();
        for (int n = 0; n < 50_000; n++) {
            byte[] key = new byte[random.nextInt(12)];
            random.nextBytes(key);
            if (n % 3 == 0) {
                // Mostly-valid keys too: bytes drawn from the UTF-8 lead and continuation ranges.
                for (int i = 0; i < key.length; i++) key[i] = (byte) (0x80 | key[i] & (i % 2 == 0 ? 0x7F : 0x3F));
            }
            roundTrips(key);
            String text = BinaryKeys.decode(key);
            byte[] before = seen.putIfAbsent(text, key);
            if (before != null) assertArrayEquals(before, key, "two keys share the text of " + hex(key));
        }
    }

    @Test
    void aBufferIsDecodedFromItsRemainingBytesAndLeftAsItWas() {
        ByteBuffer b = ByteBuffer.wrap(bytes('x', 'k', 0xFF, 'y'));
        b.position(1).limit(3);
        assertEquals("k\udcff", BinaryKeys.decode(b));
        assertEquals(1, b.position());
        assertEquals(3, b.limit());
    }

    @Test
    void aTextWithAnotherLoneSurrogateIsEncodedAsJavaEncodesIt() {
        for (String s : List.of("a\ud800", "\udc7f", "\udd00", "\udc80\ud800x")) {
            byte[] expected = s.replace("\udc80", "").getBytes(StandardCharsets.UTF_8);
            byte[] got = BinaryKeys.encode(s);
            byte[] tail = java.util.Arrays.copyOfRange(got, s.startsWith("\udc80") ? 1 : 0, got.length);
            assertArrayEquals(expected, tail, s);
        }
    }
}
