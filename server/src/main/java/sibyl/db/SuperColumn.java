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

    public SuperColumn withColumn(Column c) {
        return new SuperColumn(name, markedForDeleteAt, localDeletionTime,
                subcolumns.plus(c.name(), c, Column::reconcile));
    }

    /** This super column with a tombstone at {@code timestamp} too; the newer tombstone is kept. */
    public SuperColumn withDeletion(long timestamp, int deletionTime) {
        if (timestamp < markedForDeleteAt
                || (timestamp == markedForDeleteAt && deletionTime <= localDeletionTime)) {
            return this;
        }
        return new SuperColumn(name, timestamp, deletionTime, subcolumns);
    }

    /** Both versions reconciled: the newer tombstone and, per subcolumn, the winning version. */
    public static SuperColumn merge(SuperColumn a, SuperColumn b) {
        SuperColumn big = a.subcolumns.size() >= b.subcolumns.size() ? a : b;
        SuperColumn small = big == a ? b : a;
        SuperColumn result = big.withDeletion(small.markedForDeleteAt, small.localDeletionTime);
        for (Column c : small.subcolumns) result = result.withColumn(c);
        return result;
    }

    /**
     * What a reader sees under a row tombstone at {@code rowMarkedForDeleteAt}: this super column
     * with only its live subcolumns, or null if none is live (0.6 never returns empty ones).
     */
    public SuperColumn live(long rowMarkedForDeleteAt) {
        long shadow = Math.max(rowMarkedForDeleteAt, markedForDeleteAt);
        PersistentSortedMap<byte[], Column> live = PersistentSortedMap.empty(subcolumns.comparator());
        boolean all = true;
        for (Column c : subcolumns) {
            if (c.isLive(shadow)) {
                live = live.plus(c.name(), c, Column::reconcile);
            } else {
                all = false;
            }
        }
        if (live.isEmpty()) return null;
        return all ? this : new SuperColumn(name, markedForDeleteAt, localDeletionTime, live);
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
}
