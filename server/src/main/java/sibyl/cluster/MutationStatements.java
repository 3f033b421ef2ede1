package sibyl.cluster;

import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import java.util.List;
import java.util.Map;
import sibyl.db.Change;
import sibyl.db.ColumnSelection;
import sibyl.db.PathShape;
import sibyl.db.RowMutation;

/**
 * A row mutation as one single-partition batch, which the cluster applies atomically and
 * isolated, as 0.6 applied a row mutation. (A mutation with a slice deletion is two: the slice's
 * tombstones follow once the rest is written, see {@link ClusterStorageService#apply}.) Every statement carries the change's timestamp
 * (USING TIMESTAMP), so ties and tombstones follow the client's clock as in 0.6: a column
 * deletion deletes that clustering row, a super column deletion the rows of that column1 (a
 * range tombstone), a row deletion the partition, each hiding what was written at or before its
 * timestamp. Writes are UPDATEs: they leave no row marker behind, so a row exists exactly while
 * its value does.
 */
final class MutationStatements {
    /** Looks up the table of a column family, refusing unknown ones as the engine does. */
    interface Tables {
        Table table(String keyspace, String columnFamily);
    }

    /**
     * The live names a slice deletion selects, read from the cluster once the mutation's other
     * changes are written (see {@link ClusterStorageService#apply}).
     */
    interface SliceResolver {
        List<byte[]> liveNames(Table table, byte[] superColumn, ColumnSelection.Range range);
    }

    private MutationStatements() {
    }

    /**
     * The batch of the mutation's changes: with {@code slices} null every change but the slice
     * deletions, else only the slice deletions, resolved by {@code slices}.
     */
    static BatchStatement batch(RowMutation mutation, Tables tables, Statements statements, byte[] key,
                                SliceResolver slices) {
        BatchStatementBuilder batch = ClusterStorageService.unloggedBatch();
        for (Map.Entry<String, List<Change>> e : mutation.changes().entrySet()) {
            Table table = tables.table(mutation.keyspace(), e.getKey());
            for (Change change : e.getValue()) {
                if ((change instanceof Change.DeleteSlice) == (slices != null)) {
                    add(batch, table, statements, key, change, slices);
                }
            }
        }
        return batch.build();
    }

    static boolean hasSliceDeletion(RowMutation mutation) {
        for (List<Change> changes : mutation.changes().values()) {
            for (Change c : changes) if (c instanceof Change.DeleteSlice) return true;
        }
        return false;
    }

    private static void add(BatchStatementBuilder batch, Table table, Statements statements, byte[] key,
                            Change change, SliceResolver slices) {
        if (change instanceof Change.Write w) {
            PathShape.COLUMN.check(table.metadata(), w.superColumn() != null, true);
            String cql = "UPDATE " + table.qualifiedName() + " USING TIMESTAMP ? SET value = ? WHERE key = ?"
                    + " AND column1 = ?" + (table.isSuper() ? " AND column2 = ?" : "");
            BoundStatementBuilder b = statements.get(cql).boundStatementBuilder().setLong(0, w.timestamp());
            ClusterStorageService.bytes(b, 1, w.value());
            ClusterStorageService.bytes(b, 2, key);
            cell(b, 3, w.superColumn(), w.name());
            batch.addStatement(b.build());
        } else if (change instanceof Change.DeleteColumn d) {
            PathShape.COLUMN.check(table.metadata(), d.superColumn() != null, true);
            deleteCell(batch, table, statements, key, d.superColumn(), d.name(), d.timestamp());
        } else if (change instanceof Change.DeleteSuperColumn d) {
            PathShape.REMOVE.check(table.metadata(), true, false);
            deleteCell(batch, table, statements, key, null, d.name(), d.timestamp());
        } else if (change instanceof Change.DeleteRow d) {
            String cql = "DELETE FROM " + table.qualifiedName() + " USING TIMESTAMP ? WHERE key = ?";
            BoundStatementBuilder b = statements.get(cql).boundStatementBuilder().setLong(0, d.timestamp());
            batch.addStatement(ClusterStorageService.bytes(b, 1, key).build());
        } else if (change instanceof Change.DeleteSlice d) {
            PathShape.REMOVE.check(table.metadata(), d.superColumn() != null, false);
            for (byte[] selected : slices.liveNames(table, d.superColumn(), d.range())) {
                deleteCell(batch, table, statements, key, d.superColumn(), selected, d.timestamp());
            }
        } else {
            throw new IllegalArgumentException("unknown change " + change);
        }
    }

    /**
     * Deletes a column (standard), a subcolumn ({@code superColumn} set) or, in a super table
     * with {@code superColumn} null, the whole super column {@code name}.
     */
    private static void deleteCell(BatchStatementBuilder batch, Table table, Statements statements, byte[] key,
                                   byte[] superColumn, byte[] name, long timestamp) {
        String cql = "DELETE FROM " + table.qualifiedName() + " USING TIMESTAMP ? WHERE key = ? AND column1 = ?"
                + (superColumn != null ? " AND column2 = ?" : "");
        BoundStatementBuilder b = statements.get(cql).boundStatementBuilder().setLong(0, timestamp);
        ClusterStorageService.bytes(b, 1, key);
        cell(b, 2, superColumn, name);
        batch.addStatement(b.build());
    }

    /** Binds column1 (and column2) from index {@code i}: the column, or the super column and the subcolumn. */
    private static void cell(BoundStatementBuilder b, int i, byte[] superColumn, byte[] name) {
        if (superColumn == null) {
            ClusterStorageService.bytes(b, i, name);
        } else {
            ClusterStorageService.bytes(b, i, superColumn);
            ClusterStorageService.bytes(b, i + 1, name);
        }
    }

}
