package sibyl.client;

import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;

/** Builders for the ColumnPath and ColumnParent structs. */
public final class Paths {

    private Paths() {
    }

    /** The whole row of a column family (for remove). */
    public static ColumnPath row(String columnFamily) {
        return new ColumnPath(columnFamily);
    }

    public static ColumnPath column(String columnFamily, byte[] column) {
        return new ColumnPath(columnFamily).setColumn(column);
    }

    public static ColumnPath superColumn(String columnFamily, byte[] superColumn) {
        return new ColumnPath(columnFamily).setSuper_column(superColumn);
    }

    public static ColumnPath subColumn(String columnFamily, byte[] superColumn, byte[] column) {
        return new ColumnPath(columnFamily).setSuper_column(superColumn).setColumn(column);
    }

    public static ColumnParent parent(String columnFamily) {
        return new ColumnParent(columnFamily);
    }

    /** The subcolumns of one super column. */
    public static ColumnParent parent(String columnFamily, byte[] superColumn) {
        return new ColumnParent(columnFamily).setSuper_column(superColumn);
    }
}
