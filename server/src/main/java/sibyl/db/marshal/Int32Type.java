package sibyl.db.marshal;

/** 4-byte big-endian signed ints (or empty), in numeric order. */
public final class Int32Type extends FixedSizeType {
    public static final Int32Type instance = new Int32Type();

    private Int32Type() {
        super(4, true, "Expected 4 or 0 byte int (%d)");
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        int e = compareEmpty(a, b);
        return e != 2 ? e : Long.compare(signed(a), signed(b));
    }

    @Override
    String render(byte[] value) {
        return Long.toString(signed(value));
    }
}
