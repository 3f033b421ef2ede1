package sibyl.io;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UTFDataFormatException;
import java.nio.charset.StandardCharsets;

/**
 * Keys as data and index files hold them: a u16 length, then the key in Java's modified UTF-8, the form
 * {@code DataOutput.writeUTF} writes (FORMAT.md). Keys are mostly ASCII, whose bytes are the characters; those are
 * decoded and encoded here directly. A DataInputStream or DataOutputStream, which the rest falls back on, allocates
 * two 80-element buffers when made, and point reads made one per row header and index entry: a tenth of the bytes
 * a read from an SSTable allocated.
 */
final class ModifiedUtf8 {
    private ModifiedUtf8() {
    }

    /**
     * The key whose length is at {@code bytes[at]}, which with its bytes must end by {@code end}.
     *
     * @throws EOFException when it runs past {@code end}; UTFDataFormatException when it is not modified UTF-8
     */
    static String decode(byte[] bytes, int at, int end) throws IOException {
        end = Math.min(end, bytes.length);
        if (at + 2 > end) throw new EOFException("a key's length runs past the end");
        int length = ((bytes[at] & 0xFF) << 8) | (bytes[at + 1] & 0xFF);
        int from = at + 2;
        if (from + length > end) throw new EOFException("a key of " + length + " bytes runs past the end");
        for (int i = from; i < from + length; i++) {
            if (bytes[i] < 0) return new DataInputStream(new ByteArrayInputStream(bytes, at, 2 + length)).readUTF();
        }
        return new String(bytes, from, length, StandardCharsets.ISO_8859_1);
    }

    /** Bytes a key takes with its length: 2 + its length in modified UTF-8. */
    static int encodedLength(byte[] bytes, int at) {
        return 2 + (((bytes[at] & 0xFF) << 8) | (bytes[at + 1] & 0xFF));
    }

    /**
     * {@code key} with its length, as {@code DataOutput.writeUTF} writes it.
     *
     * @throws UTFDataFormatException when it takes more than 65535 bytes
     */
    static byte[] encode(String key) throws UTFDataFormatException {
        int n = key.length();
        if (n <= 0xFFFF) {
            byte[] out = new byte[2 + n];
            out[0] = (byte) (n >>> 8);
            out[1] = (byte) n;
            int i = 0;
            for (; i < n; i++) {
                char c = key.charAt(i);
                // U+0000 takes two bytes in modified UTF-8, and anything above U+007F more than one
                if (c == 0 || c > 0x7F) break;
                out[2 + i] = (byte) c;
            }
            if (i == n) return out;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(2 + n);
        try {
            new DataOutputStream(bytes).writeUTF(key);
        } catch (UTFDataFormatException e) {
            throw e;
        } catch (IOException e) {
            throw new IllegalStateException("cannot happen writing to memory", e);
        }
        return bytes.toByteArray();
    }
}
