package sibyl.cql;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import sibyl.db.CFMetaData;
import sibyl.db.Change;
import sibyl.db.InvalidQueryException;
import sibyl.db.RowMutation;
import sibyl.db.marshal.Int32Type;
import sibyl.db.marshal.LongType;
import sibyl.dht.BinaryKeys;
import sibyl.service.CqlAnswer;

/**
 * An INSERT, or an UPDATE of {@code value}, on a {@link CompactView}: one cell written (or, for a null value,
 * deleted) in each row named, at the statement's timestamp (the node's clock in microseconds unless USING TIMESTAMP
 * says) and TTL (the column family's default unless USING TTL says; 0 for none). A composite's trailing clustering
 * columns may be left out, as 3.11 allows, which writes a name of fewer components.
 */
final class WritePlan implements Action {
    private final CompactView view;
    private final List<Term> keys;
    private final List<Term> clustering;
    private final Term value;
    private final Statement.Using using;
    /** For a counter: 1 to add the value, -1 to subtract it; 0 to write it. */
    private final int increment;

    private WritePlan(CompactView view, List<Term> keys, List<Term> clustering, Term value, Statement.Using using,
                      int increment) {
        this.view = view;
        this.keys = keys;
        this.clustering = clustering;
        this.value = value;
        this.using = using;
        this.increment = increment;
    }

    static WritePlan insert(Statement.Insert s, CompactView view, Specs specs) {
        if (view.isCounter()) {
            throw new InvalidQueryException("INSERT statements are not allowed on counter tables, use UPDATE instead");
        }
        if (s.columns().size() != s.values().size()) throw new InvalidQueryException("Unmatched column names/values");
        Set<String> seen = new HashSet<>();
        int n = view.clusteringCount();
        Term[] byPosition = new Term[n + 2];
        for (int i = 0; i < s.columns().size(); i++) {
            String column = s.columns().get(i);
            if (!seen.add(column)) throw new InvalidQueryException("The column names contains duplicates");
            int p = view.position(column);
            byPosition[p + 1] = s.values().get(i);
        }
        noteUsing(s.using(), specs);
        for (int i = 0; i < s.columns().size(); i++) {
            int p = view.position(s.columns().get(i));
            specs.note(s.values().get(i), view.name(p), true, view.type(p));
        }
        if (byPosition[0] == null) throw new InvalidQueryException("Some partition key parts are missing: key");
        List<Term> clustering = clustering(view, byPosition);
        if (byPosition[n + 1] == null) {
            throw new InvalidQueryException("Column value is mandatory for this COMPACT STORAGE table");
        }
        return new WritePlan(view, List.of(byPosition[0]), clustering, byPosition[n + 1], s.using(), 0);
    }

    static WritePlan update(Statement.Update s, CompactView view, Specs specs) {
        int p = view.position(s.column());
        if (p != view.clusteringCount()) throw new InvalidQueryException("PRIMARY KEY part " + s.column() + " found in SET part");
        if (view.isCounter() && !s.increment()) {
            throw new InvalidQueryException("Cannot set the value of counter column value (counters can only be"
                    + " incremented/decremented, not set)");
        }
        if (!view.isCounter() && s.increment()) {
            throw new InvalidQueryException("Invalid operation (value = value " + (s.negate() ? "-" : "+")
                    + " ...) for non counter column value");
        }
        if (s.increment() && s.using().timestamp() != null) {
            throw new InvalidQueryException("Cannot provide custom timestamp for counter updates");
        }
        if (s.increment() && s.using().ttl() != null) {
            throw new InvalidQueryException("Cannot provide custom TTL for counter updates");
        }
        noteUsing(s.using(), specs);
        specs.note(s.value(), CompactView.VALUE, true, view.type(p));
        Where where = Where.of(view, s.where(), specs, "UPDATE");
        if (where.keys() == null) throw new InvalidQueryException("Some partition key parts are missing: key");
        if (where.in() != null) throw Parser.notServed("IN on a clustering column in an UPDATE");
        if (where.lower() != null || where.upper() != null) {
            throw new InvalidQueryException("Slice restrictions are not supported on the clustering columns in UPDATE"
                    + " statements");
        }
        Term[] byPosition = new Term[view.clusteringCount() + 2];
        for (int i = 0; i < where.prefix().size(); i++) byPosition[i + 1] = where.prefix().get(i);
        return new WritePlan(view, where.keys(), clustering(view, byPosition), s.value(), s.using(),
                !s.increment() ? 0 : s.negate() ? -1 : 1);
    }

    /** The clustering terms given: all of them, or for a composite a prefix of at least one. */
    private static List<Term> clustering(CompactView view, Term[] byPosition) {
        int n = view.clusteringCount();
        List<Term> given = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (byPosition[i + 1] == null) missing.add(CompactView.clusteringName(i));
            else if (missing.isEmpty()) given.add(byPosition[i + 1]);
            else {
                throw new InvalidQueryException("PRIMARY KEY column \"" + CompactView.clusteringName(i) + "\" cannot be"
                        + " restricted as preceding column \"" + missing.get(0) + "\" is not restricted");
            }
        }
        if (given.isEmpty() || (!view.composite() && !missing.isEmpty())) {
            throw new InvalidQueryException("Some clustering keys are missing: " + String.join(", ", missing));
        }
        return given;
    }

    static void noteUsing(Statement.Using using, Specs specs) {
        if (using.ttl() != null) specs.note(using.ttl(), "[ttl]", false, Int32Type.instance);
        if (using.timestamp() != null) specs.note(using.timestamp(), "[timestamp]", false, LongType.instance);
    }

    @Override
    public CompletableFuture<CqlAnswer> run(Target target, Bindings values) {
        view.checkWriteLevel(target.consistency());
        CFMetaData cf = view.cf();
        Integer ttl = values.ttl(using.ttl(), CFMetaData.MAX_TTL);
        long timestamp = values.timestamp(using.timestamp(), target.nowMicros());
        List<ByteBuffer> names = new ArrayList<>();
        for (int i = 0; i < clustering.size(); i++) {
            String column = CompactView.clusteringName(i);
            names.add(Keys.written(values.bytes(clustering.get(i), view.type(i), column), column, view.composite()));
        }
        byte[] name = view.cellName(names, 0);
        if (name.length == 0) throw new InvalidQueryException("Invalid empty value for clustering column of COMPACT TABLE");
        if (name.length > 0xffff) {
            throw new InvalidQueryException("The sum of all clustering columns is too long (" + name.length
                    + " > 65535)");
        }
        ByteBuffer written = values.bytes(value, view.type(view.clusteringCount()), CompactView.VALUE);
        int effectiveTtl = ttl != null ? ttl : cf.defaultTimeToLive();
        List<RowMutation> mutations = new ArrayList<>();
        for (ByteBuffer key : Keys.distinct(keys, values, view.type(-1))) {
            RowMutation.Builder m = RowMutation.builder(target.keyspace(), BinaryKeys.decode(key))
                    .localDeletionTime(target.nowSeconds());
            if (increment != 0) m.add(cf.name(), new Change.Increment(null, name, delta(written), timestamp));
            else if (written == null) m.deleteColumn(cf.name(), name, timestamp);
            else if (effectiveTtl > 0) m.write(cf.name(), name, CompactView.bytes(written), timestamp, effectiveTtl);
            else m.write(cf.name(), name, CompactView.bytes(written), timestamp);
            mutations.add(m.build());
        }
        return target.write(mutations);
    }

    /** A counter's increment: the value's count, negated for {@code -}. */
    private long delta(ByteBuffer count) {
        if (count == null) throw new InvalidQueryException("Invalid null value for counter increment");
        if (count.remaining() != 8) throw new InvalidQueryException("Invalid counter increment of " + count.remaining() + " bytes");
        long n = count.getLong(count.position());
        if (increment < 0 && n == Long.MIN_VALUE) throw new InvalidQueryException("The negation of " + n + " overflows LongType");
        return increment < 0 ? -n : n;
    }
}
