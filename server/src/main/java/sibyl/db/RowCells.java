package sibyl.db;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * One source's version of one row as a read selects it: the row tombstone, and the stored cells
 * (tombstones and shadowed versions included) in the read's order, which a reader merges with
 * the other sources' ({@link MergingCellIterator}). The tombstone is known before the first cell,
 * since whether a cell is live depends on the newest tombstone of every source.
 */
public interface RowCells extends Iterator<Cell> {
    /** The row tombstone; {@link Deletion#LIVE} if none. */
    Deletion deletion();

    /** Every cell of a row version from {@code start} on (an empty start = the first, or the last when reversed). */
    static RowCells from(ColumnFamily row, byte[] start, boolean reversed) {
        return new Of(row.deletion(), row.cellsFrom(start, reversed));
    }

    /** Every cell of a row version, in comparator order. */
    static RowCells all(ColumnFamily row) {
        return new Of(row.deletion(), row.cells().iterator());
    }

    /** The cells of a row version of the given names, which are in comparator order without duplicates. */
    static RowCells named(ColumnFamily row, List<byte[]> sortedNames) {
        return new Named(row, sortedNames);
    }

    /** A tombstone and cells already in the read's order. */
    record Of(Deletion deletion, Iterator<Cell> cells) implements RowCells {
        @Override
        public boolean hasNext() {
            return cells.hasNext();
        }

        @Override
        public Cell next() {
            return cells.next();
        }
    }

    /** Looks each name up as the reader comes to it. */
    final class Named implements RowCells {
        private final ColumnFamily row;
        private final List<byte[]> names;
        private int nextName;
        private Cell next;

        private Named(ColumnFamily row, List<byte[]> names) {
            this.row = row;
            this.names = names;
            advance();
        }

        private void advance() {
            next = null;
            while (next == null && nextName < names.size()) next = row.cell(names.get(nextName++));
        }

        @Override
        public Deletion deletion() {
            return row.deletion();
        }

        @Override
        public boolean hasNext() {
            return next != null;
        }

        @Override
        public Cell next() {
            if (next == null) throw new NoSuchElementException();
            Cell cell = next;
            advance();
            return cell;
        }
    }
}
