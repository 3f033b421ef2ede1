package sibyl.cluster;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.Statement;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import sibyl.db.Change;
import sibyl.db.ColumnSelection;
import sibyl.db.PathShape;
import sibyl.db.RowMutation;

/**
 * A row mutation as one single-partition batch (or one statement, when it makes one change), which
 * the cluster applies atomically and isolated, as 0.6 applied a row mutation. (A mutation with a
 * slice deletion is two: the slice's tombstones follow once the rest is written, see
 * {@link ClusterStorageService#apply}.) Every statement carries the change's timestamp
 * (USING TIMESTAMP), so ties and tombstones follow the client's clock as in 0.6: a column
 * deletion deletes that clustering row, a super column deletion the rows of that column1 (a
 * range tombstone), a row deletion the partition, each hiding what was written at or before its
 * timestamp. Writes are UPDATEs: they leave no row marker behind, so a row exists exactly while
 * its value does; a write with a ttl is one USING TTL, and the cluster expires it.
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
     * The statements of the mutation's changes, each at {@code level}: with {@code slices} null every change but
     * the slice deletions, else only the slice deletions, resolved by {@code slices}. The caller sends one
     * statement as it is and several as one single-partition batch ({@link #batch}). The level is set while each
     * statement is built: setting it on a built statement copies the statement.
     */
    static List<BatchableStatement<?>> statements(RowMutation mutation, Tables tables, Statements statements,
                                                  byte[] key, ConsistencyLevel level, SliceResolver slices) {
        ByteBuffer k = ByteBuffer.wrap(key);
        String sole = mutation.soleColumnFamily();
        if (sole != null) { // most mutations: one column family, reached without the map's views and iterators
            List<Change> changes = mutation.changes().get(sole);
            List<BatchableStatement<?>> out = new ArrayList<>(slices == null ? changes.size() : 8);
            add(out, tables.table(mutation.keyspace(), sole), statements, k, level, changes, slices);
            return out;
        }
        List<BatchableStatement<?>> out = new ArrayList<>(8);
        for (Map.Entry<String, List<Change>> e : mutation.changes().entrySet()) {
            add(out, tables.table(mutation.keyspace(), e.getKey()), statements, k, level, e.getValue(), slices);
        }
        return out;
    }

    /** The statements of one column family's changes: all but the slice deletions, or only those. */
    private static void add(List<BatchableStatement<?>> out, Table table, Statements statements, ByteBuffer key,
                            ConsistencyLevel level, List<Change> changes, SliceResolver slices) {
        for (int i = 0; i < changes.size(); i++) { // the lists are random access (List.copyOf)
            Change change = changes.get(i);
            if ((change instanceof Change.DeleteSlice) == (slices != null)) {
                add(out, table, statements, key, level, change, slices);
            }
        }
    }

    /**
     * One statement as it is (the cluster applies it atomically), several as one unlogged batch of the partition
     * at {@code level}, with {@code settings}; a counter table's statements as a counter
     * batch, which the cluster wants for them ({@code counters}: the changes are all of counter tables, as
     * {@link #byKind} leaves them). A batch with an increment is not idempotent, as the increment is not.
     */
    static Statement<?> batch(List<BatchableStatement<?>> changes, RequestSettings settings, ConsistencyLevel level,
                              boolean counters) {
        if (changes.size() == 1) return changes.get(0);
        BatchStatementBuilder batch = settings.on(BatchStatement.builder(counters
                ? DefaultBatchType.COUNTER : DefaultBatchType.UNLOGGED), level).addStatements(changes);
        for (int i = 0; i < changes.size(); i++) {
            if (Boolean.FALSE.equals(changes.get(i).isIdempotent())) return batch.setIdempotence(false).build();
        }
        return batch.build();
    }

    /**
     * The mutation as it is when its column families are all counter tables or none is, else as two: the changes
     * of its counter tables and those of the others, which the cluster takes in no one batch. 3.11 applied such a
     * batch_mutate as two mutations of the row too, each atomic on its own.
     */
    static List<RowMutation> byKind(RowMutation mutation, Tables tables) {
        String sole = mutation.soleColumnFamily();
        if (sole != null) return List.of(mutation);
        RowMutation.Builder counters = RowMutation.builder(mutation.keyspace(), mutation.key())
                .localDeletionTime(mutation.localDeletionTime());
        RowMutation.Builder others = RowMutation.builder(mutation.keyspace(), mutation.key())
                .localDeletionTime(mutation.localDeletionTime());
        boolean anyCounter = false;
        boolean anyOther = false;
        for (Map.Entry<String, List<Change>> e : mutation.changes().entrySet()) {
            boolean counter = tables.table(mutation.keyspace(), e.getKey()).statements().counter();
            anyCounter |= counter;
            anyOther |= !counter;
            for (Change change : e.getValue()) (counter ? counters : others).add(e.getKey(), change);
        }
        return anyCounter && anyOther ? List.of(counters.build(), others.build()) : List.of(mutation);
    }

    /** Whether the mutation's column families are counter tables (all of them are, or none, after {@link #byKind}). */
    static boolean ofCounters(RowMutation mutation, Tables tables) {
        String any = mutation.changes().keySet().iterator().next();
        return tables.table(mutation.keyspace(), any).statements().counter();
    }

    static boolean hasSliceDeletion(RowMutation mutation) {
        String sole = mutation.soleColumnFamily();
        if (sole != null) return hasSliceDeletion(mutation.changes().get(sole));
        for (List<Change> changes : mutation.changes().values()) {
            if (hasSliceDeletion(changes)) return true;
        }
        return false;
    }

    private static boolean hasSliceDeletion(List<Change> changes) {
        for (int i = 0; i < changes.size(); i++) {
            if (changes.get(i) instanceof Change.DeleteSlice) return true;
        }
        return false;
    }

    private static void add(List<BatchableStatement<?>> out, Table table, Statements statements, ByteBuffer key,
                            ConsistencyLevel level, Change change, SliceResolver slices) {
        TableStatements of = table.statements();
        if (change instanceof Change.Write w) {
            PathShape.COLUMN.check(table.metadata(), w.superColumn() != null, true);
            int declared = table.statics() == null ? -1 : table.statics().indexOf(w.name());
            BoundStatementBuilder b = (declared < 0 ? of.update() : table.statics().update(declared))
                    .prepared(statements).boundStatementBuilder()
                    .setLong(0, w.timestamp())
                    .setInt(1, w.ttl())
                    .setBytesUnsafe(2, ByteBuffer.wrap(w.value()))
                    .setBytesUnsafe(3, key)
                    .setConsistencyLevel(level);
            if (declared < 0) cell(b, 4, table, w.superColumn(), w.name());
            out.add(b.build());
        } else if (change instanceof Change.Increment inc) {
            PathShape.COLUMN.check(table.metadata(), inc.superColumn() != null, true);
            // Sent once only: a retry after a timeout could count the increment twice (docs/thrift-api-0.7.md
            // §Counters), so a timeout is the caller's TimedOutException and the driver never sends it again.
            BoundStatementBuilder b = of.update().prepared(statements).boundStatementBuilder()
                    .setLong(0, inc.delta())
                    .setBytesUnsafe(1, key)
                    .setConsistencyLevel(level)
                    .setIdempotence(false);
            cell(b, 2, table, inc.superColumn(), inc.name());
            out.add(b.build());
        } else if (change instanceof Change.DeleteColumn d) {
            PathShape.COLUMN.check(table.metadata(), d.superColumn() != null, true);
            deleteCell(out, table, statements, key, level, d.superColumn(), d.name(), d.timestamp());
        } else if (change instanceof Change.DeleteSuperColumn d) {
            PathShape.REMOVE.check(table.metadata(), true, false);
            deleteCell(out, table, statements, key, level, null, d.name(), d.timestamp());
        } else if (change instanceof Change.DeleteRow d) {
            BoundStatementBuilder b = of.deleteRow().prepared(statements).boundStatementBuilder();
            bindKey(b, of, d.timestamp(), key);
            out.add(b.setConsistencyLevel(level).build());
        } else if (change instanceof Change.DeleteSlice d) {
            PathShape.REMOVE.check(table.metadata(), d.superColumn() != null, false);
            for (byte[] selected : slices.liveNames(table, d.superColumn(), d.range())) {
                deleteCell(out, table, statements, key, level, d.superColumn(), selected, d.timestamp());
            }
        } else {
            throw new IllegalArgumentException("unknown change " + change);
        }
    }

    /**
     * Deletes a column (standard), a subcolumn ({@code superColumn} set) or, in a super table
     * with {@code superColumn} null, the whole super column {@code name}.
     */
    private static void deleteCell(List<BatchableStatement<?>> out, Table table, Statements statements,
                                   ByteBuffer key, ConsistencyLevel level, byte[] superColumn, byte[] name,
                                   long timestamp) {
        int declared = table.statics() == null || superColumn != null ? -1 : table.statics().indexOf(name);
        if (declared >= 0) {
            // the name's value may be in (column1, value) too, written before its column existed: both go
            out.add(table.statics().delete(declared).prepared(statements).boundStatementBuilder()
                    .setLong(0, timestamp).setBytesUnsafe(1, key).setConsistencyLevel(level).build());
        }
        TableStatements.Slot slot = superColumn != null ? table.statements().deleteSubcolumn()
                : table.statements().deleteColumn();
        BoundStatementBuilder b = slot.prepared(statements).boundStatementBuilder().setConsistencyLevel(level);
        cell(b, bindKey(b, table.statements(), timestamp, key), table, superColumn, name);
        out.add(b.build());
    }

    /**
     * Binds a deletion's timestamp and key; returns the next index. A counter table's deletion has no timestamp:
     * the cluster takes it at its own clock, as 3.11 took a counter deletion at the server's.
     */
    private static int bindKey(BoundStatementBuilder b, TableStatements of, long timestamp, ByteBuffer key) {
        if (of.counter()) {
            b.setBytesUnsafe(0, key);
            return 1;
        }
        b.setLong(0, timestamp).setBytesUnsafe(1, key);
        return 2;
    }

    /**
     * Binds column1 (and column2) from index {@code i}: the column, or the super column and the subcolumn; or the
     * columns a {@link ClusteringNames} table's name maps onto.
     */
    private static void cell(BoundStatementBuilder b, int i, Table table, byte[] superColumn, byte[] name) {
        if (table.names() != null) {
            table.names().bind(b, i, name);
        } else if (superColumn == null) {
            b.setBytesUnsafe(i, ByteBuffer.wrap(name));
        } else {
            b.setBytesUnsafe(i, ByteBuffer.wrap(superColumn));
            b.setBytesUnsafe(i + 1, ByteBuffer.wrap(name));
        }
    }
}
