package sibyl.db;

import java.util.Comparator;
import java.util.Iterator;
import java.util.Objects;
import java.util.function.BinaryOperator;

/**
 * What a row version ({@link ColumnFamily}) and a {@link SuperColumn} have in common: a
 * tombstone ({@link Deletion}), which hides every cell written at or before it, and the cells
 * under it sorted by name, each the reconciled version of its name. The rules of the structure
 * live here once: the newer tombstone is kept, two versions merge cell by cell, a builder
 * collects cells in any order.
 *
 * <p>A base class rather than a part each holds: a part would be one more object per super
 * column version, and a super column is a cell of a super CF, built per subcolumn written and
 * per super column read. Immutable; every "with" method returns a new version sharing structure
 * with this one.
 *
 * @param <C> the cells: any {@link Cell} in a row, {@link Column}s in a super column
 * @param <T> the container itself, which the "with" methods return
 */
public abstract sealed class CellContainer<C extends Cell, T extends CellContainer<C, T>>
        permits ColumnFamily, SuperColumn {
    final Deletion deletion;
    final PersistentSortedMap<byte[], C> cells;

    CellContainer(Deletion deletion, PersistentSortedMap<byte[], C> cells) {
        this.deletion = Objects.requireNonNull(deletion, "deletion");
        this.cells = cells;
    }

    /** A container like this one (same metadata or name) holding {@code deletion} and {@code cells}. */
    abstract T with(Deletion deletion, PersistentSortedMap<byte[], C> cells);

    /** How two versions of one name reconcile: a constant, so that no call allocates a function. */
    abstract BinaryOperator<C> reconciler();

    /** Whether this container holds counter cells, whose versions add up (docs/semantics.md §Counters). */
    abstract boolean addsUp();

    /** The tombstone; {@link Deletion#LIVE} if never deleted. */
    public final Deletion deletion() {
        return deletion;
    }

    public final boolean isMarkedForDelete() {
        return deletion.isMarkedForDelete();
    }

    /** No cells and no tombstone: nothing stored. */
    public final boolean isEmpty() {
        return cells.isEmpty() && !deletion.isMarkedForDelete();
    }

    /** This version with tombstone {@code d} too; the one that {@link Deletion#supersedes} the other is kept. */
    public final T withDeletion(Deletion d) {
        return d.supersedes(deletion) ? with(d, cells) : self();
    }

    /** This version with a tombstone at {@code timestamp}, made at {@code localDeletionTime} (s), too. */
    public final T withDeletion(long timestamp, int localDeletionTime) {
        return withDeletion(Deletion.of(timestamp, localDeletionTime));
    }

    /** This version with {@code cell} reconciled in. */
    final T plus(C cell) {
        return with(deletion, cells.plus(cell.name(), cell, reconciler()));
    }

    /** Stored cells from {@code start} on; an empty start = from the first (last if reversed). */
    final Iterator<C> from(byte[] start, boolean reversed) {
        byte[] at = start.length == 0 ? null : start;
        return reversed ? cells.descendingFrom(at) : cells.ascendingFrom(at);
    }

    /**
     * Both versions reconciled: the tombstone kept of the two and, per name, the winning version.
     * Commutative. Costs O(smaller × log larger) when one is much smaller, else O(both): see
     * {@link PersistentSortedMap#plusAll}.
     */
    static <C extends Cell, T extends CellContainer<C, T>> T merge(T a, T b) {
        Deletion deletion = Deletion.reconcile(a.deletion, b.deletion);
        if (deletion.isMarkedForDelete() && (a.addsUp() || b.addsUp())) {
            // Increments a tombstone hides must not add up with newer ones into one cell it no longer hides.
            a = a.withoutCountersHiddenBy(deletion);
            b = b.withoutCountersHiddenBy(deletion);
        }
        T big = a.cells.size() >= b.cells.size() ? a : b;
        T small = big == a ? b : a;
        return big.with(Deletion.reconcile(big.deletion, small.deletion), big.cells.plusAll(small.cells, big.reconciler()));
    }

    /**
     * This container without the counter cells and tombstones (subcolumns too) that {@code hiding} hides: a hidden
     * counter must not add up with a newer increment, and a hidden tombstone no longer beats one (docs/semantics.md
     * §Counters: a row or super column deletion clears the counters under it, their tombstones included, whichever
     * source holds them and whenever compaction runs). Itself when there are none.
     */
    final T withoutCountersHiddenBy(Deletion hiding) {
        PersistentSortedMap.Builder<byte[], C> kept = new PersistentSortedMap.Builder<>(cells.comparator(), reconciler(), cells.size());
        boolean changed = false;
        for (C cell : cells) {
            C left = withoutCountersHiddenBy(cell, hiding);
            if (left != cell) changed = true;
            if (left != null) kept.put(cell.name(), left);
        }
        return changed ? with(deletion, kept.build()) : self();
    }

    /** {@code cell} without the counters and tombstones {@code hiding} hides: null for a hidden column. */
    @SuppressWarnings("unchecked")
    static <C extends Cell> C withoutCountersHiddenBy(C cell, Deletion hiding) {
        if (cell instanceof Column c) return (c.isCounter() || c.isTombstone()) && hiding.shadows(c.timestamp()) ? null : cell;
        return (C) ((SuperColumn) cell).withoutCountersHiddenBy(hiding);
    }

    /** {@code head}, the tombstone if any and the cells, as the toString of both containers shows them. */
    final String describe(String head) {
        StringBuilder s = new StringBuilder(head);
        if (isMarkedForDelete()) s.append(", deleted at ").append(deletion.markedForDeleteAt());
        for (C c : cells) s.append(", ").append(c);
        return s.append(')').toString();
    }

    @SuppressWarnings("unchecked")
    private T self() {
        return (T) this;
    }

    /**
     * Collects a container's cells in any order and builds it at once: what {@code with}
     * calls would make of them one by one, without a tree per step, in O(n) for cells in
     * order. Not thread-safe; {@link #build} may be called again after more are added.
     *
     * @param <B> the builder itself, which the adding methods return
     */
    public abstract static sealed class Builder<C extends Cell, T extends CellContainer<C, T>, B extends Builder<C, T, B>>
            permits ColumnFamily.Builder, SuperColumn.Builder {
        private final PersistentSortedMap.Builder<byte[], C> cells;
        private Deletion deletion = Deletion.LIVE;

        Builder(Comparator<? super byte[]> comparator, BinaryOperator<C> reconciler, int expectedCells) {
            this.cells = new PersistentSortedMap.Builder<>(comparator, reconciler, expectedCells);
        }

        /** The container of these parts. */
        abstract T build(Deletion deletion, PersistentSortedMap<byte[], C> cells);

        /** Adds a cell, reconciled with any other of the same name. */
        public B add(C cell) {
            cells.put(cell.name(), cell);
            return self();
        }

        /** Adds a tombstone; of several, the one that supersedes the others is kept. */
        public final B delete(Deletion d) {
            if (d.supersedes(deletion)) deletion = d;
            return self();
        }

        /** Adds a tombstone at {@code timestamp}, made at {@code localDeletionTime} (s). */
        public final B delete(long timestamp, int localDeletionTime) {
            return delete(Deletion.of(timestamp, localDeletionTime));
        }

        /** The tombstone so far; {@link Deletion#LIVE} if none. */
        public final Deletion deletion() {
            return deletion;
        }

        /** Cells added so far, before cells of equal names are reconciled. */
        public final int size() {
            return cells.size();
        }

        /** No cell added and no tombstone (a {@link Deletion#LIVE} one is none): {@link #build} would make an empty container. */
        public final boolean isEmpty() {
            return cells.size() == 0 && !deletion.isMarkedForDelete();
        }

        public final T build() {
            return build(deletion, cells.build());
        }

        @SuppressWarnings("unchecked")
        private B self() {
            return (B) this;
        }
    }
}
