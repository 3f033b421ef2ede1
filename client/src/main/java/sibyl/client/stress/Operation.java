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
    MIXED,
    /** The plain insert of one column: C0 of the row (in super column S0 with -y super). */
    INSERT_COLUMN,
    /** The plain get of one column: the C0 that insert and insert_column write. */
    GET_COLUMN,
    /** 0.7's add of 1 to one counter, C0 (in super column S0 with -y super), of a counter column family. */
    ADD;

    static Operation parse(String s) {
        try {
            return valueOf(s.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown operation '" + s
                    + "'; use insert, read, range_slice, multiget, mixed, insert_column, get_column or add");
        }
    }

    /** Whether each call carries one column, named by a ColumnPath: Thrift's insert and get. */
    boolean singleColumn() {
        return this == INSERT_COLUMN || this == GET_COLUMN || this == ADD;
    }

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
