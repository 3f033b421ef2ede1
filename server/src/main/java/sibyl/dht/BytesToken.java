package sibyl.dht;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A token of bytes in unsigned byte order: a key's collation key (CollatingOrderPreservingPartitioner) or the key's
 * own bytes (ByteOrderedPartitioner).
 */
public final class BytesToken extends Token {
    private final byte[] bytes;

    /** Takes ownership of {@code bytes}. */
    public BytesToken(byte[] bytes) {
        super(prefixOf(bytes));
        this.bytes = bytes;
    }

    /** The first eight bytes, big-endian, a missing one as 0: unsigned lexicographic order. */
    private static long prefixOf(byte[] bytes) {
        long prefix = 0;
        for (int i = 0; i < 8; i++) {
            prefix = prefix << 8 | (i < bytes.length ? bytes[i] & 0xff : 0);
        }
        return prefix;
    }

    public byte[] bytes() {
        return bytes.clone();
    }

    @Override
    public int compareTo(Token o) {
        return Arrays.compareUnsigned(bytes, ((BytesToken) o).bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BytesToken t && Arrays.equals(bytes, t.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    /** Lowercase hex, the form 0.6.3+ and 3.11 put on the wire. */
    @Override
    public String toString() {
        return HexFormat.of().formatHex(bytes);
    }
}
