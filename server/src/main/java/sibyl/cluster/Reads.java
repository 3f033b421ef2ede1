package sibyl.cluster;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.Row;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnSelection;
import sibyl.db.SuperColumn;
import sibyl.db.marshal.AbstractType;
import sibyl.service.Consistency;

/**
 * Slices and counts of one row, as CQL SELECTs of the table's prepared statements
 * ({@link TableStatements}). The cluster hides tombstones and what they shadow, so every row
 * returned is live; a super column is the run of rows of one column1.
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
        return service.errors().join(sliceAsync(service, table, key, superColumn, selection, consistency));
    }

    /** As {@link #slice}, answered on the driver's threads; a range slice has many of these in flight. */
    static CompletableFuture<List<Cell>> sliceAsync(ClusterStorageService service, Table table, byte[] key,
                                                    byte[] superColumn, ColumnSelection selection,
                                                    Consistency consistency) {
        if (table.isSuper() && superColumn == null) return superColumns(service, table, key, selection, consistency);
        CompletableFuture<List<Cell>> columns = columns(service, table, key, superColumn, selection,
                ConsistencyLevels.read(consistency));
        StaticColumns statics = table.statics();
        if (statics == null || emptySelection(selection)) return columns;
        CompletableFuture<List<Column>> declared = service.executeAsync(bind(service, statics.read(), key,
                ConsistencyLevels.read(consistency)).build()).toCompletableFuture()
                .thenApply(rows -> statics.selected(rows.one(), selection));
        return columns.thenCombine(declared, (dynamic, fixed) -> statics.merge(dynamic, fixed, selection));
    }

    private static boolean emptySelection(ColumnSelection selection) {
        return selection instanceof ColumnSelection.Names n ? n.names().isEmpty()
                : ((ColumnSelection.Range) selection).count() == 0;
    }

    /** Columns of a standard table's row read at a driver's level: SERIAL or LOCAL_SERIAL, for cas. */
    static CompletableFuture<List<Cell>> columnsAsync(ClusterStorageService service, Table table, byte[] key,
                                                      ColumnSelection selection, ConsistencyLevel level) {
        return columns(service, table, key, null, selection, level);
    }

    private static final CompletableFuture<List<Cell>> NOTHING = CompletableFuture.completedFuture(List.of());

    private static CompletableFuture<List<Cell>> columns(ClusterStorageService service, Table table, byte[] key,
                                                         byte[] superColumn, ColumnSelection selection,
                                                         ConsistencyLevel consistency) {
        if (table.names() != null) return clusteredColumns(service, table, key, selection, consistency);
        TableStatements statements = table.statements();
        BoundStatementBuilder b;
        int i;
        if (selection instanceof ColumnSelection.Names names) {
            List<byte[]> list = names.names();
            if (list.isEmpty()) return NOTHING;
            b = bind(service, statements.columnsByName(list.size()), key, consistency);
            i = bindSuperColumn(b, superColumn);
            b.setBytesUnsafe(i, list.size() == 1 ? ByteBuffer.wrap(list.get(0)) : Values.list(list));
        } else {
            ColumnSelection.Range range = (ColumnSelection.Range) selection;
            if (range.count() == 0) return NOTHING;
            Bounds bounds = Bounds.of(range);
            b = bind(service, statements.columnRange(bounds.lower() != null, bounds.upper() != null,
                    range.reversed()), key, consistency);
            i = bounds.bind(b, bindSuperColumn(b, superColumn) - 1);
            b.setInt(i, range.count());
        }
        return AsyncRows.collect(service.executeAsync(b.build()), new ColumnSink(table, null));
    }

    /**
     * Columns of a table whose names are several clustering columns, or one in descending order
     * ({@link ClusteringNames}): names the table cannot hold are not looked for, and a bounded range is a
     * restriction of the clustering columns ({@link ClusteringSlice}) in a statement prepared on first use.
     */
    private static CompletableFuture<List<Cell>> clusteredColumns(ClusterStorageService service, Table table,
                                                                  byte[] key, ColumnSelection selection,
                                                                  ConsistencyLevel consistency) {
        ClusteringNames names = table.names();
        TableStatements statements = table.statements();
        if (selection instanceof ColumnSelection.Names wanted) {
            List<byte[]> list = wanted.names();
            BoundStatementBuilder b;
            if (list.size() == 1) {
                if (!names.storable(list.get(0))) return NOTHING;
                b = bind(service, statements.columnsByName(1), key, consistency);
                names.bind(b, 1, list.get(0));
            } else {
                ByteBuffer in = names.inValue(list);
                if (in == null) return NOTHING;
                b = bind(service, statements.columnsByName(list.size()), key, consistency);
                b.setBytesUnsafe(1, in);
            }
            return AsyncRows.collect(service.executeAsync(b.build()), new ColumnSink(table, names));
        }
        ColumnSelection.Range range = (ColumnSelection.Range) selection;
        if (range.count() == 0) return NOTHING;
        Bounds bounds = Bounds.of(range);
        if (bounds.lower() == null && bounds.upper() == null) {
            BoundStatementBuilder b = bind(service, statements.columnRange(false, false, range.reversed()), key,
                    consistency);
            b.setInt(1, range.count());
            return AsyncRows.collect(service.executeAsync(b.build()), new ColumnSink(table, names));
        }
        ClusteringSlice slice = ClusteringSlice.of(names, bounds.lower(), bounds.upper());
        ColumnSink sink = slice.filtered() ? new ColumnSink(table, names, inRange(table.metadata().comparator(), bounds),
                range.count()) : new ColumnSink(table, names);
        return service.statements().getAsync(statements.clusteredRange(slice, range.reversed())).thenCompose(p -> {
            BoundStatementBuilder b = p.boundStatementBuilder().setBytesUnsafe(0, ByteBuffer.wrap(key))
                    .setConsistencyLevel(consistency);
            int i = 1;
            for (byte[] v : slice.values()) b.setBytesUnsafe(i++, ByteBuffer.wrap(v));
            b.setInt(i, slice.filtered() ? Integer.MAX_VALUE : range.count()); // a filtered read stops at its count
            return AsyncRows.collect(service.executeAsync(b.build()), sink);
        });
    }

    /** Whether a name lies between the bounds (each null when open) in the comparator's order. */
    private static Predicate<byte[]> inRange(AbstractType comparator, Bounds bounds) {
        return name -> (bounds.lower() == null || comparator.compare(name, bounds.lower()) >= 0)
                && (bounds.upper() == null || comparator.compare(name, bounds.upper()) <= 0);
    }

    /** Binds the super column after the key, when there is one; returns the next index. */
    private static int bindSuperColumn(BoundStatementBuilder b, byte[] superColumn) {
        if (superColumn == null) return 1;
        b.setBytesUnsafe(1, ByteBuffer.wrap(superColumn));
        return 2;
    }

    private static CompletableFuture<List<Cell>> superColumns(ClusterStorageService service, Table table, byte[] key,
                                                              ColumnSelection selection, Consistency consistency) {
        TableStatements statements = table.statements();
        BoundStatementBuilder b;
        int count = Integer.MAX_VALUE;
        if (selection instanceof ColumnSelection.Names names) {
            List<byte[]> list = names.names();
            if (list.isEmpty()) return NOTHING;
            b = bind(service, statements.superColumnsByName(list.size()), key, ConsistencyLevels.read(consistency));
            b.setBytesUnsafe(1, list.size() == 1 ? ByteBuffer.wrap(list.get(0)) : Values.list(list));
        } else {
            ColumnSelection.Range range = (ColumnSelection.Range) selection;
            if (range.count() == 0) return NOTHING;
            Bounds bounds = Bounds.of(range);
            b = bind(service, statements.superColumnRange(bounds.lower() != null, bounds.upper() != null,
                    range.reversed()), key, ConsistencyLevels.read(consistency));
            bounds.bind(b, 0);
            count = range.count();
        }
        return AsyncRows.collect(service.executeAsync(b.build()), new SuperColumnSink(table, count));
    }

    /**
     * A column from the row's {@code at}-th to {@code at + 3}-th values: name, value, writetime and ttl. CQL tells a
     * cell's time left, not the ttl it was written with, so an expiring column reads back with what is left
     * (docs/differences.md §The 0.7+ dialect).
     */
    private static Column column(Row row, int at, boolean counter) {
        return column(row, Values.array(row.getBytesUnsafe(at)), at + 1, counter);
    }

    /**
     * A column named {@code name} from the row's {@code at}-th to {@code at + 2}-th values: value, writetime, ttl; or
     * a counter from the {@code at}-th alone (a counter has no writetime in CQL, and Thrift shows it none).
     */
    private static Column column(Row row, byte[] name, int at, boolean counter) {
        if (counter) return Column.counter(name, row.getLong(at), 0);
        return column(row, name, at);
    }

    /** A column named {@code name} from the row's {@code at}-th to {@code at + 2}-th values: value, writetime, ttl. */
    static Column column(Row row, byte[] name, int at) {
        byte[] value = Values.array(row.getBytesUnsafe(at));
        long timestamp = row.getLong(at + 1);
        if (row.isNull(at + 2)) return Column.live(name, value, timestamp);
        int left = Math.max(1, row.getInt(at + 2));
        long now = System.currentTimeMillis() / 1000;
        return Column.expiring(name, value, timestamp, left, (int) Math.min(Integer.MAX_VALUE, now + left));
    }

    /** Columns (or subcolumns) one per row: name (one value, or the columns of {@code names}), value, timestamp, ttl. */
    private static final class ColumnSink implements AsyncRows.Sink<List<Cell>> {
        private final boolean counter;
        private final ClusteringNames names;
        private final Predicate<byte[]> wanted;
        private final int count;
        private final List<Cell> cells = new ArrayList<>();

        ColumnSink(Table table, ClusteringNames names) {
            this(table, names, null, Integer.MAX_VALUE);
        }

        /** Keeps only the columns whose names are {@code wanted}, and stops at {@code count} of them. */
        ColumnSink(Table table, ClusteringNames names, Predicate<byte[]> wanted, int count) {
            this.counter = table.statements().counter();
            this.names = names;
            this.wanted = wanted;
            this.count = count;
        }

        @Override
        public boolean accept(Row row) {
            if (names == null) {
                cells.add(column(row, 0, counter));
                return true;
            }
            byte[] name = names.name(row);
            if (wanted == null || wanted.test(name)) cells.add(column(row, name, names.columns().size(), counter));
            return cells.size() < count;
        }

        @Override
        public List<Cell> result() {
            return cells;
        }
    }

    /** Super columns from runs of rows of one column1; stops reading once it has {@code count}. */
    private static final class SuperColumnSink implements AsyncRows.Sink<List<Cell>> {
        private final CFMetaData cf;
        private final boolean counter;
        private final int count;
        private final List<Cell> superColumns = new ArrayList<>();
        private SuperColumn.Builder current;
        private ByteBuffer currentName;

        SuperColumnSink(Table table, int count) {
            this.cf = table.metadata();
            this.counter = table.statements().counter();
            this.count = count;
        }

        @Override
        public boolean accept(Row row) {
            ByteBuffer name = row.getBytesUnsafe(0);
            if (currentName == null || !name.equals(currentName)) {
                if (current != null) superColumns.add(current.build());
                if (superColumns.size() == count) return false; // the rest of the row is never fetched
                currentName = name;
                current = SuperColumn.builder(Values.array(name), cf.subcomparator(), 4);
            }
            current.add(column(row, 1, counter));
            return true;
        }

        @Override
        public List<Cell> result() {
            if (current != null && superColumns.size() < count) {
                superColumns.add(current.build());
                current = null;
            }
            return superColumns;
        }
    }

    /** get_count: live columns, super columns, or subcolumns of one super column. */
    static int count(ClusterStorageService service, Table table, byte[] key, byte[] superColumn,
                     Consistency consistency) {
        TableStatements statements = table.statements();
        if (table.statics() != null) {
            // a name may be in both places, once when merged; and COUNT(*) counts a row of static values alone as one
            return slice(service, table, key, null, ColumnSelection.all(), consistency).size();
        }
        if (table.isSuper() && superColumn == null) {
            // one row per super column
            BoundStatementBuilder b = bind(service, statements.countSuperColumns(), key, ConsistencyLevels.read(consistency));
            int n = 0;
            for (Row ignored : service.execute(b.build())) n++;
            return n;
        }
        BoundStatementBuilder b = bind(service, statements.countColumns(), key, ConsistencyLevels.read(consistency));
        bindSuperColumn(b, superColumn);
        Row row = service.execute(b.build()).one();
        return row == null ? 0 : (int) Math.min(Integer.MAX_VALUE, row.getLong(0));
    }

    /** The statement with the key bound first, at the read's consistency level. */
    private static BoundStatementBuilder bind(ClusterStorageService service, TableStatements.Slot slot, byte[] key,
                                              ConsistencyLevel consistency) {
        return slot.prepared(service.statements()).boundStatementBuilder()
                .setBytesUnsafe(0, ByteBuffer.wrap(key))
                .setConsistencyLevel(consistency);
    }

    /**
     * The start and finish of a range as CQL bounds, null where open; reversed, the start is the
     * upper bound.
     */
    private record Bounds(byte[] lower, byte[] upper) {
        static Bounds of(ColumnSelection.Range range) {
            byte[] lower = range.reversed() ? range.finish() : range.start();
            byte[] upper = range.reversed() ? range.start() : range.finish();
            return new Bounds(lower.length > 0 ? lower : null, upper.length > 0 ? upper : null);
        }

        /** Binds the bounds present after index {@code last}; returns the next index. */
        int bind(BoundStatementBuilder b, int last) {
            int i = last + 1;
            if (lower != null) b.setBytesUnsafe(i++, ByteBuffer.wrap(lower));
            if (upper != null) b.setBytesUnsafe(i++, ByteBuffer.wrap(upper));
            return i;
        }
    }
}
