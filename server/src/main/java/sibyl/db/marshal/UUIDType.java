package sibyl.db.marshal;

import java.util.Arrays;

/**
 * 16-byte UUIDs of any version (or empty), as Cassandra 3.11 orders them: by version first; version 1 UUIDs then by
 * their timestamp and then by their last 8 bytes compared as signed bytes; other versions by all 16 bytes unsigned.
 */
public final class UUIDType extends FixedSizeType {
    public static final UUIDType instance = new UUIDType();
    static final String REFUSAL = "UUID should be 16 or 0 bytes (%d)";

    private UUIDType() {
        super(16, true, REFUSAL);
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        int e = compareEmpty(a, b);
        if (e != 2) return e;
        int va = version(a);
        int c = Integer.compare(va, version(b));
        if (c != 0) return c;
        if (va != 1) return Arrays.compareUnsigned(a, b);
        c = Long.compare(timestamp(a), timestamp(b));
        return c != 0 ? c : Arrays.compare(a, 8, 16, b, 8, 16);
    }

    static int version(byte[] uuid) {
        return (uuid[6] >> 4) & 0x0f;
    }

    /** The 60-bit timestamp of a version 1 UUID: time_hi (without the version), time_mid, time_low. */
    static long timestamp(byte[] uuid) {
        long hi = ((uuid[6] & 0x0fL) << 8) | (uuid[7] & 0xffL);
        long mid = ((uuid[4] & 0xffL) << 8) | (uuid[5] & 0xffL);
        long low = 0;
        for (int i = 0; i < 4; i++) low = (low << 8) | (uuid[i] & 0xffL);
        return (hi << 48) | (mid << 32) | low;
    }

    @Override
    String render(byte[] value) {
        return LexicalUUIDType.uuidString(value);
    }
}
