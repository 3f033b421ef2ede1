package sibyl.db;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Objects;
import java.util.function.BinaryOperator;
import sibyl.db.marshal.AbstractType;

/**
 * A super column version: a name, an optional tombstone (which hides every subcolumn written at
 * or before it) and the subcolumns sorted by the sub-comparator. Immutable; every "with" method
 * returns a new version sharing structure with this one.
 */
public final class SuperColumn extends CellContainer<Column, SuperColumn> implements Cell {
    private static final BinaryOperator<Column> RECONCILE = Column::reconcile;

    private final byte[] name;

    private SuperColumn(byte[] name, Deletion deletion, PersistentSortedMap<byte[], Column> subcolumns) {
        super(deletion, subcolumns);
        this.name = Objects.requireNonNull(name, "name");
    }

    /** A super column with no subcolumns and no tombstone; takes ownership of {@code name}. */
    public static SuperColumn empty(byte[] name, AbstractType subcomparator) {
        return new SuperColumn(name, Deletion.LIVE, PersistentSortedMap.empty(subcomparator));
    }

    @Override
    SuperColumn with(Deletion deletion, PersistentSortedMap<byte[], Column> subcolumns) {
        return new SuperColumn(name, deletion, subcolumns);
    }

    @Override
    BinaryOperator<Column> reconciler() {
        return RECONCILE;
    }

    @Override
    boolean addsUp() {
        for (Column c : cells) {
            if (c.isCounter()) return true;
        }
        return false;
    }

    @Override
    public byte[] name() {
        return name;
    }

    public AbstractType subcomparator() {
        return (AbstractType) cells.comparator();
    }

    /** The stored version of a subcolumn (perhaps a tombstone, perhaps shadowed), or null. */
    public Column subcolumn(byte[] subName) {
        return cells.get(subName);
    }

    public int subcolumnCount() {
        return cells.size();
    }

    /** Every stored subcolumn version, tombstones included, in sub-comparator order. */
    public Iterable<Column> subcolumns() {
        return cells;
    }

    /** Stored subcolumns from {@code start} on; an empty start = from the first (last if reversed). */
    public Iterator<Column> subcolumnsFrom(byte[] start, boolean reversed) {
        return from(start, reversed);
    }

    /** Collects a super column's subcolumns in any order and builds it at once, in O(n) for subcolumns in order. */
    public static Builder builder(byte[] name, AbstractType subcomparator, int expectedSubcolumns) {
        return new Builder(name, subcomparator, expectedSubcolumns);
    }

    public SuperColumn withColumn(Column c) {
        return plus(c);
    }

    /**
     * Both versions reconciled: the tombstone kept of the two and, per subcolumn, the winning
     * version. Commutative; costs as {@link PersistentSortedMap#plusAll}.
     */
    public static SuperColumn merge(SuperColumn a, SuperColumn b) {
        return CellContainer.merge(a, b);
    }

    /**
     * What a reader at {@code nowSeconds} sees under the row tombstone {@code row}: this super column with only its
     * live subcolumns, or null if none is live (0.6 never returns empty ones).
     */
    public SuperColumn live(Deletion row, int nowSeconds) {
        Deletion covering = Deletion.reconcile(row, deletion);
        PersistentSortedMap.Builder<byte[], Column> live =
                new PersistentSortedMap.Builder<>(cells.comparator(), RECONCILE, cells.size());
        for (Column c : cells) {
            if (c.isLive(covering, nowSeconds)) live.put(c.name(), c);
        }
        if (live.size() == 0) return null;
        return live.size() == cells.size() ? this : new SuperColumn(name, deletion, live.build());
    }

    /** Bytes of this version in 0.6's serialized form. */
    public int serializedSize() {
        int size = 2 + name.length + 4 + 8 + 4;
        for (Column c : cells) size += c.serializedSize();
        return size;
    }

    /** Equal name, tombstone timestamp and subcolumns; the tombstone's local deletion time is not compared. */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SuperColumn s) || deletion.markedForDeleteAt() != s.deletion.markedForDeleteAt()
                || !Arrays.equals(name, s.name) || cells.size() != s.cells.size()) {
            return false;
        }
        Iterator<Column> i = s.cells.iterator();
        for (Column c : cells) {
            if (!c.equals(i.next())) return false;
        }
        return true;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(name) * 31 + Long.hashCode(deletion.markedForDeleteAt());
    }

    @Override
    public String toString() {
        return describe("SuperColumn(" + Bytes.hex(name));
    }

    /**
     * A super column built from subcolumns added in any order: what {@link #withColumn} and
     * {@link #withDeletion} would make of them one by one (see {@link CellContainer.Builder}).
     */
    public static final class Builder extends CellContainer.Builder<Column, SuperColumn, Builder> {
        private final byte[] name;

        private Builder(byte[] name, AbstractType subcomparator, int expectedSubcolumns) {
            super(subcomparator, RECONCILE, expectedSubcolumns);
            this.name = Objects.requireNonNull(name, "name");
        }

        @Override
        SuperColumn build(Deletion deletion, PersistentSortedMap<byte[], Column> subcolumns) {
            return new SuperColumn(name, deletion, subcolumns);
        }
    }
}
