package sibyl.db.marshal;

/**
 * Names are 8-byte big-endian signed longs (or empty). Order: empty first, then by the first
 * byte signed, then by all bytes unsigned, which for 8-byte names is signed 64-bit order.
 */
public final class LongType extends AbstractType {
    public static final LongType instance = new LongType();
    static final String BAD_LENGTH = "A long is exactly 8 bytes";
    static final String REFUSAL_311 = "Expected 8 or 0 byte long (%d)";

    private LongType() {
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        int e = compareEmpty(a, b);
        if (e != 2) return e;
        int first = Byte.compare(a[0], b[0]);
        return first != 0 ? first : java.util.Arrays.compareUnsigned(a, b);
    }

    @Override
    public void conform(java.nio.ByteBuffer value) {
        int length = value.remaining();
        if (length != 8 && length != 0) throw new MarshalException(String.format(REFUSAL_311, length));
    }

    @Override
    public String getString(byte[] name) {
        if (name.length == 0) return "";
        if (name.length != 8) throw new MarshalException(BAD_LENGTH);
        return String.valueOf(toLong(name));
    }

    static long toLong(byte[] b) {
        long v = 0;
        for (int i = 0; i < 8; i++) v = (v << 8) | (b[i] & 0xff);
        return v;
    }
}
