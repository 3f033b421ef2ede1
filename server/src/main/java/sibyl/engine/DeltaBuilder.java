package sibyl.engine;
import sibyl.db.CFMetaData;
import sibyl.db.Change;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.PathShape;
import sibyl.db.SuperColumn;

/**
 * Builds the row version that carries a mutation's changes to one column family, checking that
 * each change fits the column family's type. The cells are collected and built into the row's
 * tree at once (see {@link ColumnFamily.Builder}): a 100-column batch is one sort and 100 nodes,
 * not 100 inserts that each copy a path.
 */
final class DeltaBuilder {
    private final CFMetaData metadata;
    private final int localDeletionTime;
    private final ColumnFamily.Builder row;
    private int operations;

    DeltaBuilder(CFMetaData metadata, int localDeletionTime, int expectedChanges) {
        this.metadata = metadata;
        this.localDeletionTime = localDeletionTime;
        this.row = ColumnFamily.builder(metadata, expectedChanges);
    }

    /** The row of the changes added so far. */
    ColumnFamily row() {
        return row.build();
    }

    /** Column operations added so far: the memtable's operation count. */
    int operations() {
        return operations;
    }

    void add(Change change) {
        operations++;
        if (change instanceof Change.Write w) {
            put(w.superColumn(), w.column(localDeletionTime));
        } else if (change instanceof Change.DeleteColumn d) {
            put(d.superColumn(), Column.tombstone(d.name(), d.timestamp(), localDeletionTime));
        } else if (change instanceof Change.DeleteSuperColumn d) {
            PathShape.REMOVE.check(metadata, true, false);
            row.add(SuperColumn.empty(d.name(), metadata.subcomparator()).withDeletion(d.timestamp(), localDeletionTime));
        } else if (change instanceof Change.DeleteRow d) {
            row.delete(d.timestamp(), localDeletionTime);
        } else {
            throw new IllegalArgumentException("resolve slice deletions before building a delta: " + change);
        }
    }

    private void put(byte[] superColumn, Column column) {
        PathShape.COLUMN.check(metadata, superColumn != null, true);
        if (metadata.isSuper()) {
            // Subcolumns of one super column meet when the row is built, and merge there.
            row.add(SuperColumn.empty(superColumn, metadata.subcomparator()).withColumn(column));
        } else {
            row.add(column);
        }
    }
}
