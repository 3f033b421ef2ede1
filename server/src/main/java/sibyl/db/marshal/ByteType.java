package sibyl.db.marshal;

/** CQL's tinyint: exactly 1 byte, signed, in numeric order. */
public final class ByteType extends FixedSizeType {
    public static final ByteType instance = new ByteType();

    private ByteType() {
        super(1, false, "Expected 1 byte for a tinyint (%d)");
    }
}
