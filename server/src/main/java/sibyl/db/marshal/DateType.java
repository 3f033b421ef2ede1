package sibyl.db.marshal;

/**
 * 0.7's date, the same 8 bytes as {@link TimestampType}, but ordered as Cassandra 3.11 orders it: by unsigned bytes,
 * so that dates before 1970 sort after every later one (the reason TimestampType was added).
 */
public final class DateType extends FixedSizeType {
    public static final DateType instance = new DateType();

    private DateType() {
        super(8, true, TimestampType.REFUSAL);
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        return java.util.Arrays.compareUnsigned(a, b);
    }

    @Override
    String render(byte[] value) {
        return TimestampType.print(signed(value));
    }
}
