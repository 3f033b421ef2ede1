package sibyl.db;

import java.util.Iterator;
import java.util.Objects;

/**
 * One version of a row within one column family: the row tombstone (markedForDeleteAt, which
 * hides every column and subcolumn written at or before it) and the cells sorted by the CF
 * comparator: {@link Column}s in a standard CF, {@link SuperColumn}s in a super CF.
 *
 * <p>Immutable; every "with" method returns a new version sharing structure with this one, so a
 * reader holding a version sees exactly that version however the row changes meanwhile. Stored
 * versions keep tombstones and shadowed columns; {@link SliceReader} hides them from readers.
 */
public final class ColumnFamily {
    private final CFMetaData metadata;
    private final long markedForDeleteAt;
    private final int localDeletionTime;
    private final PersistentSortedMap<byte[], Cell> cells;

    private ColumnFamily(CFMetaData metadata, long markedForDeleteAt, int localDeletionTime,
                         PersistentSortedMap<byte[], Cell> cells) {
        this.metadata = metadata;
        this.markedForDeleteAt = markedForDeleteAt;
        this.localDeletionTime = localDeletionTime;
        this.cells = cells;
    }

    public static ColumnFamily empty(CFMetaData metadata) {
        return new ColumnFamily(Objects.requireNonNull(metadata), Deletion.NOT_DELETED, Deletion.NO_DELETION_TIME,
                PersistentSortedMap.empty(metadata.comparator()));
    }

    public CFMetaData metadata() {
        return metadata;
    }

    public boolean isSuper() {
        return metadata.isSuper();
    }

    /** Timestamp of the newest row tombstone, or Long.MIN_VALUE if none. */
    public long markedForDeleteAt() {
        return markedForDeleteAt;
    }

    public int localDeletionTime() {
        return localDeletionTime;
    }

    public boolean isMarkedForDelete() {
        return markedForDeleteAt != Deletion.NOT_DELETED;
    }

    /** No cells and no row tombstone: nothing stored. */
    public boolean isEmpty() {
        return cells.isEmpty() && !isMarkedForDelete();
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
        byte[] from = start.length == 0 ? null : start;
        return reversed ? cells.descendingFrom(from) : cells.ascendingFrom(from);
    }

    /**
     * This version with {@code cell} reconciled in: a {@link Column} in a standard CF, a
     * {@link SuperColumn} (whose subcolumns and tombstone merge with the stored one) in a super CF.
     */
    public ColumnFamily withCell(Cell cell) {
        checkFits(metadata, cell);
        return new ColumnFamily(metadata, markedForDeleteAt, localDeletionTime,
                cells.plus(cell.name(), cell, ColumnFamily::reconcile));
    }

    /** Collects a row's cells in any order and builds it at once, in O(n) for cells in order. */
    public static Builder builder(CFMetaData metadata, int expectedCells) {
        return new Builder(metadata, expectedCells);
    }

    /** This version with a row tombstone at {@code timestamp} too; the newer tombstone is kept. */
    public ColumnFamily withDeletion(long timestamp, int deletionTime) {
        if (!Deletion.supersedes(timestamp, deletionTime, markedForDeleteAt, localDeletionTime)) return this;
        return new ColumnFamily(metadata, timestamp, deletionTime, cells);
    }

    /**
     * Both versions reconciled; commutative. Costs O(smaller × log larger) when one is much
     * smaller, else O(both): see {@link PersistentSortedMap#plusAll}.
     */
    public static ColumnFamily merge(ColumnFamily a, ColumnFamily b) {
        ColumnFamily big = a.cells.size() >= b.cells.size() ? a : b;
        ColumnFamily small = big == a ? b : a;
        ColumnFamily deleted = big.withDeletion(small.markedForDeleteAt, small.localDeletionTime);
        return new ColumnFamily(big.metadata, deleted.markedForDeleteAt, deleted.localDeletionTime,
                big.cells.plusAll(small.cells, ColumnFamily::reconcile));
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

    private static Cell reconcile(Cell a, Cell b) {
        if (a instanceof Column ca) return Column.reconcile(ca, (Column) b);
        return SuperColumn.merge((SuperColumn) a, (SuperColumn) b);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("ColumnFamily(").append(metadata.name());
        if (isMarkedForDelete()) s.append(", deleted at ").append(markedForDeleteAt);
        for (Cell c : cells) s.append(", ").append(c);
        return s.append(')').toString();
    }

    /**
     * A row version built from cells added in any order: what {@link #withCell} and
     * {@link #withDeletion} would make of them one by one, without a tree per step. Not
     * thread-safe; {@link #build} may be called again after more cells are added.
     */
    public static final class Builder {
        private final CFMetaData metadata;
        private final PersistentSortedMap.Builder<byte[], Cell> cells;
        private long markedForDeleteAt = Deletion.NOT_DELETED;
        private int localDeletionTime = Deletion.NO_DELETION_TIME;

        private Builder(CFMetaData metadata, int expectedCells) {
            this.metadata = Objects.requireNonNull(metadata);
            this.cells = new PersistentSortedMap.Builder<>(metadata.comparator(), ColumnFamily::reconcile, expectedCells);
        }

        /** Adds a cell, reconciled with any other of the same name. */
        public Builder add(Cell cell) {
            checkFits(metadata, cell);
            cells.put(cell.name(), cell);
            return this;
        }

        /** Adds a row tombstone; the newer of several is kept, as by {@link ColumnFamily#withDeletion}. */
        public Builder delete(long timestamp, int deletionTime) {
            if (Deletion.supersedes(timestamp, deletionTime, markedForDeleteAt, localDeletionTime)) {
                markedForDeleteAt = timestamp;
                localDeletionTime = deletionTime;
            }
            return this;
        }

        /** Cells added so far, before cells of equal names are reconciled. */
        public int size() {
            return cells.size();
        }

        /** The row tombstone so far, as {@link ColumnFamily#markedForDeleteAt}. */
        public long markedForDeleteAt() {
            return markedForDeleteAt;
        }

        public ColumnFamily build() {
            return new ColumnFamily(metadata, markedForDeleteAt, localDeletionTime, cells.build());
        }
    }
}
