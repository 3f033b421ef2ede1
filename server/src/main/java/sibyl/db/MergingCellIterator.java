package sibyl.db;

import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Merges the cells several sources hold of one row, each in the read's order, into one sequence in that order,
 * the versions of a name reconciled into one ({@link Column#reconcile}, or super columns merged). Reads a source
 * only as far as the caller advances, so a reader that stops early leaves the rest of every source unread.
 *
 * <p>A row has few sources (the memtables and the SSTables that hold it), so the next name is found by looking
 * at every source's next cell rather than through a heap.
 */
public final class MergingCellIterator implements Iterator<Cell> {
    private final Comparator<byte[]> order;
    private final Iterator<Cell>[] sources;
    /** Each source's next cell, null once it has none. */
    private final Cell[] heads;
    /** Whether the cells are counters, whose versions add up. */
    private final boolean counters;
    /** The row tombstone of a counter row: the increments it hides are left out before versions add up. */
    private final Deletion countersHiddenBy;

    /** @param order the comparator of the cells' names, or its reverse for a reversed read */
    public MergingCellIterator(Comparator<byte[]> order, List<? extends Iterator<Cell>> sources) {
        this(order, sources, false, Deletion.LIVE);
    }

    /**
     * @param order            the comparator of the cells' names, or its reverse for a reversed read
     * @param counters         whether the cells are counters (see {@link Column#reconcile})
     * @param countersHiddenBy of counters, the row's tombstone over every source
     */
    @SuppressWarnings("unchecked")
    public MergingCellIterator(Comparator<byte[]> order, List<? extends Iterator<Cell>> sources, boolean counters,
                               Deletion countersHiddenBy) {
        this.counters = counters;
        this.countersHiddenBy = counters ? countersHiddenBy : Deletion.LIVE;
        this.order = order;
        this.sources = sources.toArray(new Iterator[0]);
        this.heads = new Cell[this.sources.length];
        for (int i = 0; i < heads.length; i++) advance(i);
    }

    private void advance(int source) {
        heads[source] = sources[source].hasNext() ? sources[source].next() : null;
    }

    @Override
    public boolean hasNext() {
        for (Cell head : heads) {
            if (head != null) return true;
        }
        return false;
    }

    @Override
    public Cell next() {
        byte[] name = null;
        for (Cell head : heads) {
            if (head != null && (name == null || order.compare(head.name(), name) < 0)) name = head.name();
        }
        if (name == null) throw new NoSuchElementException();
        Cell cell = null;
        Cell first = null;
        // Every tombstone over the name first, so that versions add up only once what any of them hides is out.
        Deletion hiding = countersHiddenBy;
        if (counters) {
            for (Cell head : heads) {
                if (head instanceof SuperColumn sc && order.compare(sc.name(), name) == 0) {
                    hiding = Deletion.reconcile(hiding, sc.deletion());
                }
            }
        }
        for (int i = 0; i < heads.length; i++) {
            if (heads[i] != null && order.compare(heads[i].name(), name) == 0) {
                if (first == null) first = heads[i];
                Cell version = hiding.isMarkedForDelete() ? CellContainer.withoutCountersHiddenBy(heads[i], hiding) : heads[i];
                if (version != null) cell = cell == null ? version : ColumnFamily.reconcile(cell, version);
                advance(i);
            }
        }
        // Every version hidden: any of them reads as hidden.
        return cell != null ? cell : first;
    }
}
