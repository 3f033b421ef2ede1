package sibyl.cql;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import sibyl.db.ColumnSelection;
import sibyl.db.InvalidQueryException;
import sibyl.db.RowMutation;
import sibyl.dht.BinaryKeys;
import sibyl.service.CqlAnswer;

/**
 * A DELETE on a {@link CompactView} at the statement's timestamp: of each row named when no clustering column is
 * restricted, of one cell when all are, else of the cells between the restrictions' bounds (a slice deletion;
 * exclusive bounds only on a composite comparator, whose bounds can say so).
 */
final class DeletePlan implements Action {
    private final CompactView view;
    private final Where where;
    private final Term timestamp;

    private DeletePlan(CompactView view, Where where, Term timestamp) {
        this.view = view;
        this.where = where;
        this.timestamp = timestamp;
    }

    static DeletePlan of(Statement.Delete s, CompactView view, Specs specs) {
        for (String column : s.columns()) {
            int p = view.position(column);
            if (p != view.clusteringCount()) {
                throw new InvalidQueryException("Invalid identifier " + column + " for deletion (should not be a PRIMARY"
                        + " KEY part)");
            }
        }
        if (s.using().ttl() != null) throw new InvalidQueryException("TTL attribute is not allowed for deletes");
        WritePlan.noteUsing(s.using(), specs);
        Where where = Where.of(view, s.where(), specs, "DELETE");
        if (where.keys() == null) throw new InvalidQueryException("Some partition key parts are missing: key");
        boolean slice = where.lower() != null || where.upper() != null;
        if (!view.composite() && slice && (where.lower() != null && !where.lower().inclusive()
                || where.upper() != null && !where.upper().inclusive())) {
            throw Parser.notServed("a DELETE of an exclusive slice (< or >) of a column family whose comparator is not"
                    + " a CompositeType");
        }
        if (!s.columns().isEmpty() && where.in() == null && where.prefix().size() < view.clusteringCount()) {
            throw new InvalidQueryException("Range deletions are not supported for specific columns");
        }
        return new DeletePlan(view, where, s.using().timestamp());
    }

    @Override
    public CompletableFuture<CqlAnswer> run(Target target, Bindings values) {
        view.checkWriteLevel(target.consistency());
        long ts = values.timestamp(timestamp, target.nowMicros());
        String cf = view.cf().name();
        List<RowMutation> mutations = new ArrayList<>();
        Slice slice = where.restrictsClustering() ? Slice.of(view, where, values, false) : null;
        boolean wholeCell = where.prefix().size() == view.clusteringCount();
        for (ByteBuffer key : Keys.distinct(where.keys(), values, view.type(-1))) {
            RowMutation.Builder m = RowMutation.builder(target.keyspace(), BinaryKeys.decode(key))
                    .localDeletionTime(target.nowSeconds());
            if (slice == null) {
                m.deleteRow(cf, ts);
            } else if (slice.empty()) {
                continue;
            } else if (slice.names() != null) {
                for (byte[] name : slice.names()) m.deleteColumn(cf, name, ts);
            } else if (wholeCell) {
                List<ByteBuffer> names = new ArrayList<>();
                for (int i = 0; i < where.prefix().size(); i++) {
                    names.add(values.bytes(where.prefix().get(i), view.type(i), CompactView.clusteringName(i)));
                }
                m.deleteColumn(cf, view.cellName(names, 0), ts);
            } else {
                ColumnSelection.Range range = slice.range(Integer.MAX_VALUE);
                m.deleteSlice(cf, null, range, ts);
            }
            mutations.add(m.build());
        }
        return target.write(mutations);
    }
}
