package sibyl.dht;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Row keys between bytes, as the 0.7+ dialect, the partitioner's hash, the commit log and the cluster's tables have
 * them, and the text a 0.6 client sends, which is how the storage seam and Sibyl's SSTables hold them. Lossless both ways: bytes that are valid UTF-8 decode to the very text a 0.6 client's key of those
 * bytes is, so both dialects see the same rows; each byte that is not part of a valid UTF-8 sequence stands as a
 * lone low surrogate, U+DC00 plus the byte (U+DC80 to U+DCFF), which encoding turns back into that byte. A 0.6 key
 * never holds a lone surrogate (it is decoded UTF-8), so no two byte keys share a text, and every 0.6 key encodes
 * to its UTF-8 bytes (docs/thrift-api-0.7.md §Row keys).
 */
public final class BinaryKeys {
    private static final int ESCAPE = 0xDC00;

    private BinaryKeys() {
    }

    /** The text of a key's bytes (the remaining bytes of {@code key}, which is not changed). */
    public static String decode(ByteBuffer key) {
        byte[] bytes = new byte[key.remaining()];
        key.get(key.position(), bytes);
        return decode(bytes);
    }

    /** The text of a key's bytes. */
    public static String decode(byte[] key) {
        StringBuilder text = new StringBuilder(key.length);
        int i = 0;
        while (i < key.length) {
            int b = key[i] & 0xFF;
            if (b < 0x80) {
                text.append((char) b);
                i++;
                continue;
            }
            int length = sequenceLength(key, i);
            if (length == 0) {
                text.append((char) (ESCAPE | b));
                i++;
            } else {
                text.appendCodePoint(codePoint(key, i, length));
                i += length;
            }
        }
        return text.toString();
    }

    /**
     * The length of the valid UTF-8 sequence of two to four bytes at {@code i}: shortest form, no surrogate, at
     * most U+10FFFF (RFC 3629's table of well-formed sequences); 0 when there is none.
     */
    private static int sequenceLength(byte[] key, int i) {
        int lead = key[i] & 0xFF;
        int length;
        int low = 0x80;
        int high = 0xBF; // the bounds of the second byte, narrower after some leads
        if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            if (lead == 0xE0) low = 0xA0; // overlong below U+0800
            if (lead == 0xED) high = 0x9F; // U+D800 to U+DFFF, surrogates
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            if (lead == 0xF0) low = 0x90; // overlong below U+10000
            if (lead == 0xF4) high = 0x8F; // above U+10FFFF
        } else {
            return 0; // a continuation byte, C0, C1 or F5 to FF
        }
        if (i + length > key.length) return 0;
        int second = key[i + 1] & 0xFF;
        if (second < low || second > high) return 0;
        for (int k = 2; k < length; k++) {
            if ((key[i + k] & 0xC0) != 0x80) return 0;
        }
        return length;
    }

    private static int codePoint(byte[] key, int i, int length) {
        int cp = key[i] & (0xFF >> (length + 1));
        for (int k = 1; k < length; k++) cp = cp << 6 | key[i + k] & 0x3F;
        return cp;
    }

    /** A key's bytes as a client of the 0.7+ dialect sees them. */
    public static ByteBuffer encodeBuffer(String key) {
        return ByteBuffer.wrap(encode(key));
    }

    /**
     * A key's bytes: UTF-8, but for the lone surrogates U+DC80 to U+DCFF, each the byte it stands for. Any other
     * lone surrogate, which no key decodes to, is written as {@link String#getBytes} writes it, '?', as every key
     * was before keys could be bytes: what the partitioner, the bloom filters and the commit log make of a key that
     * holds no escaped byte is unchanged.
     */
    public static byte[] encode(String key) {
        if (!holdsEscapedByte(key)) return key.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(key.length() + 8);
        int i = 0;
        while (i < key.length()) {
            char c = key.charAt(i);
            if (c < 0x80) {
                bytes.write(c);
                i++;
            } else if (Character.isHighSurrogate(c) && i + 1 < key.length()
                    && Character.isLowSurrogate(key.charAt(i + 1))) {
                writeUtf8(bytes, Character.toCodePoint(c, key.charAt(i + 1)));
                i += 2;
            } else if (c >= (ESCAPE | 0x80) && c <= (ESCAPE | 0xFF)) {
                bytes.write(c & 0xFF);
                i++;
            } else if (Character.isSurrogate(c)) {
                bytes.write('?');
                i++;
            } else {
                writeUtf8(bytes, c);
                i++;
            }
        }
        return bytes.toByteArray();
    }

    /** Whether {@code key} holds a char of U+DC80 to U+DCFF: most keys hold none and are plain UTF-8. */
    private static boolean holdsEscapedByte(String key) {
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c >= (ESCAPE | 0x80) && c <= (ESCAPE | 0xFF)) return true;
        }
        return false;
    }

    private static void writeUtf8(ByteArrayOutputStream out, int cp) {
        if (cp < 0x800) {
            out.write(0xC0 | cp >> 6);
        } else if (cp < 0x10000) {
            out.write(0xE0 | cp >> 12);
            out.write(0x80 | cp >> 6 & 0x3F);
        } else {
            out.write(0xF0 | cp >> 18);
            out.write(0x80 | cp >> 12 & 0x3F);
            out.write(0x80 | cp >> 6 & 0x3F);
        }
        out.write(0x80 | cp & 0x3F);
    }
}
