package sibyl.db.marshal;

import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.TimeZone;

/** Milliseconds since the epoch as 8 big-endian signed bytes (or empty), in numeric order: dates before 1970 first. */
public final class TimestampType extends FixedSizeType {
    public static final TimestampType instance = new TimestampType();
    static final String REFUSAL = "Expected 8 or 0 byte long for date (%d)";

    private TimestampType() {
        super(8, true, REFUSAL);
    }

    @Override
    String render(byte[] value) {
        return print(signed(value));
    }

    /**
     * How 3.11 prints a date in an error: to the minute, in UTC, on the calendar of {@link SimpleDateFormat} (Julian
     * before 1582), which is why this is not java.time. A format is not thread-safe: one per call.
     */
    static String print(long millis) {
        SimpleDateFormat format = new SimpleDateFormat("yyyy-MM-dd HH:mmX");
        format.setTimeZone(TimeZone.getTimeZone("UTC"));
        return format.format(new Date(millis));
    }
}
