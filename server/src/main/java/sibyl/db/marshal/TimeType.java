package sibyl.db.marshal;

import java.time.LocalTime;

/**
 * CQL's time: exactly 8 bytes, nanoseconds since midnight, in unsigned byte order as 3.11 orders it (numeric for the
 * times of a day). 3.11 takes 8 bytes beyond a day too and prints them oddly; Sibyl prints those as the number.
 */
public final class TimeType extends FixedSizeType {
    public static final TimeType instance = new TimeType();

    private TimeType() {
        super(8, false, "Expected 8 byte long for time (%d)");
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        return java.util.Arrays.compareUnsigned(a, b);
    }

    @Override
    String render(byte[] value) {
        long nanos = signed(value);
        if (nanos < 0 || nanos >= 86_400_000_000_000L) return Long.toString(nanos);
        LocalTime t = LocalTime.ofNanoOfDay(nanos);
        return String.format("%02d:%02d:%02d.%09d", t.getHour(), t.getMinute(), t.getSecond(), t.getNano());
    }
}
