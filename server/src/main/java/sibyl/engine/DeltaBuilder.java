package sibyl.engine;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import sibyl.db.CFMetaData;
import sibyl.db.Change;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.Deletion;
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
    /**
     * Increments, and deletions of counters, not yet in {@link #row}: they go in when it is built, less those a row
     * or super column deletion of the same mutation hides (docs/semantics.md §Counters). Put in at once, two increments of one counter would add up into one
     * cell whose timestamp is the later one, and a row or super column deletion between them would no longer hide
     * the earlier one.
     */
    private final List<Change> increments = new ArrayList<>();
    /** The newest deletion of each super column in this mutation, by name. */
    private final Map<ByteBuffer, Long> superColumnDeletions = new HashMap<>();

    DeltaBuilder(CFMetaData metadata, int localDeletionTime, int expectedChanges) {
        this.metadata = metadata;
        this.localDeletionTime = localDeletionTime;
        this.row = ColumnFamily.builder(metadata, expectedChanges);
    }

    /** The row of the changes added so far. */
    ColumnFamily row() {
        Deletion rowDeletion = row.deletion();
        for (Change change : increments) {
            byte[] superColumn = change instanceof Change.Increment i ? i.superColumn() : ((Change.DeleteColumn) change).superColumn();
            Long superColumnDeletion = superColumn == null ? null : superColumnDeletions.get(ByteBuffer.wrap(superColumn));
            boolean hidden = rowDeletion.shadows(change.timestamp())
                    || (superColumnDeletion != null && change.timestamp() <= superColumnDeletion);
            if (hidden) continue;
            if (change instanceof Change.Increment i) {
                put(superColumn, Column.counter(i.name(), i.delta(), i.timestamp()));
            } else {
                Change.DeleteColumn d = (Change.DeleteColumn) change;
                put(superColumn, Column.tombstone(d.name(), d.timestamp(), localDeletionTime));
            }
        }
        increments.clear();
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
        } else if (change instanceof Change.Increment i) {
            PathShape.COLUMN.check(metadata, i.superColumn() != null, true);
            increments.add(i);
        } else if (change instanceof Change.DeleteColumn d && metadata.isCounter()) {
            PathShape.COLUMN.check(metadata, d.superColumn() != null, true);
            increments.add(d);
        } else if (change instanceof Change.DeleteColumn d) {
            put(d.superColumn(), Column.tombstone(d.name(), d.timestamp(), localDeletionTime));
        } else if (change instanceof Change.DeleteSuperColumn d) {
            PathShape.REMOVE.check(metadata, true, false);
            superColumnDeletions.merge(ByteBuffer.wrap(d.name()), d.timestamp(), Math::max);
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
