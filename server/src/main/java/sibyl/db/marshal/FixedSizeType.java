package sibyl.db.marshal;

import java.nio.ByteBuffer;

/**
 * A type of values of one size, or of that size or none (Cassandra 3.11's rule for the types that predate CQL's):
 * it refuses any other length with {@code String.format(refusal, length)}. Unless a type says otherwise, its values
 * are big-endian signed numbers, in numeric order and printed as such.
 */
abstract class FixedSizeType extends UniformlyCheckedType {
    private final int size;
    private final boolean emptyAllowed;
    private final String refusal;

    FixedSizeType(int size, boolean emptyAllowed, String refusal) {
        this.size = size;
        this.emptyAllowed = emptyAllowed;
        this.refusal = refusal;
    }

    @Override
    public void conform(ByteBuffer value) {
        int length = value.remaining();
        if (length != size && !(emptyAllowed && length == 0)) {
            throw new MarshalException(String.format(refusal, length));
        }
    }

    @Override
    public String getString(byte[] name) {
        validate(name);
        return name.length == 0 ? "" : render(name);
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        int e = compareEmpty(a, b);
        return e != 2 ? e : Long.compare(signed(a), signed(b));
    }

    /** A value of the right size as 3.11 prints it. */
    String render(byte[] value) {
        return Long.toString(signed(value));
    }

    /** The big-endian signed number in {@code value}'s bytes. */
    static long signed(byte[] value) {
        long v = value[0];
        for (int i = 1; i < value.length; i++) v = (v << 8) | (value[i] & 0xff);
        return v;
    }
}
