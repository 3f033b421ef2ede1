package sibyl.db;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Objects;
import sibyl.db.marshal.AbstractType;

/**
 * A super column version: a name, an optional tombstone (markedForDeleteAt, which hides every
 * subcolumn written at or before it) and the subcolumns sorted by the sub-comparator. Immutable;
 * every "with" method returns a new version sharing structure with this one.
 */
public final class SuperColumn implements Cell {
    private final byte[] name;
    private final long markedForDeleteAt;
    private final int localDeletionTime;
    private final PersistentSortedMap<byte[], Column> subcolumns;

    private SuperColumn(byte[] name, long markedForDeleteAt, int localDeletionTime,
                        PersistentSortedMap<byte[], Column> subcolumns) {
        this.name = Objects.requireNonNull(name, "name");
        this.markedForDeleteAt = markedForDeleteAt;
        this.localDeletionTime = localDeletionTime;
        this.subcolumns = subcolumns;
    }

    /** A super column with no subcolumns and no tombstone; takes ownership of {@code name}. */
    public static SuperColumn empty(byte[] name, AbstractType subcomparator) {
        return new SuperColumn(name, Deletion.NOT_DELETED, Deletion.NO_DELETION_TIME,
                PersistentSortedMap.empty(subcomparator));
    }

    @Override
    public byte[] name() {
        return name;
    }

    public AbstractType subcomparator() {
        return (AbstractType) subcolumns.comparator();
    }

    /** Timestamp of the newest tombstone of this super column, or Long.MIN_VALUE if none. */
    public long markedForDeleteAt() {
        return markedForDeleteAt;
    }

    public int localDeletionTime() {
        return localDeletionTime;
    }

    public boolean isMarkedForDelete() {
        return markedForDeleteAt != Deletion.NOT_DELETED;
    }

    /** The stored version of a subcolumn (perhaps a tombstone, perhaps shadowed), or null. */
    public Column subcolumn(byte[] subName) {
        return subcolumns.get(subName);
    }

    public int subcolumnCount() {
        return subcolumns.size();
    }

    /** Every stored subcolumn version, tombstones included, in sub-comparator order. */
    public Iterable<Column> subcolumns() {
        return subcolumns;
    }

    /** Stored subcolumns from {@code start} on; an empty start = from the first (last if reversed). */
    public Iterator<Column> subcolumnsFrom(byte[] start, boolean reversed) {
        byte[] from = start.length == 0 ? null : start;
        return reversed ? subcolumns.descendingFrom(from) : subcolumns.ascendingFrom(from);
    }

    /** Collects a super column's subcolumns in any order and builds it at once, in O(n) for subcolumns in order. */
    public static Builder builder(byte[] name, AbstractType subcomparator, int expectedSubcolumns) {
        return new Builder(name, subcomparator, expectedSubcolumns);
    }

    public SuperColumn withColumn(Column c) {
        return new SuperColumn(name, markedForDeleteAt, localDeletionTime,
                subcolumns.plus(c.name(), c, Column::reconcile));
    }

    /** This super column with a tombstone at {@code timestamp} too; the newer tombstone is kept. */
    public SuperColumn withDeletion(long timestamp, int deletionTime) {
        if (!Deletion.supersedes(timestamp, deletionTime, markedForDeleteAt, localDeletionTime)) return this;
        return new SuperColumn(name, timestamp, deletionTime, subcolumns);
    }

    /**
     * Both versions reconciled: the newer tombstone and, per subcolumn, the winning version.
     * Commutative; costs as {@link PersistentSortedMap#plusAll}.
     */
    public static SuperColumn merge(SuperColumn a, SuperColumn b) {
        SuperColumn big = a.subcolumns.size() >= b.subcolumns.size() ? a : b;
        SuperColumn small = big == a ? b : a;
        SuperColumn deleted = big.withDeletion(small.markedForDeleteAt, small.localDeletionTime);
        return new SuperColumn(big.name, deleted.markedForDeleteAt, deleted.localDeletionTime,
                big.subcolumns.plusAll(small.subcolumns, Column::reconcile));
    }

    /**
     * What a reader sees under a row tombstone at {@code rowMarkedForDeleteAt}: this super column
     * with only its live subcolumns, or null if none is live (0.6 never returns empty ones).
     */
    public SuperColumn live(long rowMarkedForDeleteAt) {
        long shadow = Math.max(rowMarkedForDeleteAt, markedForDeleteAt);
        PersistentSortedMap.Builder<byte[], Column> live =
                new PersistentSortedMap.Builder<>(subcolumns.comparator(), Column::reconcile, subcolumns.size());
        for (Column c : subcolumns) {
            if (c.isLive(shadow)) live.put(c.name(), c);
        }
        if (live.size() == 0) return null;
        return live.size() == subcolumns.size() ? this
                : new SuperColumn(name, markedForDeleteAt, localDeletionTime, live.build());
    }

    /** Bytes of this version in 0.6's serialized form. */
    public int serializedSize() {
        int size = 2 + name.length + 4 + 8 + 4;
        for (Column c : subcolumns) size += c.serializedSize();
        return size;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SuperColumn s) || markedForDeleteAt != s.markedForDeleteAt
                || !Arrays.equals(name, s.name) || subcolumns.size() != s.subcolumns.size()) {
            return false;
        }
        Iterator<Column> i = s.subcolumns.iterator();
        for (Column c : subcolumns) {
            if (!c.equals(i.next())) return false;
        }
        return true;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(name) * 31 + Long.hashCode(markedForDeleteAt);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("SuperColumn(").append(Bytes.hex(name));
        if (isMarkedForDelete()) s.append(", deleted at ").append(markedForDeleteAt);
        for (Column c : subcolumns) s.append(", ").append(c);
        return s.append(')').toString();
    }

    /**
     * A super column built from subcolumns added in any order: what {@link #withColumn} and
     * {@link #withDeletion} would make of them one by one. Not thread-safe; {@link #build} may
     * be called again after more are added.
     */
    public static final class Builder {
        private final byte[] name;
        private final PersistentSortedMap.Builder<byte[], Column> subcolumns;
        private long markedForDeleteAt = Deletion.NOT_DELETED;
        private int localDeletionTime = Deletion.NO_DELETION_TIME;

        private Builder(byte[] name, AbstractType subcomparator, int expectedSubcolumns) {
            this.name = Objects.requireNonNull(name, "name");
            this.subcolumns = new PersistentSortedMap.Builder<>(subcomparator, Column::reconcile, expectedSubcolumns);
        }

        /** Adds a subcolumn, reconciled with any other of the same name. */
        public Builder add(Column c) {
            subcolumns.put(c.name(), c);
            return this;
        }

        /** Adds a tombstone; the newer of several is kept, as by {@link SuperColumn#withDeletion}. */
        public Builder delete(long timestamp, int deletionTime) {
            if (Deletion.supersedes(timestamp, deletionTime, markedForDeleteAt, localDeletionTime)) {
                markedForDeleteAt = timestamp;
                localDeletionTime = deletionTime;
            }
            return this;
        }

        /** Subcolumns added so far, before equal names are reconciled. */
        public int size() {
            return subcolumns.size();
        }

        public boolean isMarkedForDelete() {
            return markedForDeleteAt != Deletion.NOT_DELETED;
        }

        public SuperColumn build() {
            return new SuperColumn(name, markedForDeleteAt, localDeletionTime, subcolumns.build());
        }
    }
}
