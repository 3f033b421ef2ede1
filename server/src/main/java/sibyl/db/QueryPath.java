package sibyl.db;

import java.util.Objects;

/**
 * Where in a row a query looks: a column family, optionally a super column, optionally a column
 * (a subcolumn when the super column is set). As the parent of a slice the column is null.
 *
 * @param superColumn null unless the path goes into a super column
 * @param column      null unless the path names one column or subcolumn
 */
public record QueryPath(String columnFamily, byte[] superColumn, byte[] column) {
    public QueryPath {
        Objects.requireNonNull(columnFamily, "columnFamily");
    }

    /** The whole column family: a row tombstone, or the parent of a top-level slice. */
    public static QueryPath cf(String columnFamily) {
        return new QueryPath(columnFamily, null, null);
    }

    /** A super column, or the parent of a slice of its subcolumns. */
    public static QueryPath superColumn(String columnFamily, byte[] superColumn) {
        return new QueryPath(columnFamily, Objects.requireNonNull(superColumn), null);
    }

    /** A column of a standard column family. */
    public static QueryPath column(String columnFamily, byte[] column) {
        return new QueryPath(columnFamily, null, Objects.requireNonNull(column));
    }

    /** A subcolumn of a super column. */
    public static QueryPath subcolumn(String columnFamily, byte[] superColumn, byte[] column) {
        return new QueryPath(columnFamily, Objects.requireNonNull(superColumn), Objects.requireNonNull(column));
    }

    @Override
    public String toString() {
        return "QueryPath(" + columnFamily + ", " + Bytes.hex(superColumn) + ", " + Bytes.hex(column) + ")";
    }
}
