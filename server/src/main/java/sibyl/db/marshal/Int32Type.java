package sibyl.db.marshal;

/** 4-byte big-endian signed ints (or empty), in numeric order. */
public final class Int32Type extends FixedSizeType {
    public static final Int32Type instance = new Int32Type();

    private Int32Type() {
        super(4, true, "Expected 4 or 0 byte int (%d)");
    }
}
