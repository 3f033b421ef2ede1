package sibyl.db;

import java.util.HexFormat;

/** Small helpers for byte[] names and values. */
final class Bytes {
    static final byte[] EMPTY = new byte[0];

    private Bytes() {
    }

    static String hex(byte[] b) {
        return b == null ? "null" : HexFormat.of().formatHex(b);
    }
}
