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

    /**
     * Write a column ({@code superColumn} null) or a subcolumn; one that expires {@code ttl} seconds after the
     * mutation's time ({@link RowMutation#localDeletionTime()}) when {@code ttl} is positive, one that does not
     * when it is {@link Column#NO_TTL}.
     */
    record Write(byte[] superColumn, byte[] name, byte[] value, long timestamp, int ttl) implements Change {
        public Write {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
            if (ttl < 0) throw new IllegalArgumentException("negative ttl " + ttl);
        }

        /** A write of a column that does not expire. */
        public Write(byte[] superColumn, byte[] name, byte[] value, long timestamp) {
            this(superColumn, name, value, timestamp, Column.NO_TTL);
        }

        /**
         * The column this writes when its mutation is applied at {@code localTime} (seconds since the epoch); an
         * expiration past what an int holds is held at its greatest value.
         */
        public Column column(int localTime) {
            if (ttl == Column.NO_TTL) return Column.live(name, value, timestamp);
            return Column.expiring(name, value, timestamp, ttl, (int) Math.min(Integer.MAX_VALUE, (long) localTime + ttl));
        }
    }

    /**
     * Add {@code delta} (negative to decrement) to a counter ({@code superColumn} null) or a counter subcolumn of a
     * counter column family; {@code timestamp} is the server's clock when the increment was taken.
     */
    record Increment(byte[] superColumn, byte[] name, long delta, long timestamp) implements Change {
        public Increment {
            Objects.requireNonNull(name, "name");
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
