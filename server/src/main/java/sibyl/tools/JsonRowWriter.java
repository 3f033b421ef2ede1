package sibyl.tools;

import java.io.IOException;
import java.io.Writer;
import java.util.HexFormat;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.SuperColumn;

/**
 * Writes rows in 0.6's sstable2json shape (see JSON.md), one row per line:
 * <pre>
 * {
 *   "key": [["6e616d65", "4a6f686e", 1270000000000000, false]],
 *   "key2": {"73756d6d6172": {"deletedAt": -9223372036854775808, "subColumns": [...]}}
 * }
 * </pre>
 * Names and values in hex, every stored version as it is: tombstones (their value is the local
 * deletion time), and the row and super column tombstones 0.6 dropped or half kept, in Sibyl's
 * additions. Not thread-safe.
 */
final class JsonRowWriter {
    private static final HexFormat HEX = HexFormat.of();

    private final Writer out;
    private final StringBuilder line = new StringBuilder(256);
    private long rows;

    JsonRowWriter(Writer out) throws IOException {
        this.out = out;
        out.write("{\n");
    }

    void write(String key, ColumnFamily row) throws IOException {
        line.setLength(0);
        if (rows > 0) line.append(",\n");
        line.append("  ");
        JsonFormat.appendQuoted(line, key);
        line.append(": ");
        if (row.isMarkedForDelete()) {
            line.append("{\"").append(JsonFormat.DELETED_AT).append("\": ").append(row.deletion().markedForDeleteAt())
                    .append(", \"").append(JsonFormat.LOCAL_DELETION_TIME).append("\": ").append(row.deletion().localDeletionTime())
                    .append(", \"").append(JsonFormat.COLUMNS).append("\": ");
            cells(row);
            line.append('}');
        } else {
            cells(row);
        }
        out.append(line);
        rows++;
    }

    /** Rows written so far. */
    long rows() {
        return rows;
    }

    /** Closes the object; the caller flushes and closes the writer. */
    void finish() throws IOException {
        out.write(rows > 0 ? "\n}\n" : "}\n");
    }

    /** What 0.6 wrote for the row: an array of columns, or an object of super columns. */
    private void cells(ColumnFamily row) {
        if (!row.isSuper()) {
            line.append('[');
            String separator = "";
            for (Cell c : row.cells()) {
                line.append(separator);
                column((Column) c);
                separator = ", ";
            }
            line.append(']');
            return;
        }
        line.append('{');
        String separator = "";
        for (Cell c : row.cells()) {
            SuperColumn sc = (SuperColumn) c;
            line.append(separator).append('"');
            HEX.formatHex(line, sc.name());
            line.append("\": {\"").append(JsonFormat.DELETED_AT).append("\": ").append(sc.deletion().markedForDeleteAt());
            if (sc.isMarkedForDelete()) {
                line.append(", \"").append(JsonFormat.LOCAL_DELETION_TIME).append("\": ").append(sc.deletion().localDeletionTime());
            }
            line.append(", \"").append(JsonFormat.SUBCOLUMNS).append("\": [");
            String subSeparator = "";
            for (Column sub : sc.subcolumns()) {
                line.append(subSeparator);
                column(sub);
                subSeparator = ", ";
            }
            line.append("]}");
            separator = ", ";
        }
        line.append('}');
    }

    private void column(Column c) {
        line.append("[\"");
        HEX.formatHex(line, c.name());
        line.append("\", \"");
        HEX.formatHex(line, c.value());
        line.append("\", ").append(c.timestamp()).append(", ").append(c.isTombstone());
        // An expiring column (a 0.7+ client's ttl) adds its ttl and local expiration time.
        if (c.isExpiring()) line.append(", ").append(c.ttl()).append(", ").append(c.localExpirationTime());
        // A counter cell (the sum of the increments it holds, 8 bytes) is told from a column by a fifth element.
        if (c.isCounter()) line.append(", \"").append(JsonFormat.COUNTER).append('"');
        line.append(']');
    }
}
