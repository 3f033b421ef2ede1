package sibyl.cql;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnSelection;
import sibyl.db.InvalidQueryException;
import sibyl.db.QueryPath;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.db.marshal.Int32Type;
import sibyl.db.marshal.LongType;
import sibyl.dht.BinaryKeys;
import sibyl.service.Consistency;
import sibyl.service.CqlAnswer;

/**
 * A SELECT on a {@link CompactView}, checked as 3.11 checks it, and run: each cell of the rows the key restriction
 * names (or of every row, in ring order, without one) is a CQL row of key, clustering values and value, the cells
 * of a row in the comparator's order, or reversed by an ORDER BY against it; with IN, the rows of each key in turn,
 * the keys in their type's order, each once, or with ORDER BY too, all merged in clustering order.
 */
final class SelectPlan implements Action {
    /** Rows a scan of the whole column family reads from the store at a time. */
    private static final int SCAN_PAGE = 256;

    /** A column of the answer: the view's column at {@code position}, its value or its write time or TTL. */
    private record Output(int position, Statement.Selector.Function function, String name) {
    }

    /** One cell as a CQL row. */
    private record Found(ByteBuffer key, byte[] name, Column cell) {
    }

    private final CompactView view;
    private final Where where;
    private final List<Output> outputs;
    private final String countName;
    private final boolean descending;
    private final boolean ordered;
    private final Term limit;

    private SelectPlan(CompactView view, Where where, List<Output> outputs, String countName, boolean ordered,
                       boolean descending, Term limit) {
        this.view = view;
        this.where = where;
        this.outputs = outputs;
        this.countName = countName;
        this.ordered = ordered;
        this.descending = descending;
        this.limit = limit;
    }

    static SelectPlan of(Statement.Select s, CompactView view, Specs specs) {
        List<Output> outputs = null;
        if (!s.count()) {
            outputs = new ArrayList<>();
            if (s.selectors() == null) {
                for (int p = -1; p <= view.clusteringCount(); p++) {
                    outputs.add(new Output(p, Statement.Selector.Function.NONE, view.name(p)));
                }
            } else {
                for (Statement.Selector sel : s.selectors()) {
                    int p = view.position(sel.column());
                    if (sel.function() != Statement.Selector.Function.NONE) {
                        String f = sel.function() == Statement.Selector.Function.TTL ? "ttl" : "writeTime";
                        if (p != view.clusteringCount()) {
                            throw new InvalidQueryException("Cannot use selection function " + f
                                    + " on PRIMARY KEY part " + view.name(p));
                        }
                    }
                    outputs.add(new Output(p, sel.function(), sel.alias() != null ? sel.alias()
                            : sel.function() == Statement.Selector.Function.NONE ? view.name(p) : sel.shownName()));
                }
            }
        }
        Where where = Where.of(view, s.where(), specs, null);
        if (!s.orderBy().isEmpty()) {
            if (where.keys() == null) {
                throw new InvalidQueryException("ORDER BY is only supported when the partition key is restricted by"
                        + " an EQ or an IN.");
            }
            for (int i = 0; i < s.orderBy().size(); i++) {
                int p = view.position(s.orderBy().get(i));
                if (p < 0 || p >= view.clusteringCount()) {
                    throw new InvalidQueryException("Order by is currently only supported on the clustered columns of"
                            + " the PRIMARY KEY, got " + view.name(p));
                }
                if (p != i) {
                    throw new InvalidQueryException("Order by currently only support the ordering of columns following"
                            + " their declared order in the PRIMARY KEY");
                }
            }
        }
        if (s.limit() != null) specs.note(s.limit(), "[limit]", false, Int32Type.instance);
        return new SelectPlan(view, where, outputs, s.countName(), !s.orderBy().isEmpty(), s.descending(), s.limit());
    }

    @Override
    public CompletableFuture<CqlAnswer> run(Target target, Bindings values) {
        if (target.consistency() == Consistency.ANY) {
            throw new InvalidQueryException("ANY ConsistencyLevel is only supported for writes");
        }
        int max = limit == null ? Integer.MAX_VALUE : values.limit(limit);
        if (outputs == null) max = Integer.MAX_VALUE; // COUNT(*) counts every row: its one answer row is within any limit
        Slice slice = Slice.of(view, where, values, ordered && descending != view.storedDescending());
        CompletableFuture<List<Found>> found;
        if (where.keys() == null) {
            found = scan(target, slice, new ArrayList<>(), "", null, max);
        } else {
            found = read(target, keys(values), slice, max);
        }
        return found.thenApply(rows -> answer(rows, target));
    }

    private List<ByteBuffer> keys(Bindings values) {
        List<ByteBuffer> sorted = Keys.distinct(where.keys(), values, view.type(-1));
        sorted.sort(Comparator.comparing(CompactView::bytes, view.type(-1)));
        return sorted;
    }

    private CompletableFuture<List<Found>> read(Target target, List<ByteBuffer> keys, Slice slice, int max) {
        List<CompletableFuture<List<Cell>>> reads = new ArrayList<>(keys.size());
        if (!slice.empty()) {
            for (ByteBuffer key : keys) {
                reads.add(target.store().readSlice(target.keyspace(), BinaryKeys.decode(key), QueryPath.cf(view.cf().name()),
                        slice.selection(ordered && keys.size() > 1 ? Integer.MAX_VALUE : max), target.consistency()));
            }
        }
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenApply(ignored -> {
            List<Found> rows = new ArrayList<>();
            for (int i = 0; i < reads.size(); i++) {
                for (Cell c : slice.arranged(reads.get(i).join())) rows.add(new Found(keys.get(i), c.name(), (Column) c));
            }
            if (ordered && keys.size() > 1) {
                // 3.11 merges the rows of the keys by clustering order; a stable sort keeps ties in key order, as it does.
                Comparator<Found> byName = Comparator.comparing(Found::name, view.cf().comparator());
                rows.sort(slice.reversed() ? byName.reversed() : byName);
            }
            return rows.size() > max ? rows.subList(0, max) : rows;
        });
    }

    /** Every row in ring order, a page at a time, from {@code from} (inclusive; {@code last} already read). */
    private CompletableFuture<List<Found>> scan(Target target, Slice slice, List<Found> rows, String from, String last,
                                                int max) {
        return target.store().scan(target.keyspace(), QueryPath.cf(view.cf().name()), slice.selection(Integer.MAX_VALUE),
                RowRange.keys(from, ""), SCAN_PAGE, target.consistency()).thenCompose(page -> {
                    String next = null;
                    for (RowSlice row : page) {
                        next = row.key();
                        if (row.key().equals(last)) continue;
                        ByteBuffer key = ByteBuffer.wrap(BinaryKeys.encode(row.key()));
                        for (Cell c : row.cells()) {
                            if (rows.size() >= max) return CompletableFuture.completedFuture(rows);
                            rows.add(new Found(key, c.name(), (Column) c));
                        }
                    }
                    if (page.size() < SCAN_PAGE || next == null || next.equals(last)) {
                        return CompletableFuture.completedFuture(rows);
                    }
                    return scan(target, slice, rows, next, next, max);
                });
    }

    private CqlAnswer answer(List<Found> rows, Target target) {
        if (outputs == null) {
            return CqlAnswer.rows(List.of(countName), List.of(LongType.instance.className()),
                    List.of(List.of(ByteBuffer.allocate(8).putLong(0, rows.size()))));
        }
        List<String> names = new ArrayList<>(outputs.size());
        List<String> types = new ArrayList<>(outputs.size());
        for (Output o : outputs) {
            names.add(o.name());
            types.add(switch (o.function()) {
                case NONE -> view.typeName(o.position());
                case WRITETIME -> LongType.instance.className();
                case TTL -> Int32Type.instance.className();
            });
        }
        List<List<ByteBuffer>> answered = new ArrayList<>(rows.size());
        for (Found f : rows) {
            List<ByteBuffer> clustering = view.clusteringValues(f.name());
            List<ByteBuffer> row = new ArrayList<>(outputs.size());
            for (Output o : outputs) row.add(value(o, f, clustering, target));
            answered.add(row);
        }
        return CqlAnswer.rows(names, types, answered);
    }

    private ByteBuffer value(Output o, Found f, List<ByteBuffer> clustering, Target target) {
        Column c = f.cell();
        switch (o.function()) {
            case WRITETIME:
                return ByteBuffer.allocate(8).putLong(0, c.timestamp());
            case TTL:
                return c.isExpiring() ? ByteBuffer.allocate(4).putInt(0, Math.max(0, c.localExpirationTime()
                        - target.nowSeconds())) : null;
            default:
                break;
        }
        if (o.position() < 0) return f.key().duplicate();
        if (o.position() < view.clusteringCount()) return clustering.get(o.position());
        return c.isCounter() ? ByteBuffer.allocate(8).putLong(0, c.count()) : ByteBuffer.wrap(c.value());
    }
}
