package sibyl.db.marshal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Names for the tests of the types: numbers, UUIDs and composites in their byte forms, and an order check. */
public final class Names {
    static final byte[] EMPTY = {};

    private Names() {
    }

    static byte[] bytes(int... b) {
        byte[] r = new byte[b.length];
        for (int i = 0; i < b.length; i++) r[i] = (byte) b[i];
        return r;
    }

    public static byte[] ofLong(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    static byte[] ofInt(int v) {
        return ByteBuffer.allocate(4).putInt(v).array();
    }

    static byte[] ofDouble(double v) {
        return ByteBuffer.allocate(8).putDouble(v).array();
    }

    static byte[] ofFloat(float v) {
        return ByteBuffer.allocate(4).putFloat(v).array();
    }

    public static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] uuid(long msb, long lsb) {
        return ByteBuffer.allocate(16).putLong(msb).putLong(lsb).array();
    }

    /** A UUID of {@code version} with the given 60-bit timestamp (for version 1) and second half. */
    static byte[] uuid(int version, long timestamp, long lsb) {
        long timeLow = timestamp & 0xffffffffL;
        long timeMid = (timestamp >>> 32) & 0xffff;
        long timeHi = (timestamp >>> 48) & 0x0fff;
        return uuid((timeLow << 32) | (timeMid << 16) | ((long) version << 12) | timeHi, lsb);
    }

    /** A composite name: each component as given, its end-of-component byte 0 but the last one's {@code lastEoc}. */
    public static byte[] composite(int lastEoc, byte[]... components) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < components.length; i++) {
            out.write(components[i].length >> 8);
            out.write(components[i].length);
            out.writeBytes(components[i]);
            out.write(i == components.length - 1 ? lastEoc : 0);
        }
        return out.toByteArray();
    }

    static byte[] composite(byte[]... components) {
        return composite(0, components);
    }

    /** A DynamicCompositeType component: its alias, value and end-of-component byte 0. */
    static byte[] aliased(char alias, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0x80);
        out.write(alias);
        out.writeBytes(composite(value));
        return out.toByteArray();
    }

    /** A DynamicCompositeType component naming its type in full text. */
    static byte[] named(String type, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] name = utf8(type);
        out.write(name.length >> 8);
        out.write(name.length);
        out.writeBytes(name);
        out.writeBytes(composite(value));
        return out.toByteArray();
    }

    public static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) out.writeBytes(p);
        return out.toByteArray();
    }

    /** Every pair of {@code names} compares as their positions do. */
    static void assertOrdered(AbstractType t, byte[]... names) {
        for (int i = 0; i < names.length; i++) {
            for (int j = 0; j < names.length; j++) {
                assertEquals(Integer.signum(Integer.compare(i, j)), Integer.signum(t.compare(names[i], names[j])),
                        t.className() + ": name " + i + " against name " + j);
            }
        }
    }

    /** The message {@link AbstractType#conform} refuses {@code value} with. */
    static String refusal(AbstractType t, byte[] value) {
        try {
            t.conform(ByteBuffer.wrap(value));
        } catch (MarshalException e) {
            return e.getMessage();
        }
        return "accepted";
    }
}
