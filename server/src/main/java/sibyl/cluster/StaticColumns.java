package sibyl.cluster;

import com.datastax.oss.driver.api.core.cql.Row;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnSelection;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.CompositeType;
import sibyl.db.marshal.DynamicCompositeType;
import sibyl.db.marshal.ReversedType;

/**
 * The declared columns a standard table holds in static columns ({@link StaticColumn}), with the statements that
 * read and write them. Every other name, and a declared name written before its column existed, stays in
 * {@code (column1, value)}: a read takes both and keeps, of a name found in both, the version that wins
 * ({@link Column#reconcile}), so adding a column to a table that has rows hides nothing (docs/configuration.md
 * §Cluster).
 */
final class StaticColumns {
    /** The generated columns' names; a declared column of one of these names stays in (column1, value). */
    private static final Set<String> TAKEN = Set.of("key", "column1", "value");

    private final List<StaticColumn> columns;
    private final Map<ByteBuffer, Integer> byName = new HashMap<>();
    private final AbstractType comparator;
    private final TableStatements.Slot read;
    private final List<TableStatements.Slot> updates = new ArrayList<>();
    private final List<TableStatements.Slot> deletes = new ArrayList<>();

    StaticColumns(String qualifiedTable, AbstractType comparator, List<StaticColumn> columns) {
        this.comparator = comparator;
        this.columns = columns.stream().sorted(Comparator.comparing(StaticColumn::name, comparator)).toList();
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 0; i < this.columns.size(); i++) {
            StaticColumn c = this.columns.get(i);
            byName.put(ByteBuffer.wrap(c.name()), i);
            String quoted = ClusterSchema.quote(c.column());
            select.append(i == 0 ? "" : ", ").append(quoted).append(", writetime(").append(quoted).append("), ttl(")
                    .append(quoted).append(')');
            // TTL 0 is a cell that does not expire, as in TableStatements' update
            updates.add(new TableStatements.Slot("UPDATE " + qualifiedTable + " USING TIMESTAMP ? AND TTL ? SET "
                    + quoted + " = ? WHERE key = ?"));
            deletes.add(new TableStatements.Slot("DELETE " + quoted + " FROM " + qualifiedTable
                    + " USING TIMESTAMP ? WHERE key = ?"));
        }
        // a row's static values come with each of its CQL rows, and with one row when it has only those
        this.read = new TableStatements.Slot(select.append(" FROM ").append(qualifiedTable)
                .append(" WHERE key = ? LIMIT 1").toString());
    }

    /**
     * The static columns a table of this column family is made with: one per column_metadata entry, for a standard
     * column family (not a counter one) whose comparator is one CQL type in ascending order. A column stays in
     * (column1, value) when its validation class has no CQL type, when the comparator's text of its name is empty,
     * key, column1 or value (3.11 renames its own columns then; Sibyl's statements name them), or the text of an
     * earlier name.
     */
    static List<StaticColumn> declared(CFMetaData cf) {
        AbstractType comparator = cf.comparator();
        if (cf.isSuper() || cf.isCounter() || comparator instanceof CompositeType
                || comparator instanceof DynamicCompositeType || comparator instanceof ReversedType
                || CqlType.of(comparator).isEmpty()) {
            return List.of();
        }
        List<StaticColumn> declared = new ArrayList<>();
        Set<String> seen = new HashSet<>(TAKEN);
        for (Map.Entry<ByteBuffer, AbstractType> c : cf.validators().columns().entrySet()) {
            byte[] name = Values.array(c.getKey());
            var type = CqlType.of(c.getValue());
            String column = comparator.getString(name);
            if (type.isEmpty() || column.isEmpty() || !seen.add(column)) continue;
            declared.add(new StaticColumn(name, column, type.get()));
        }
        return declared;
    }

    List<StaticColumn> columns() {
        return columns;
    }

    /** The index of a name's column, or -1 when the name is stored in (column1, value). */
    int indexOf(byte[] name) {
        return byName.getOrDefault(ByteBuffer.wrap(name), -1);
    }

    /** Binds timestamp, ttl, value, key. */
    TableStatements.Slot update(int index) {
        return updates.get(index);
    }

    /** Binds timestamp, key. */
    TableStatements.Slot delete(int index) {
        return deletes.get(index);
    }

    /** Binds key: every static column's value, writetime and ttl. */
    TableStatements.Slot read() {
        return read;
    }

    List<TableStatements.Slot> slots() {
        List<TableStatements.Slot> all = new ArrayList<>(updates);
        all.addAll(deletes);
        all.add(read);
        return all;
    }

    /** {@code , "a" text STATIC, "b" bigint STATIC}: the definitions CREATE TABLE adds. */
    String definitions() {
        return columns.stream().map(c -> ", " + c.definition()).collect(Collectors.joining());
    }

    /** The live columns of a {@link #read()} row (null when the row has none) that the selection takes, in its order. */
    List<Column> selected(Row row, ColumnSelection selection) {
        if (row == null) return List.of();
        List<Column> found = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            if (row.isNull(3 * i)) continue;
            byte[] name = columns.get(i).name();
            if (takes(selection, name)) found.add(Reads.column(row, name, 3 * i));
        }
        if (selection instanceof ColumnSelection.Range r && r.reversed()) Collections.reverse(found);
        return found;
    }

    private boolean takes(ColumnSelection selection, byte[] name) {
        if (selection instanceof ColumnSelection.Names names) {
            for (byte[] n : names.names()) {
                if (Arrays.equals(n, name)) return true;
            }
            return false;
        }
        ColumnSelection.Range range = (ColumnSelection.Range) selection;
        byte[] lower = range.reversed() ? range.finish() : range.start();
        byte[] upper = range.reversed() ? range.start() : range.finish();
        return (lower.length == 0 || comparator.compare(name, lower) >= 0)
                && (upper.length == 0 || comparator.compare(name, upper) <= 0);
    }

    /**
     * The row's columns from both places in the selection's order, a name in both given once as the version that
     * wins, and a range cut at its count. {@code dynamic} is in that order already and holds at most the count.
     */
    List<Cell> merge(List<Cell> dynamic, List<Column> statics, ColumnSelection selection) {
        if (statics.isEmpty()) return dynamic;
        boolean reversed = selection instanceof ColumnSelection.Range r && r.reversed();
        int count = selection instanceof ColumnSelection.Range r ? r.count() : Integer.MAX_VALUE;
        Comparator<byte[]> order = reversed ? comparator.reversed() : comparator;
        List<Cell> merged = new ArrayList<>(dynamic.size() + statics.size());
        int d = 0;
        int s = 0;
        while ((d < dynamic.size() || s < statics.size()) && merged.size() < count) {
            if (s == statics.size()) {
                merged.add(dynamic.get(d++));
            } else if (d == dynamic.size()) {
                merged.add(statics.get(s++));
            } else {
                int c = order.compare(dynamic.get(d).name(), statics.get(s).name());
                if (c < 0) {
                    merged.add(dynamic.get(d++));
                } else if (c > 0) {
                    merged.add(statics.get(s++));
                } else {
                    merged.add(Column.reconcile((Column) dynamic.get(d++), statics.get(s++)));
                }
            }
        }
        return merged;
    }
}
