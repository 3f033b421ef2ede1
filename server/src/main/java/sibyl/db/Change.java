package sibyl.db;

import java.util.Objects;

/**
 * One change a {@link RowMutation} makes to one column family of its row. Arrays are owned by
 * the change once handed in. Whether a change fits the column family (a super column where
 * there must be one, none where there must not) is checked when the mutation is applied.
 */
public sealed interface Change {
    /** The timestamp the change is written at. */
    long timestamp();

    /** Write a column ({@code superColumn} null) or a subcolumn. */
    record Write(byte[] superColumn, byte[] name, byte[] value, long timestamp) implements Change {
        public Write {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
        }
    }

    /** Tombstone a column ({@code superColumn} null) or a subcolumn. */
    record DeleteColumn(byte[] superColumn, byte[] name, long timestamp) implements Change {
        public DeleteColumn {
            Objects.requireNonNull(name, "name");
        }
    }

    /** Tombstone a whole super column: hides its subcolumns written at or before the timestamp. */
    record DeleteSuperColumn(byte[] name, long timestamp) implements Change {
        public DeleteSuperColumn {
            Objects.requireNonNull(name, "name");
        }
    }

    /** Tombstone the row in this column family: hides everything written at or before the timestamp. */
    record DeleteRow(long timestamp) implements Change {
    }

    /**
     * Sibyl's extension (a Deletion with a slice_range, which 0.6 refused): tombstone, at the
     * timestamp, each live entry the range selects at the level {@code superColumn} names (null
     * = the column family: columns, or whole super columns of a super CF).
     *
     * <p>The selection is resolved when the mutation is applied, under the row's write lock,
     * against the row as it is then with this mutation's other changes already in; so the order
     * of changes inside a mutation never matters, as for every other change.
     */
    record DeleteSlice(byte[] superColumn, ColumnSelection.Range range, long timestamp) implements Change {
        public DeleteSlice {
            Objects.requireNonNull(range, "range");
        }
    }
}
