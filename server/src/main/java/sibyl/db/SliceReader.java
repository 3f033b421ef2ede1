package sibyl.db;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;
import sibyl.db.marshal.AbstractType;

/**
 * Reads what a client sees out of one row version: never tombstones or shadowed columns, and a
 * super column only with its live subcolumns and only if it has one.
 *
 * <p>Works at one of two levels: the cells of the column family (columns, or super columns of a
 * super CF) or the subcolumns of one super column.
 */
public final class SliceReader {
    private SliceReader() {
    }

    /**
     * The live entries {@code selection} picks at the level {@code superColumn} names (null = the
     * column family itself), in selection order, as a reader at {@code nowSeconds} (since the epoch) sees them:
     * expiring columns past their expiration are left out. A null row reads as an empty one.
     */
    public static List<Cell> read(ColumnFamily row, byte[] superColumn, ColumnSelection selection, int nowSeconds) {
        Level level = level(row, superColumn, nowSeconds);
        if (level == null) return List.of();
        if (selection instanceof ColumnSelection.Names names) return readNames(level, names);
        return readRange(level, (ColumnSelection.Range) selection);
    }

    /**
     * The live cell at a path: a column, a subcolumn, or a super column with its live
     * subcolumns, as a reader at {@code nowSeconds} sees it; null when there is none.
     */
    public static Cell readOne(ColumnFamily row, byte[] superColumn, byte[] column, int nowSeconds) {
        if (column == null) {
            if (row == null || superColumn == null) throw new IllegalArgumentException("a path needs a column or a super column");
            return row.cell(superColumn) instanceof SuperColumn sc ? sc.live(row.deletion(), nowSeconds) : null;
        }
        Level level = level(row, superColumn, nowSeconds);
        return level == null ? null : level.live(level.stored(column));
    }

    /**
     * What a reader at {@code nowSeconds} sees of a cell stored at a row's top level under the row tombstone
     * {@code rowDeletion}: the column if it is live (and not expired), a super column with its live subcolumns if
     * it has one, else null. The one rule of which cells a read counts and returns.
     */
    public static Cell live(Cell stored, Deletion rowDeletion, int nowSeconds) {
        if (stored instanceof Column c) return c.isLive(rowDeletion, nowSeconds) ? c : null;
        return ((SuperColumn) stored).live(rowDeletion, nowSeconds);
    }

    private static List<Cell> readNames(Level level, ColumnSelection.Names selection) {
        TreeSet<byte[]> names = new TreeSet<>(level.comparator());
        names.addAll(selection.names());
        List<Cell> result = new ArrayList<>(Math.min(names.size(), 64));
        for (byte[] name : names) {
            Cell live = level.live(level.stored(name));
            if (live != null) result.add(live);
        }
        return result;
    }

    private static List<Cell> readRange(Level level, ColumnSelection.Range range) {
        List<Cell> result = new ArrayList<>();
        if (range.count() == 0) return result;
        AbstractType comparator = level.comparator();
        byte[] finish = range.finish();
        Iterator<? extends Cell> cells = level.storedFrom(range.start(), range.reversed());
        while (cells.hasNext()) {
            Cell cell = cells.next();
            if (finish.length > 0) {
                int c = comparator.compare(cell.name(), finish);
                if (range.reversed() ? c < 0 : c > 0) break;
            }
            Cell live = level.live(cell);
            if (live != null) {
                result.add(live);
                if (result.size() >= range.count()) break;
            }
        }
        return result;
    }

    /** The level a read works at, or null when the super column it names does not exist. */
    private static Level level(ColumnFamily row, byte[] superColumn, int nowSeconds) {
        if (row == null) return null;
        if (superColumn == null) return new FamilyLevel(row, nowSeconds);
        PathShape.COLUMN.check(row.metadata(), true, true);
        if (!(row.cell(superColumn) instanceof SuperColumn sc)) return null;
        return new SuperColumnLevel(sc, Deletion.reconcile(row.deletion(), sc.deletion()), nowSeconds);
    }

    /** One level of a row: its stored entries and what of each a reader may see. */
    private interface Level {
        AbstractType comparator();

        Cell stored(byte[] name);

        Iterator<? extends Cell> storedFrom(byte[] start, boolean reversed);

        /** What a reader sees of a stored entry, or null when nothing of it is live. */
        Cell live(Cell stored);
    }

    private record FamilyLevel(ColumnFamily row, int nowSeconds) implements Level {
        @Override
        public AbstractType comparator() {
            return row.metadata().comparator();
        }

        @Override
        public Cell stored(byte[] name) {
            return row.cell(name);
        }

        @Override
        public Iterator<Cell> storedFrom(byte[] start, boolean reversed) {
            return row.cellsFrom(start, reversed);
        }

        @Override
        public Cell live(Cell stored) {
            return stored == null ? null : SliceReader.live(stored, row.deletion(), nowSeconds);
        }
    }

    /** @param covering the newer of the row's and the super column's tombstones */
    private record SuperColumnLevel(SuperColumn superColumn, Deletion covering, int nowSeconds) implements Level {
        @Override
        public AbstractType comparator() {
            return superColumn.subcomparator();
        }

        @Override
        public Cell stored(byte[] name) {
            return superColumn.subcolumn(name);
        }

        @Override
        public Iterator<Column> storedFrom(byte[] start, boolean reversed) {
            return superColumn.subcolumnsFrom(start, reversed);
        }

        @Override
        public Cell live(Cell stored) {
            return stored != null && ((Column) stored).isLive(covering, nowSeconds) ? stored : null;
        }
    }
}
