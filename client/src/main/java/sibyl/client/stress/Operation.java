package sibyl.client.stress;

import java.util.Locale;

/** What each stress operation does. */
enum Operation {
    /** batch_mutate of one row: all its columns (or super columns with their subcolumns). */
    INSERT,
    /** get_slice of one row's columns (or super columns). */
    READ,
    /** get_range_slices of consecutive rows starting at a key. */
    RANGE_SLICE,
    /** multiget_slice of several rows. */
    MULTIGET,
    /** reads and inserts, in the proportion --read-ratio. */
    MIXED;

    static Operation parse(String s) {
        try {
            return valueOf(s.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown operation '" + s
                    + "'; use insert, read, range_slice, multiget or mixed");
        }
    }

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
