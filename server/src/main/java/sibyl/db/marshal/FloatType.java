package sibyl.db.marshal;

/** 4-byte IEEE 754 floats (or empty), in {@link Float#compare} order (-0.0 before 0.0, NaN last). */
public final class FloatType extends FixedSizeType {
    public static final FloatType instance = new FloatType();

    private FloatType() {
        super(4, true, "Expected 4 or 0 byte value for a float (%d)");
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        int e = compareEmpty(a, b);
        return e != 2 ? e : Float.compare(value(a), value(b));
    }

    @Override
    String render(byte[] value) {
        return Float.toString(value(value));
    }

    private static float value(byte[] bytes) {
        return Float.intBitsToFloat((int) signed(bytes));
    }
}
