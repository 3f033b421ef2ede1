package sibyl.db.marshal;

/** 8-byte IEEE 754 doubles (or empty), in {@link Double#compare} order (-0.0 before 0.0, NaN last). */
public final class DoubleType extends FixedSizeType {
    public static final DoubleType instance = new DoubleType();

    private DoubleType() {
        super(8, true, "Expected 8 or 0 byte value for a double (%d)");
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        int e = compareEmpty(a, b);
        return e != 2 ? e : Double.compare(value(a), value(b));
    }

    @Override
    String render(byte[] value) {
        return Double.toString(value(value));
    }

    private static double value(byte[] bytes) {
        return Double.longBitsToDouble(signed(bytes));
    }
}
