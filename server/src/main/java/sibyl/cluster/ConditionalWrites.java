package sibyl.cluster;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.Statement;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.CompareAndSet;
import sibyl.db.InvalidQueryException;
import sibyl.db.marshal.AbstractType;

/**
 * cas as a lightweight transaction of the cluster on the row's partition (docs/thrift-api-0.7.md §cas): one
 * conditional statement, or one conditional single-partition batch, at the serial level for Paxos and the commit
 * level for the write; the cluster writes it at the ballot's time, as 3.11 did. What a failed one answers is read
 * at the serial level once the cluster has said no.
 *
 * <p>CQL's conditions are on rows, which are columns here, so:
 * <ul>
 * <li>with columns expected, each is a condition {@code IF value = ?} of a statement of its row: the update of
 * that column if there is one, else a write of the value it must have, so a matched column not updated is
 * written anew, at the ballot's time and with the time it had left (read at the serial level first); updates of
 * other columns go in the batch without condition;</li>
 * <li>with nothing expected, the row must have no live column: the first one is read at the serial level, and
 * when there is none each update is written {@code IF value = null}. A column other than those written that
 * appears between the read and the write goes unnoticed (docs/differences.md §The 0.7+ dialect).</li>
 * </ul>
 */
final class ConditionalWrites {
    private ConditionalWrites() {
    }

    static CompletableFuture<CompareAndSet.Outcome> run(ClusterStorageService service, Table table, CompareAndSet cas,
                                                        ConsistencyLevel serial, ConsistencyLevel commit) {
        if (table.statics() != null) {
            // its conditions name (column1, value) only; a declared column's value lives in a static column too
            return CompletableFuture.failedFuture(new InvalidQueryException("in cluster mode, cas is not served on"
                    + " column family " + table.name() + ", whose table holds its column_metadata's columns as static"
                    + " columns (docs/differences.md §The 0.7+ dialect)"));
        }
        byte[] key = ClusterStorageService.key(cas.key());
        if (cas.expected().isEmpty()) {
            return current(service, table, key, cas, serial).thenCompose(found -> {
                if (!found.isEmpty()) return CompletableFuture.completedFuture(CompareAndSet.Outcome.failure(found));
                if (cas.updates().isEmpty()) return CompletableFuture.completedFuture(CompareAndSet.Outcome.success());
                List<BatchableStatement<?>> writes = new ArrayList<>();
                for (Column u : cas.updates()) {
                    writes.add(write(service, table, table.statements().casWriteIfAbsent(), key, u.name(), u.value(),
                            ttl(u), null));
                }
                return applied(service, table, key, cas, writes, serial, commit);
            });
        }
        for (CompareAndSet.Expected e : cas.expected()) {
            // A column expected without a value, or with an empty name, matches no column: no need to ask the
            // cluster to find that out (its tables take no empty column1 either).
            if (e.value() == null || e.name().length == 0) return current(service, table, key, cas, serial).thenApply(CompareAndSet.Outcome::failure);
        }
        AbstractType comparator = table.metadata().comparator();
        boolean rewrites = false;
        for (CompareAndSet.Expected e : cas.expected()) rewrites |= find(comparator, cas.updates(), e.name()) == null;
        if (!rewrites) return conditional(service, table, key, cas, List.of(), serial, commit);
        // An expected column not updated is written anew with the time it has left, which a read at the serial
        // level tells; that read answers a cas whose condition does not hold already.
        return current(service, table, key, cas, serial).thenCompose(found -> cas.appliesTo(found)
                ? conditional(service, table, key, cas, found, serial, commit)
                : CompletableFuture.completedFuture(CompareAndSet.Outcome.failure(found)));
    }

    /**
     * The conditional batch of a cas that expects columns; {@code found} has the expected columns not updated, as
     * a read found them (for their ttls).
     */
    private static CompletableFuture<CompareAndSet.Outcome> conditional(ClusterStorageService service, Table table,
                                                                        byte[] key, CompareAndSet cas,
                                                                        List<Column> found, ConsistencyLevel serial,
                                                                        ConsistencyLevel commit) {
        AbstractType comparator = table.metadata().comparator();
        List<BatchableStatement<?>> writes = new ArrayList<>();
        for (CompareAndSet.Expected e : cas.expected()) {
            Column u = find(comparator, cas.updates(), e.name());
            Column kept = u == null ? find(comparator, found, e.name()) : null;
            writes.add(u == null
                    ? write(service, table, table.statements().casWriteIfValue(), key, e.name(), e.value(),
                            kept == null ? 0 : ttl(kept), e.value())
                    : write(service, table, table.statements().casWriteIfValue(), key, u.name(), u.value(), ttl(u), e.value()));
        }
        for (Column u : cas.updates()) {
            boolean expected = false;
            for (CompareAndSet.Expected e : cas.expected()) expected |= comparator.compare(e.name(), u.name()) == 0;
            if (!expected) writes.add(write(service, table, table.statements().casWrite(), key, u.name(), u.value(), ttl(u), null));
        }
        return applied(service, table, key, cas, writes, serial, commit);
    }

    /** Sends the conditional statements; when the cluster does not apply them, what the condition looked at. */
    private static CompletableFuture<CompareAndSet.Outcome> applied(ClusterStorageService service, Table table,
                                                                    byte[] key, CompareAndSet cas,
                                                                    List<BatchableStatement<?>> writes,
                                                                    ConsistencyLevel serial, ConsistencyLevel commit) {
        Statement<?> statement = writes.size() == 1
                ? ((BoundStatement) writes.get(0)).setConsistencyLevel(commit).setSerialConsistencyLevel(serial)
                : service.statements().settings().on(BatchStatement.builder(DefaultBatchType.UNLOGGED), commit)
                        .setSerialConsistencyLevel(serial).setIdempotence(false).addStatements(writes).build();
        return service.errors().<AsyncResultSet>async(() -> service.session().executeAsync(statement)).thenCompose(rows -> rows.wasApplied()
                ? CompletableFuture.completedFuture(CompareAndSet.Outcome.success())
                : current(service, table, key, cas, serial).thenApply(CompareAndSet.Outcome::failure));
    }

    /** The live columns the condition looks at, read at the serial level. */
    private static CompletableFuture<List<Column>> current(ClusterStorageService service, Table table, byte[] key,
                                                           CompareAndSet cas, ConsistencyLevel serial) {
        return service.errors().async(() -> Reads.columnsAsync(service, table, key, cas.currentSelection(), serial))
                .thenApply(cells -> {
                    List<Column> columns = new ArrayList<>(cells.size());
                    for (Cell c : cells) columns.add((Column) c);
                    return columns;
                });
    }

    /**
     * A bound cas statement: ttl, value, key, column1 (or the clustering columns of a {@link ClusteringNames}
     * table's name), and the value the column must have when {@code ifValue}.
     */
    private static BoundStatement write(ClusterStorageService service, Table table, TableStatements.Slot slot,
                                        byte[] key, byte[] name, byte[] value, int ttl, byte[] ifValue) {
        var b = slot.prepared(service.statements()).boundStatementBuilder()
                .setInt(0, ttl)
                .setBytesUnsafe(1, ByteBuffer.wrap(value))
                .setBytesUnsafe(2, ByteBuffer.wrap(key))
                .setIdempotence(false);
        int next = 4;
        if (table.names() != null) {
            next = table.names().bind(b, 3, name);
        } else {
            b.setBytesUnsafe(3, ByteBuffer.wrap(name));
        }
        if (ifValue != null) b.setBytesUnsafe(next, ByteBuffer.wrap(ifValue));
        return b.build();
    }

    private static int ttl(Column c) {
        return c.isExpiring() ? c.ttl() : 0;
    }

    private static Column find(AbstractType comparator, List<Column> columns, byte[] name) {
        for (Column c : columns) {
            if (comparator.compare(c.name(), name) == 0) return c;
        }
        return null;
    }
}
