package sibyl.io;

import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.SuperColumn;

/**
 * What compaction keeps of a merged row: never a column shadowed by a row or super column
 * tombstone (no reader can see it, whatever else exists); and, when tombstones may be purged,
 * no tombstone at any level whose local deletion time is before {@code gcBefore}. A super
 * column left with neither subcolumns nor tombstone goes, and so does a row left with nothing.
 *
 * <p>Purging is only safe when the merge holds every version of the row on this node that a
 * tombstone could hide (a major compaction): a tombstone dropped from one SSTable would let an
 * older column in another come back.
 */
final class TombstonePurger {
    private final int gcBefore;
    private final boolean purgeTombstones;

    /**
     * @param gcBefore        seconds since the epoch: now − GCGraceSeconds
     * @param purgeTombstones whether tombstones older than {@code gcBefore} go (see class comment)
     */
    TombstonePurger(int gcBefore, boolean purgeTombstones) {
        this.gcBefore = gcBefore;
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
        long rowShadow = row.markedForDeleteAt();
        ColumnFamily.Builder kept = ColumnFamily.builder(row.metadata(), row.cellCount());
        if (row.isMarkedForDelete() && !expired(row.localDeletionTime())) {
            kept.delete(row.markedForDeleteAt(), row.localDeletionTime());
        }
        for (Cell cell : row.cells()) {
            Cell k = cell instanceof Column c ? keep(c, rowShadow) : keep((SuperColumn) cell, rowShadow);
            if (k != null) kept.add(k);
        }
        ColumnFamily built = kept.build();
        return built.isEmpty() ? null : built;
    }

    /** Whether {@link #purge} would keep every part of {@code row}, so that it may skip rebuilding it. */
    private boolean keepsAll(ColumnFamily row) {
        if (row.isMarkedForDelete() && expired(row.localDeletionTime())) return false;
        long rowShadow = row.markedForDeleteAt();
        for (Cell cell : row.cells()) {
            if (cell instanceof Column c) {
                if (keep(c, rowShadow) == null) return false;
            } else {
                SuperColumn sc = (SuperColumn) cell;
                // Rebuilt whenever its tombstone would go or hides nothing beyond the row's; or a subcolumn goes.
                if (sc.isMarkedForDelete() && (sc.markedForDeleteAt() <= rowShadow || expired(sc.localDeletionTime()))) {
                    return false;
                }
                if (sc.subcolumnCount() == 0 && !sc.isMarkedForDelete()) return false;
                long shadow = Math.max(rowShadow, sc.markedForDeleteAt());
                for (Column c : sc.subcolumns()) {
                    if (keep(c, shadow) == null) return false;
                }
            }
        }
        return true;
    }

    private Column keep(Column c, long shadow) {
        if (c.timestamp() <= shadow) return null;
        if (c.isTombstone() && expired(c.localDeletionTime())) return null;
        return c;
    }

    private SuperColumn keep(SuperColumn sc, long rowShadow) {
        // A super column tombstone no newer than the row tombstone hides nothing the row's does not.
        boolean ownTombstone = sc.isMarkedForDelete() && sc.markedForDeleteAt() > rowShadow && !expired(sc.localDeletionTime());
        long shadow = Math.max(rowShadow, sc.markedForDeleteAt());
        SuperColumn.Builder kept = SuperColumn.builder(sc.name(), sc.subcomparator(), sc.subcolumnCount());
        if (ownTombstone) kept.delete(sc.markedForDeleteAt(), sc.localDeletionTime());
        for (Column c : sc.subcolumns()) {
            Column k = keep(c, shadow);
            if (k != null) kept.add(k);
        }
        return kept.size() == 0 && !kept.isMarkedForDelete() ? null : kept.build();
    }

    private boolean expired(int localDeletionTime) {
        return purgeTombstones && localDeletionTime < gcBefore;
    }
}
