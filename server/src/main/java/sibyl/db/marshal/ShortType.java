package sibyl.db.marshal;

/** CQL's smallint: exactly 2 bytes, big-endian signed, in numeric order. */
public final class ShortType extends FixedSizeType {
    public static final ShortType instance = new ShortType();

    private ShortType() {
        super(2, false, "Expected 2 bytes for a smallint (%d)");
    }
}
