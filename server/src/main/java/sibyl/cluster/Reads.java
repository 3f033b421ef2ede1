package sibyl.cluster;

import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnSelection;
import sibyl.db.SuperColumn;
import sibyl.service.Consistency;

/**
 * Slices and counts of one row, as CQL SELECTs. The cluster hides tombstones and what they
 * shadow, so every row returned is live; a super column is the run of rows of one column1.
 */
final class Reads {
    private Reads() {
    }

    /**
     * The slice of one row: columns of a standard table, super columns of a super table
     * ({@code superColumn} null), or subcolumns of one super column.
     */
    static List<Cell> slice(ClusterStorageService service, Table table, byte[] key, byte[] superColumn,
                            ColumnSelection selection, Consistency consistency) {
        if (table.isSuper() && superColumn == null) return superColumns(service, table, key, selection, consistency);
        return columns(service, table, key, superColumn, selection, consistency);
    }

    static CompletableFuture<List<Cell>> sliceAsync(ClusterStorageService service, Table table, byte[] key,
                                                    byte[] superColumn, ColumnSelection selection,
                                                    Consistency consistency) {
        // A range slice asks for many rows at once; each is still read on its own.
        return CompletableFuture.completedFuture(slice(service, table, key, superColumn, selection, consistency));
    }

    private static List<Cell> columns(ClusterStorageService service, Table table, byte[] key, byte[] superColumn,
                                      ColumnSelection selection, Consistency consistency) {
        String name = superColumn == null ? "column1" : "column2";
        StringBuilder cql = new StringBuilder("SELECT ").append(name).append(", value, writetime(value) FROM ")
                .append(table.qualifiedName()).append(" WHERE key = ?");
        if (superColumn != null) cql.append(" AND column1 = ?");
        List<byte[]> values = new ArrayList<>();
        values.add(key);
        if (superColumn != null) values.add(superColumn);
        Integer limit = null;
        if (selection instanceof ColumnSelection.Names names) {
            if (names.names().isEmpty()) return List.of();
            cql.append(" AND ").append(name).append(" IN ?");
            values.add(Values.array(Values.list(names.names())));
        } else {
            ColumnSelection.Range range = (ColumnSelection.Range) selection;
            if (range.count() == 0) return List.of();
            bounds(cql, values, name, range);
            cql.append(" ORDER BY ").append(order(table, superColumn != null, range.reversed()));
            limit = range.count();
        }
        if (limit != null) cql.append(" LIMIT ?");
        BoundStatementBuilder b = bind(service, cql.toString(), values, consistency);
        if (limit != null) b.setInt(values.size(), limit);
        List<Cell> cells = new ArrayList<>();
        for (Row row : service.execute(b.build())) {
            cells.add(Column.live(Values.array(row.getBytesUnsafe(0)), Values.array(row.getBytesUnsafe(1)),
                    row.getLong(2)));
        }
        return cells;
    }

    private static List<Cell> superColumns(ClusterStorageService service, Table table, byte[] key,
                                           ColumnSelection selection, Consistency consistency) {
        StringBuilder cql = new StringBuilder("SELECT column1, column2, value, writetime(value) FROM ")
                .append(table.qualifiedName()).append(" WHERE key = ?");
        List<byte[]> values = new ArrayList<>();
        values.add(key);
        int count = Integer.MAX_VALUE;
        if (selection instanceof ColumnSelection.Names names) {
            if (names.names().isEmpty()) return List.of();
            cql.append(" AND column1 IN ?");
            values.add(Values.array(Values.list(names.names())));
        } else {
            ColumnSelection.Range range = (ColumnSelection.Range) selection;
            if (range.count() == 0) return List.of();
            bounds(cql, values, "column1", range);
            cql.append(" ORDER BY ").append(order(table, true, range.reversed()));
            count = range.count();
        }
        ResultSet rows = service.execute(bind(service, cql.toString(), values, consistency).build());
        CFMetaData cf = table.metadata();
        List<Cell> superColumns = new ArrayList<>();
        SuperColumn.Builder current = null;
        byte[] currentName = null;
        for (Row row : rows) {
            byte[] name = Values.array(row.getBytesUnsafe(0));
            if (currentName == null || !Arrays.equals(name, currentName)) {
                if (current != null) superColumns.add(current.build());
                if (superColumns.size() == count) return superColumns; // stops paging through the rest
                current = SuperColumn.builder(name, cf.subcomparator(), 4);
                currentName = name;
            }
            current.add(Column.live(Values.array(row.getBytesUnsafe(1)), Values.array(row.getBytesUnsafe(2)),
                    row.getLong(3)));
        }
        if (current != null && superColumns.size() < count) superColumns.add(current.build());
        return superColumns;
    }

    /** get_count: live columns, super columns, or subcolumns of one super column. */
    static int count(ClusterStorageService service, Table table, byte[] key, byte[] superColumn,
                     Consistency consistency) {
        if (table.isSuper() && superColumn == null) {
            // one row per super column
            String cql = "SELECT column1 FROM " + table.qualifiedName() + " WHERE key = ? GROUP BY column1";
            int n = 0;
            for (Row ignored : service.execute(bind(service, cql, List.of(key), consistency).build())) n++;
            return n;
        }
        String cql = "SELECT COUNT(*) FROM " + table.qualifiedName() + " WHERE key = ?"
                + (superColumn == null ? "" : " AND column1 = ?");
        List<byte[]> values = superColumn == null ? List.of(key) : List.of(key, superColumn);
        Row row = service.execute(bind(service, cql, values, consistency).build()).one();
        return row == null ? 0 : (int) Math.min(Integer.MAX_VALUE, row.getLong(0));
    }

    /** start and finish of a range as CQL bounds on {@code name}; reversed, start is the upper bound. */
    private static void bounds(StringBuilder cql, List<byte[]> values, String name, ColumnSelection.Range range) {
        byte[] lower = range.reversed() ? range.finish() : range.start();
        byte[] upper = range.reversed() ? range.start() : range.finish();
        if (lower.length > 0) {
            cql.append(" AND ").append(name).append(" >= ?");
            values.add(lower);
        }
        if (upper.length > 0) {
            cql.append(" AND ").append(name).append(" <= ?");
            values.add(upper);
        }
    }

    private static String order(Table table, boolean bothColumns, boolean reversed) {
        String dir = reversed ? " DESC" : " ASC";
        return table.isSuper() && bothColumns ? "column1" + dir + ", column2" + dir : "column1" + dir;
    }

    static BoundStatementBuilder bind(ClusterStorageService service, String cql, List<byte[]> values,
                                      Consistency consistency) {
        BoundStatementBuilder b = service.statements().get(cql).boundStatementBuilder();
        for (int i = 0; i < values.size(); i++) ClusterStorageService.bytes(b, i, values.get(i));
        return b.setConsistencyLevel(ConsistencyLevels.read(consistency));
    }
}
