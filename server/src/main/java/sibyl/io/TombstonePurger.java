package sibyl.io;

import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.Deletion;
import sibyl.db.SuperColumn;

/**
 * What compaction keeps of a merged row: an expiring column expired by {@code nowSeconds} as a tombstone at its
 * timestamp dated when it was written (as Cassandra 3.11 turns one; docs/semantics.md §Expiring columns), which
 * goes like any tombstone; never a column shadowed by a row or super column
 * tombstone (no reader can see it, whatever else exists); and, when tombstones may be purged,
 * no column tombstone whose local deletion time is before {@code gcBefore}. A row or super column
 * tombstone that old goes only with the last of what it holds, as in 0.6
 * (docs/semantics.md §Tombstones): while the row (the super column) keeps a column, its tombstone stays and
 * goes on hiding older writes that arrive late. A super column left with neither subcolumns nor
 * tombstone goes, and so does a row left with nothing.
 *
 * <p>Purging is only safe when the merge holds every version of the row on this node that a
 * tombstone could hide (a major compaction): a tombstone dropped from one SSTable would let an
 * older column in another come back.
 */
final class TombstonePurger {
    private final int gcBefore;
    private final int nowSeconds;
    private final boolean purgeTombstones;

    /**
     * @param gcBefore        seconds since the epoch: now − GCGraceSeconds
     * @param nowSeconds      seconds since the epoch: expiring columns expired then are tombstones
     * @param purgeTombstones whether tombstones older than {@code gcBefore} go (see class comment)
     */
    TombstonePurger(int gcBefore, int nowSeconds, boolean purgeTombstones) {
        this.gcBefore = gcBefore;
        this.nowSeconds = nowSeconds;
        this.purgeTombstones = purgeTombstones;
    }

    /** The row to write, or null when nothing of it needs keeping. */
    ColumnFamily purge(ColumnFamily row) {
        // Most rows hold nothing to drop (no tombstone, nothing shadowed): those are written as they are.
        if (keepsAll(row)) return row.isEmpty() ? null : row;
        return rebuild(row);
    }

    /** {@link #purge} the long way: every row rebuilt from the parts it keeps. Package-private for tests. */
    ColumnFamily rebuild(ColumnFamily row) {
        Deletion rowDeletion = row.deletion();
        ColumnFamily.Builder kept = ColumnFamily.builder(row.metadata(), row.cellCount());
        int cells = 0;
        for (Cell cell : row.cells()) {
            Cell k = cell instanceof Column c ? keep(c, rowDeletion) : keep((SuperColumn) cell, rowDeletion);
            if (k != null) {
                kept.add(k);
                cells++;
            }
        }
        if (rowDeletion.isMarkedForDelete() && (cells > 0 || !expired(rowDeletion))) kept.delete(rowDeletion);
        ColumnFamily built = kept.build();
        return built.isEmpty() ? null : built;
    }

    /** Whether {@link #purge} would keep every part of {@code row}, so that it may skip rebuilding it. */
    private boolean keepsAll(ColumnFamily row) {
        Deletion rowDeletion = row.deletion();
        if (expired(rowDeletion) && row.cellCount() == 0) return false;
        for (Cell cell : row.cells()) {
            if (cell instanceof Column c) {
                if (keep(c, rowDeletion) != c) return false;
            } else {
                SuperColumn sc = (SuperColumn) cell;
                // Rebuilt whenever its tombstone hides nothing beyond the row's, it is empty, or a subcolumn goes
                // (its tombstone, expired or not, stays while it keeps every subcolumn).
                if (sc.isMarkedForDelete() && rowDeletion.shadows(sc.deletion().markedForDeleteAt())) return false;
                if (sc.isEmpty() || (sc.subcolumnCount() == 0 && expired(sc.deletion()))) return false;
                Deletion covering = Deletion.reconcile(rowDeletion, sc.deletion());
                for (Column c : sc.subcolumns()) {
                    if (keep(c, covering) != c) return false;
                }
            }
        }
        return true;
    }

    /**
     * Whether {@link #purge} keeps, exactly as stored, a column under no row or super column tombstone that is a
     * tombstone (or an expiring column) with these parts: what {@link #keep} decides, for a row compaction copies as
     * its bytes without building its columns ({@link RowCopy}).
     *
     * @param localTime a tombstone's local deletion time, an expiring column's local expiration time; else unused
     */
    boolean keepsAsStored(long timestamp, boolean tombstone, boolean expiring, int localTime) {
        if (Deletion.LIVE.shadows(timestamp)) return false;
        if (expiring) return nowSeconds < localTime;
        return !(tombstone && purgeTombstones && localTime < gcBefore);
    }

    /**
     * {@code c} (as a tombstone if it has expired) unless {@code covering} (the tombstone above it) hides it or it is
     * a tombstone, or an expired column, older than the grace period.
     */
    private Column keep(Column c, Deletion covering) {
        if (covering.shadows(c.timestamp())) return null;
        if (purgeTombstones && (c.isTombstone() || c.hasExpired(nowSeconds)) && c.isPurgeable(gcBefore)) return null;
        return c.expiredToTombstone(nowSeconds);
    }

    private SuperColumn keep(SuperColumn sc, Deletion rowDeletion) {
        Deletion covering = Deletion.reconcile(rowDeletion, sc.deletion());
        SuperColumn.Builder kept = SuperColumn.builder(sc.name(), sc.subcomparator(), sc.subcolumnCount());
        int subcolumns = 0;
        for (Column c : sc.subcolumns()) {
            Column k = keep(c, covering);
            if (k != null) {
                kept.add(k);
                subcolumns++;
            }
        }
        if (sc.isMarkedForDelete() && ownTombstoneKept(sc, rowDeletion, subcolumns > 0)) kept.delete(sc.deletion());
        return kept.isEmpty() ? null : kept.build();
    }

    /**
     * Whether the tombstone of {@code sc} is kept: not when no newer than the row tombstone (it then
     * hides nothing the row's does not), nor when expired and nothing of the super column is left.
     */
    private boolean ownTombstoneKept(SuperColumn sc, Deletion rowDeletion, boolean holdsSubcolumns) {
        return !rowDeletion.shadows(sc.deletion().markedForDeleteAt()) && (holdsSubcolumns || !expired(sc.deletion()));
    }

    private boolean expired(Deletion deletion) {
        return purgeTombstones && deletion.isPurgeable(gcBefore);
    }
}
