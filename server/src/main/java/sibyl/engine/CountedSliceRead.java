package sibyl.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.ColumnSelection;
import sibyl.db.Deletion;
import sibyl.db.SuperColumn;
import sibyl.db.marshal.AbstractType;
import sibyl.io.CellCursor;

/**
 * A slice with a count over the top level of one row, merged from every source a cell at a time
 * in slice order, that stops as soon as the merged version holds {@code count} live cells: each
 * SSTable source has then read only the column index blocks up to the first cell past that point.
 *
 * <p>Why a merge and not a per-source limit: a source cannot tell on its own which of its cells
 * are live. A tombstone in another source (a column tombstone, or a row tombstone newer than
 * its columns) may hide them, so a source's first {@code count} cells need not hold the
 * merged first {@code count} live ones. Merging name by name decides liveness with every
 * version of that name and the newest row tombstone of all sources in hand, which is known
 * before the first cell (memtable rows carry it, SSTable cursors read it with the row header).
 *
 * <p>The result is the merged row cut after the last cell the slice needs: every cell from the
 * start up to and including it, with every source's version reconciled, and the row tombstone.
 * {@link SliceReader} reads the same slice out of it as out of the whole merged row.
 */
final class CountedSliceRead {
    private CountedSliceRead() {
    }

    /**
     * @param rows    the row's versions in memtables (whole)
     * @param cursors the row's cells in each SSTable that holds it, from the slice's start in its direction;
     *                the caller holds references to those SSTables until this returns
     * @return the merged row as far as the slice needs; null when no source holds the row
     */
    static ColumnFamily read(CFMetaData metadata, List<ColumnFamily> rows, List<CellCursor> cursors,
                             ColumnSelection.Range range) {
        if (rows.isEmpty() && cursors.isEmpty()) return null;
        ColumnFamily.Builder merged = ColumnFamily.builder(metadata, Math.min(range.count(), 64));
        List<Head> heads = new ArrayList<>();
        for (ColumnFamily row : rows) {
            merged.delete(row.deletion());
            heads.add(new Head(row.cellsFrom(range.start(), range.reversed())));
        }
        for (CellCursor cursor : cursors) {
            merged.delete(cursor.deletion());
            heads.add(new Head(cursor));
        }
        AbstractType comparator = metadata.comparator();
        Comparator<byte[]> order = range.reversed() ? comparator.reversed() : comparator;
        byte[] finish = range.finish();
        Deletion rowDeletion = merged.deletion();
        int live = 0;
        while (live < range.count()) {
            byte[] name = null;
            for (Head h : heads) {
                if (h.cell != null && (name == null || order.compare(h.cell.name(), name) < 0)) name = h.cell.name();
            }
            if (name == null || (finish.length > 0 && order.compare(name, finish) > 0)) break;
            Cell cell = null;
            for (Head h : heads) {
                if (h.cell != null && order.compare(h.cell.name(), name) == 0) {
                    cell = cell == null ? h.cell : reconcile(cell, h.cell);
                    h.advance();
                }
            }
            merged.add(cell); // in slice order: ascending, or descending when reversed, so built in O(n)
            if (isLive(cell, rowDeletion)) live++;
        }
        return merged.build();
    }

    private static Cell reconcile(Cell a, Cell b) {
        if (a instanceof Column ca) return Column.reconcile(ca, (Column) b);
        return SuperColumn.merge((SuperColumn) a, (SuperColumn) b);
    }

    /** Whether a reader sees the cell under the row tombstone, as {@link SliceReader} judges it. */
    private static boolean isLive(Cell cell, Deletion rowDeletion) {
        if (cell instanceof Column c) return c.isLive(rowDeletion);
        return ((SuperColumn) cell).live(rowDeletion) != null;
    }

    /** One source and its next cell (null once it has none). */
    private static final class Head {
        private final Iterator<Cell> cells;
        private Cell cell;

        Head(Iterator<Cell> cells) {
            this.cells = cells;
            advance();
        }

        void advance() {
            cell = cells.hasNext() ? cells.next() : null;
        }
    }
}
