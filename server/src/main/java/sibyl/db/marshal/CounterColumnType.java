package sibyl.db.marshal;

/**
 * The validation class of a counter's value: an 8-byte count (or empty). Sibyl takes it as a validator of values
 * only; counter tables are served with the next issue (docs/differences.md §The 0.7+ dialect).
 */
public final class CounterColumnType extends FixedSizeType {
    public static final CounterColumnType instance = new CounterColumnType();

    private CounterColumnType() {
        super(8, true, LongType.REFUSAL_311);
    }

    /** 3.11 prints a count's bytes in hex. */
    @Override
    String render(byte[] value) {
        return java.util.HexFormat.of().formatHex(value);
    }
}
