package sibyl.db.marshal;

import java.util.Arrays;

/**
 * Names are version 1 (time-based) UUIDs (or empty). Order: empty first, then the 60-bit
 * timestamp (time_hi without the version nibble, time_mid, time_low, compared unsigned), then
 * all 16 bytes unsigned, so UUIDs of the same instant still have a total order.
 */
public final class TimeUUIDType extends AbstractType {
    public static final TimeUUIDType instance = new TimeUUIDType();
    static final String NOT_VERSION_1 = "TimeUUID only makes sense with version 1 UUIDs";

    /** Timestamp bytes from most to least significant: time_hi, time_mid, time_low. */
    private static final int[] TIMESTAMP_ORDER = {7, 4, 5, 0, 1, 2, 3};

    private TimeUUIDType() {
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        int e = compareEmpty(a, b);
        if (e != 2) return e;
        int c = Integer.compare(a[6] & 0x0f, b[6] & 0x0f);
        if (c != 0) return c;
        for (int i : TIMESTAMP_ORDER) {
            c = Integer.compare(a[i] & 0xff, b[i] & 0xff);
            if (c != 0) return c;
        }
        return Arrays.compareUnsigned(a, b);
    }

    /** The version is the high nibble of byte 6. */
    @Override
    public void conform(java.nio.ByteBuffer value) {
        LexicalUUIDType.instance.conform(value);
        if (value.remaining() == 16 && (value.get(value.position() + 6) & 0xf0) != 0x10) {
            throw new MarshalException("Invalid version for TimeUUID type.");
        }
    }

    @Override
    public String getString(byte[] name) {
        if (name.length == 0) return "";
        if (name.length != 16) throw new MarshalException(LexicalUUIDType.BAD_LENGTH);
        if (((name[6] >> 4) & 0x0f) != 1) throw new MarshalException(NOT_VERSION_1);
        return LexicalUUIDType.uuidString(name);
    }
}
