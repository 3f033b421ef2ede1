package sibyl.db.marshal;

import java.util.UUID;

/**
 * Names are 16-byte UUIDs (or empty). Order: empty first, then the most significant half as a
 * signed long, then the least significant half as a signed long (what {@code UUID.compareTo}
 * did in 0.6's Java), which is not unsigned byte order when byte 0 or byte 8 is 0x80 or more.
 */
public final class LexicalUUIDType extends AbstractType {
    public static final LexicalUUIDType instance = new LexicalUUIDType();
    static final String BAD_LENGTH = "UUIDs must be exactly 16 bytes";

    private LexicalUUIDType() {
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        int e = compareEmpty(a, b);
        if (e != 2) return e;
        int c = Long.compare(half(a, 0), half(b, 0));
        return c != 0 ? c : Long.compare(half(a, 8), half(b, 8));
    }

    @Override
    public void conform(java.nio.ByteBuffer value) {
        int length = value.remaining();
        if (length != 16 && length != 0) throw new MarshalException(String.format(UUIDType.REFUSAL, length));
    }

    @Override
    public String getString(byte[] name) {
        if (name.length == 0) return "";
        if (name.length != 16) throw new MarshalException(BAD_LENGTH);
        return uuidString(name);
    }

    static String uuidString(byte[] sixteen) {
        return new UUID(half(sixteen, 0), half(sixteen, 8)).toString();
    }

    static long half(byte[] b, int offset) {
        long v = 0;
        for (int i = offset; i < offset + 8; i++) v = (v << 8) | (b[i] & 0xff);
        return v;
    }
}
