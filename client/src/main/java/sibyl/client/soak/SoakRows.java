package sibyl.client.soak;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.SuperColumn;
import sibyl.client.BatchMutation;

/**
 * What the soak writes, derived from the key alone, so a reader can tell a whole, right row from
 * a missing, partial or garbled one without being told what was sent. Every key is written once.
 * A standard row ({@code s-...} in Standard1) has {@link #COLUMNS} columns; a super row
 * ({@code u-...} in Super1) has one super column {@code sc} with {@link #COLUMNS} sub-columns.
 */
final class SoakRows {
    static final String KEYSPACE = "Keyspace1";
    static final String STANDARD = "Standard1";
    static final String SUPER = "Super1";
    static final int COLUMNS = 3;
    private static final int VALUE_BYTES = 100;
    private static final byte[] SUPER_COLUMN = utf8("sc");

    private SoakRows() {
    }

    /** The kind of row a key names: its column family, from the key's first letter. */
    static String columnFamily(String key) {
        if (key.startsWith("s-")) return STANDARD;
        if (key.startsWith("u-")) return SUPER;
        throw new IllegalArgumentException("not a soak key: " + key);
    }

    static String standardKey(String writer, long n) {
        return "s-" + writer + "-" + n;
    }

    static String superKey(String writer, long n) {
        return "u-" + writer + "-" + n;
    }

    /** The whole row of {@code key} as one mutation (one commit log entry). */
    static void addTo(BatchMutation batch, String key) {
        BatchMutation.Row row = batch.row(columnFamily(key), key);
        for (int c = 0; c < COLUMNS; c++) {
            if (columnFamily(key).equals(SUPER)) {
                row.putSub(SUPER_COLUMN, column(c), value(key, c));
            } else {
                row.put(column(c), value(key, c));
            }
        }
    }

    static ColumnParent parent(String key) {
        return new ColumnParent(columnFamily(key));
    }

    /** Whether {@code row} (a slice of all of the key's columns) is exactly what the soak wrote for it. */
    static boolean isWhole(String key, List<ColumnOrSuperColumn> row) {
        if (!key.startsWith("s-") && !key.startsWith("u-")) return false;
        List<Column> columns = new ArrayList<>();
        if (columnFamily(key).equals(SUPER)) {
            if (row.size() != 1 || !row.get(0).isSetSuper_column()) return false;
            SuperColumn sc = row.get(0).getSuper_column();
            if (!Arrays.equals(sc.getName(), SUPER_COLUMN)) return false;
            columns.addAll(sc.getColumns());
        } else {
            for (ColumnOrSuperColumn cosc : row) {
                if (!cosc.isSetColumn()) return false;
                columns.add(cosc.getColumn());
            }
        }
        if (columns.size() != COLUMNS) return false;
        for (int c = 0; c < COLUMNS; c++) {
            Column column = columns.get(c);
            if (!Arrays.equals(column.getName(), column(c)) || !Arrays.equals(column.getValue(), value(key, c))) {
                return false;
            }
        }
        return true;
    }

    private static byte[] column(int c) {
        return utf8("c" + c);
    }

    private static byte[] value(String key, int c) {
        String unit = key + "/c" + c + ";";
        return utf8(unit.repeat(VALUE_BYTES / unit.length() + 1).substring(0, VALUE_BYTES));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
