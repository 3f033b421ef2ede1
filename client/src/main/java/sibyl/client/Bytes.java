package sibyl.client;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Conversions between the generated bindings' ByteBuffers, byte arrays, text and hex. */
public final class Bytes {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Bytes() {
    }

    public static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The remaining bytes of {@code b}, without moving its position. */
    public static byte[] toArray(ByteBuffer b) {
        if (b == null) {
            return null;
        }
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    public static ByteBuffer wrap(byte[] b) {
        return b == null ? null : ByteBuffer.wrap(b);
    }

    /** Lowercase hex, two digits per byte, no prefix. */
    public static String toHex(byte[] b) {
        StringBuilder sb = new StringBuilder(b.length * 2);
        for (byte x : b) {
            sb.append(HEX[(x >> 4) & 0xf]).append(HEX[x & 0xf]);
        }
        return sb.toString();
    }

    /** Parses hex digits (either case, even count, no prefix). */
    public static byte[] fromHex(String hex) {
        if (hex.length() % 2 != 0) {
            throw new IllegalArgumentException("hex '" + hex + "' has an odd number of digits");
        }
        byte[] out = new byte[hex.length() / 2];
        for (int i = 0; i < out.length; i++) {
            int hi = Character.digit(hex.charAt(2 * i), 16);
            int lo = Character.digit(hex.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0) {
                throw new IllegalArgumentException("'" + hex + "' is not hex");
            }
            out[i] = (byte) (hi << 4 | lo);
        }
        return out;
    }

    /** Strict UTF-8 decoding; null when the bytes are not valid UTF-8. */
    public static String decodeUtf8OrNull(byte[] b) {
        try {
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b));
            return chars.toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /**
     * A value for people to read: its UTF-8 text when it is valid UTF-8 without control characters,
     * otherwise {@code 0x} followed by hex. Column values carry no type in 0.6, so this is a guess.
     */
    public static String readable(byte[] b) {
        String text = decodeUtf8OrNull(b);
        if (text != null && text.codePoints().noneMatch(Character::isISOControl)) {
            return text;
        }
        return "0x" + toHex(b);
    }

    /** Unsigned lexicographic comparison; a prefix sorts first. */
    public static int compare(byte[] a, byte[] b) {
        return java.util.Arrays.compareUnsigned(a, b);
    }
}
