package sibyl.db.marshal;

/** One byte (or empty): 0 is false, any other byte true; false sorts before true, and all trues are equal. */
public final class BooleanType extends FixedSizeType {
    public static final BooleanType instance = new BooleanType();

    private BooleanType() {
        super(1, true, "Expected 1 or 0 byte value (%d)");
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        int e = compareEmpty(a, b);
        return e != 2 ? e : Boolean.compare(a[0] != 0, b[0] != 0);
    }

    @Override
    String render(byte[] value) {
        return Boolean.toString(value[0] != 0);
    }
}
