package sibyl.db;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.BinaryOperator;

/**
 * One version of a row within one column family: the row tombstone (which hides every column
 * and subcolumn written at or before it) and the cells sorted by the CF comparator:
 * {@link Column}s in a standard CF, {@link SuperColumn}s in a super CF.
 *
 * <p>Immutable; every "with" method returns a new version sharing structure with this one, so a
 * reader holding a version sees exactly that version however the row changes meanwhile. Stored
 * versions keep tombstones and shadowed columns; {@link SliceReader} hides them from readers.
 */
public final class ColumnFamily extends CellContainer<Cell, ColumnFamily> {
    private static final BinaryOperator<Cell> RECONCILE = ColumnFamily::reconcile;

    private final CFMetaData metadata;

    private ColumnFamily(CFMetaData metadata, Deletion deletion, PersistentSortedMap<byte[], Cell> cells) {
        super(deletion, cells);
        this.metadata = metadata;
    }

    public static ColumnFamily empty(CFMetaData metadata) {
        return new ColumnFamily(Objects.requireNonNull(metadata), Deletion.LIVE, PersistentSortedMap.empty(metadata.comparator()));
    }

    @Override
    ColumnFamily with(Deletion deletion, PersistentSortedMap<byte[], Cell> cells) {
        return new ColumnFamily(metadata, deletion, cells);
    }

    @Override
    BinaryOperator<Cell> reconciler() {
        return RECONCILE;
    }

    public CFMetaData metadata() {
        return metadata;
    }

    public boolean isSuper() {
        return metadata.isSuper();
    }

    /** Number of stored cells, tombstones included. */
    public int cellCount() {
        return cells.size();
    }

    /** The stored version of a cell (perhaps a tombstone, perhaps shadowed), or null. */
    public Cell cell(byte[] name) {
        return cells.get(name);
    }

    /** Every stored cell in comparator order. */
    public Iterable<Cell> cells() {
        return cells;
    }

    /** Stored cells from {@code start} on; an empty start = from the first (last if reversed). */
    public Iterator<Cell> cellsFrom(byte[] start, boolean reversed) {
        return from(start, reversed);
    }

    /**
     * This version with {@code cell} reconciled in: a {@link Column} in a standard CF, a
     * {@link SuperColumn} (whose subcolumns and tombstone merge with the stored one) in a super CF.
     */
    public ColumnFamily withCell(Cell cell) {
        checkFits(metadata, cell);
        return plus(cell);
    }

    /** Collects a row's cells in any order and builds it at once, in O(n) for cells in order. */
    public static Builder builder(CFMetaData metadata, int expectedCells) {
        return new Builder(metadata, expectedCells);
    }

    /**
     * Both versions reconciled; commutative. Costs O(smaller × log larger) when one is much
     * smaller, else O(both): see {@link PersistentSortedMap#plusAll}.
     */
    public static ColumnFamily merge(ColumnFamily a, ColumnFamily b) {
        return CellContainer.merge(a, b);
    }

    /**
     * The versions of one row from several sources, merged. A counter row's versions are first cleared of what any
     * source's row or super column tombstone hides: merged two at a time, two counter cells would add up into one
     * with the later timestamp before a third source's tombstone between them is met (docs/semantics.md §Counters).
     */
    public static ColumnFamily mergeAll(List<ColumnFamily> versions) {
        List<ColumnFamily> merging = versions;
        if (versions.size() > 2 && versions.get(0).metadata.isCounter()) {
            Deletion row = Deletion.LIVE;
            Map<byte[], Deletion> superColumns = new TreeMap<>(versions.get(0).metadata.comparator());
            for (ColumnFamily v : versions) {
                row = Deletion.reconcile(row, v.deletion);
                for (Cell c : v.cells) {
                    if (c instanceof SuperColumn sc && sc.isMarkedForDelete()) {
                        superColumns.merge(sc.name(), sc.deletion(), Deletion::reconcile);
                    }
                }
            }
            merging = new ArrayList<>(versions.size());
            for (ColumnFamily v : versions) merging.add(v.withoutCountersHiddenBy(row, superColumns));
        }
        ColumnFamily merged = merging.get(0);
        for (int i = 1; i < merging.size(); i++) merged = merge(merged, merging.get(i));
        return merged;
    }

    /** This version without the counters that {@code row}, or the tombstone of their super column, hides. */
    private ColumnFamily withoutCountersHiddenBy(Deletion row, Map<byte[], Deletion> superColumns) {
        Builder kept = builder(metadata, cells.size()).delete(deletion);
        for (Cell c : cells) {
            Deletion hiding = c instanceof SuperColumn
                    ? Deletion.reconcile(row, superColumns.getOrDefault(c.name(), Deletion.LIVE)) : row;
            Cell left = withoutCountersHiddenBy(c, hiding);
            if (left != null) kept.add(left);
        }
        return kept.build();
    }

    /** Bytes of this version in 0.6's serialized form, the unit of memtable throughput. */
    public long serializedSize() {
        long size = 4 + 8;
        for (Cell c : cells) {
            size += c instanceof Column col ? col.serializedSize() : ((SuperColumn) c).serializedSize();
        }
        return size;
    }

    private static void checkFits(CFMetaData metadata, Cell cell) {
        if ((cell instanceof SuperColumn) != metadata.isSuper()) {
            throw new IllegalArgumentException("a " + cell.getClass().getSimpleName() + " does not belong in "
                    + metadata.columnType() + " column family " + metadata.keyspace() + "." + metadata.name());
        }
    }

    @Override
    boolean addsUp() {
        return metadata.isCounter();
    }

    /** Two versions of one name: the winning column, or the super columns merged. */
    static Cell reconcile(Cell a, Cell b) {
        if (a instanceof Column ca) return Column.reconcile(ca, (Column) b);
        return SuperColumn.merge((SuperColumn) a, (SuperColumn) b);
    }

    @Override
    public String toString() {
        return describe("ColumnFamily(" + metadata.name());
    }

    /**
     * A row version built from cells added in any order: what {@link #withCell} and
     * {@link #withDeletion} would make of them one by one (see {@link CellContainer.Builder}).
     */
    public static final class Builder extends CellContainer.Builder<Cell, ColumnFamily, Builder> {
        private final CFMetaData metadata;

        private Builder(CFMetaData metadata, int expectedCells) {
            super(metadata.comparator(), RECONCILE, expectedCells);
            this.metadata = metadata;
        }

        /** Adds a cell, reconciled with any other of the same name; it must fit the column family's type. */
        @Override
        public Builder add(Cell cell) {
            checkFits(metadata, cell);
            return super.add(cell);
        }

        @Override
        ColumnFamily build(Deletion deletion, PersistentSortedMap<byte[], Cell> cells) {
            return new ColumnFamily(metadata, deletion, cells);
        }
    }
}
