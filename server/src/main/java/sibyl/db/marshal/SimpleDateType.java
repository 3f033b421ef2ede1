package sibyl.db.marshal;

import java.time.LocalDate;

/** CQL's date: exactly 4 bytes, days with the epoch at 2^31, in unsigned order (earliest first). */
public final class SimpleDateType extends FixedSizeType {
    public static final SimpleDateType instance = new SimpleDateType();
    private static final long EPOCH = 1L << 31;

    private SimpleDateType() {
        super(4, false, "Expected 4 byte long for date (%d)");
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        return java.util.Arrays.compareUnsigned(a, b);
    }

    @Override
    String render(byte[] value) {
        long days = (signed(value) & 0xffffffffL) - EPOCH;
        LocalDate date = LocalDate.ofEpochDay(days);
        // As 3.11 prints it: no '+' before a year past 9999.
        return String.format(date.getYear() < 0 ? "%d-%02d-%02d" : "%04d-%02d-%02d", date.getYear(),
                date.getMonthValue(), date.getDayOfMonth());
    }
}
