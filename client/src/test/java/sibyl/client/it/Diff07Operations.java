package sibyl.client.it;

import static sibyl.client.it.V20Call.DONE;
import static sibyl.client.it.V20Call.hex;
import static sibyl.client.it.V20Call.parent;
import static sibyl.client.it.V20Call.path;
import static sibyl.client.it.V20Call.predicate;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import sibyl.client.it.Diff07Schema.Family;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.ColumnSlice;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.Deletion;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.MultiSliceRequest;
import sibyl.iface.v20.Mutation;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;
import sibyl.iface.v20.SuperColumn;

/**
 * Random writes and reads of the 0.7+ API over the {@link Diff07Schema} keyspace, each a {@link V20Call}: inserts,
 * removals of a column, a super column or a whole row, and batch_mutate with insertions and deletions, all at
 * explicit timestamps; get, get_slice, get_count, multiget_slice, multiget_count and get_range_slices with names and
 * ranges (start, finish, reversed, count). Most slice ranges run in the comparator's order; some do not, and are
 * refused.
 */
final class Diff07Operations {
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;

    private final Random random;
    private final Diff07Vocabulary words;

    Diff07Operations(Random random, Diff07Vocabulary words) {
        this.random = random;
        this.words = words;
    }

    // ---- writes

    /** An insert (40%), a removal of a column (15%), a super column (7%) or a row (5%), or a batch_mutate. */
    V20Call write() {
        int pick = random.nextInt(100);
        return pick < 40 ? insert() : pick < 55 ? removeColumn() : pick < 62 ? removeSuperColumn() : pick < 67 ? removeRow() : batchMutate();
    }

    private V20Call insert() {
        Family f = words.family();
        ByteBuffer key = words.key();
        ColumnParent parent = new ColumnParent(f.name());
        if (f.isSuper()) parent.setSuper_column(words.name(f));
        Column column = column(f.isSuper() ? words.subname(f) : words.name(f));
        return new V20Call("insert(" + hex(key) + ", " + parent(parent) + ", " + V20Call.column(column) + ")", s -> {
            s.client().insert(key, parent, column, ONE);
            return DONE;
        }, Diff07Shape.write(List.of(written(f, key, parent.bufferForSuper_column(), column))));
    }

    private static Diff07Ledger.Written written(Family f, ByteBuffer key, ByteBuffer superColumn, Column c) {
        return new Diff07Ledger.Written(f.name(), key, superColumn, c.bufferForName(), c.bufferForValue(), c.getTimestamp(),
                c.isSetTtl() ? c.getTtl() : 0);
    }

    /** A column at a random timestamp; one in eight with a TTL long enough that no run outlives it. */
    private Column column(ByteBuffer name) {
        Column c = new Column(name).setValue(words.value()).setTimestamp(words.timestamp());
        if (random.nextInt(8) == 0) c.setTtl(3600 + random.nextInt(86400));
        return c;
    }

    // ---- expiry

    /**
     * The writes of the expiry round, in two batch_mutate calls over {@code keys} and every family, at timestamps past
     * every random write's ({@code base} and {@code base + 1}): per row, one column that expires ({@code ttl} seconds);
     * one written without a TTL, then newer with one, which expires and hides the older value; one written with a
     * TTL, then newer without, which stays; one with a TTL longer than any run.
     */
    List<V20Call> expiringWrites(List<ByteBuffer> keys, long base, int ttl) {
        List<Map<ByteBuffer, Map<String, List<Mutation>>>> batches = List.of(new HashMap<>(), new HashMap<>());
        List<List<Diff07Ledger.Effect>> effects = List.of(new ArrayList<>(), new ArrayList<>());
        for (ByteBuffer key : keys) {
            for (Family f : Diff07Schema.FAMILIES) {
                List<ByteBuffer> names = distinctNames(f, 4);
                ByteBuffer superColumn = f.isSuper() ? words.name(f) : null;
                long[][] versions = {{ttl}, {0, ttl}, {ttl, 0}, {86400}};
                for (int n = 0; n < versions.length; n++) {
                    for (int v = 0; v < versions[n].length; v++) {
                        Column c = new Column(names.get(n)).setValue(words.value()).setTimestamp(base + v);
                        if (versions[n][v] > 0) c.setTtl((int) versions[n][v]);
                        ColumnOrSuperColumn cosc = superColumn == null ? new ColumnOrSuperColumn().setColumn(c)
                                : new ColumnOrSuperColumn().setSuper_column(new SuperColumn(superColumn, List.of(c)));
                        batches.get(v).computeIfAbsent(key, k -> new HashMap<>()).computeIfAbsent(f.name(), k -> new ArrayList<>())
                                .add(new Mutation().setColumn_or_supercolumn(cosc));
                        effects.get(v).add(written(f, key, superColumn, c));
                    }
                }
            }
        }
        List<V20Call> calls = new ArrayList<>();
        for (int v = 0; v < 2; v++) {
            Map<ByteBuffer, Map<String, List<Mutation>>> batch = batches.get(v);
            StringBuilder description = new StringBuilder("batch_mutate(");
            batch.forEach((key, byFamily) -> byFamily.forEach((family, list) -> description.append(hex(key)).append('/')
                    .append(family).append(": ").append(list.stream().map(V20Call::mutation).toList()).append("; ")));
            calls.add(new V20Call(description.append(')').toString(), s -> {
                s.client().batch_mutate(batch, ONE);
                return DONE;
            }, Diff07Shape.write(effects.get(v))));
        }
        return calls;
    }

    /** Every row of {@code keys} in every family, whole. */
    static List<V20Call> wholeRows(List<ByteBuffer> keys) {
        List<V20Call> reads = new ArrayList<>();
        SlicePredicate all = new SlicePredicate().setSlice_range(new SliceRange(ByteBuffer.allocate(0), ByteBuffer.allocate(0), false, 100));
        for (Family f : Diff07Schema.FAMILIES) {
            ColumnParent parent = new ColumnParent(f.name());
            reads.add(new V20Call("multiget_slice(" + V20Call.keys(keys) + ", " + parent(parent) + ", " + predicate(all) + ")",
                    s -> V20Call.byKey(s.client().multiget_slice(keys, parent, all, ONE), V20Call::cells),
                    Diff07Shape.read(f.name(), null, null)));
        }
        return reads;
    }

    private List<ByteBuffer> distinctNames(Family f, int n) {
        List<ByteBuffer> names = new ArrayList<>();
        for (int tries = 0; names.size() < n; tries++) {
            ByteBuffer name = f.isSuper() ? words.subname(f) : words.name(f);
            if (!names.contains(name)) names.add(name);
            if (tries > 1000) throw new IllegalStateException(f.name() + " has fewer than " + n + " names");
        }
        return names;
    }

    private V20Call removeColumn() {
        Family f = words.family();
        ColumnPath path = new ColumnPath(f.name());
        if (f.isSuper()) path.setSuper_column(words.name(f)).setColumn(words.subname(f));
        else path.setColumn(words.name(f));
        return remove(path);
    }

    private V20Call removeSuperColumn() {
        Family f = words.superFamily();
        return remove(new ColumnPath(f.name()).setSuper_column(words.name(f)));
    }

    private V20Call removeRow() {
        return remove(new ColumnPath(words.family().name()));
    }

    private V20Call remove(ColumnPath path) {
        ByteBuffer key = words.key();
        long timestamp = words.timestamp();
        return new V20Call("remove(" + hex(key) + ", " + path(path) + ", @" + timestamp + ")", s -> {
            s.client().remove(key, path, timestamp, ONE);
            return DONE;
        });
    }

    private V20Call batchMutate() {
        Map<ByteBuffer, Map<String, List<Mutation>>> mutations = new HashMap<>();
        List<Diff07Ledger.Effect> effects = new ArrayList<>();
        StringBuilder description = new StringBuilder("batch_mutate(");
        for (ByteBuffer key : words.keys(3)) {
            Map<String, List<Mutation>> byFamily = new HashMap<>();
            for (int n = 1 + random.nextInt(2); n > 0; n--) {
                Family f = words.family();
                List<Mutation> list = byFamily.computeIfAbsent(f.name(), k -> new ArrayList<>());
                for (int m = 1 + random.nextInt(4); m > 0; m--) {
                    Mutation mutation = avoidingALostDeletion(f, list, mutation(f));
                    list.add(mutation);
                    effects.addAll(effects(f, key, mutation));
                }
            }
            mutations.put(key, byFamily);
            byFamily.forEach((family, list) -> description.append(hex(key)).append('/').append(family).append(": ")
                    .append(list.stream().map(V20Call::mutation).toList()).append("; "));
        }
        description.append(')');
        return new V20Call(description.toString(), s -> {
            s.client().batch_mutate(mutations, ONE);
            return DONE;
        }, Diff07Shape.write(effects));
    }

    /**
     * {@code m}, unless it deletes one name by a slice range after a mutation of {@code before} that deletes a greater
     * one so: then the same deletion by the name. 3.11 drops such a deletion, and its row answers wrongly after it (a
     * later write at a newer timestamp lost; docs/differences.md §Where 3.11 fails, Sibyl answers), so no comparison
     * with it tells anything; Dialect20RoundTripTest checks Sibyl's answer.
     */
    private static Mutation avoidingALostDeletion(Family f, List<Mutation> before, Mutation m) {
        ByteBuffer name = oneNameOfARange(m);
        if (name == null) return m;
        Comparator<ByteBuffer> order = Diff07Vocabulary.order(f.names());
        for (Mutation earlier : before) {
            ByteBuffer other = oneNameOfARange(earlier);
            if (other != null && order.compare(name, other) < 0) {
                m.getDeletion().setPredicate(new SlicePredicate().setColumn_names(List.of(name)));
                break;
            }
        }
        return m;
    }

    /** The name a top-level deletion by a slice range of one name deletes; null for any other mutation. */
    private static ByteBuffer oneNameOfARange(Mutation m) {
        if (!m.isSetDeletion() || m.getDeletion().isSetSuper_column() || !m.getDeletion().isSetPredicate()
                || !m.getDeletion().getPredicate().isSetSlice_range()) {
            return null;
        }
        SliceRange r = m.getDeletion().getPredicate().getSlice_range();
        return r.bufferForStart().hasRemaining() && r.bufferForStart().equals(r.bufferForFinish()) ? r.bufferForStart() : null;
    }

    /** The columns a mutation writes and the range it deletes by a slice range, for the ledger. */
    private static List<Diff07Ledger.Effect> effects(Family f, ByteBuffer key, Mutation m) {
        List<Diff07Ledger.Effect> effects = new ArrayList<>();
        if (m.isSetColumn_or_supercolumn()) {
            ColumnOrSuperColumn cosc = m.getColumn_or_supercolumn();
            if (cosc.isSetColumn()) effects.add(written(f, key, null, cosc.getColumn()));
            else for (Column c : cosc.getSuper_column().getColumns()) effects.add(written(f, key, cosc.getSuper_column().bufferForName(), c));
        } else if (m.getDeletion().isSetPredicate() && m.getDeletion().getPredicate().isSetSlice_range() && !m.getDeletion().isSetSuper_column()) {
            SliceRange r = m.getDeletion().getPredicate().getSlice_range();
            effects.add(new Diff07Ledger.RangeDeleted(f.name(), key, r.bufferForStart(), r.bufferForFinish(), m.getDeletion().getTimestamp()));
        }
        return effects;
    }

    private Mutation mutation(Family f) {
        if (random.nextInt(3) > 0) {
            ColumnOrSuperColumn cosc = new ColumnOrSuperColumn();
            if (!f.isSuper()) {
                cosc.setColumn(column(words.name(f)));
            } else {
                List<Column> columns = new ArrayList<>();
                for (int n = 1 + random.nextInt(3); n > 0; n--) columns.add(column(words.subname(f)));
                cosc.setSuper_column(new SuperColumn(words.name(f), columns));
            }
            return new Mutation().setColumn_or_supercolumn(cosc);
        }
        Deletion deletion = new Deletion().setTimestamp(words.timestamp());
        boolean subcolumns = f.isSuper() && random.nextBoolean();
        if (subcolumns) deletion.setSuper_column(words.name(f));
        // A deletion of a whole row has neither a super column nor a predicate.
        if (subcolumns || random.nextInt(4) > 0) {
            SlicePredicate predicate = new SlicePredicate();
            // Rarely a range of subcolumns, which both refuse (3.11 has no range tombstones inside a super column),
            // and with it the whole batch: a refusal costs the batch's other writes.
            if (subcolumns ? random.nextInt(20) > 0 : random.nextInt(3) > 0) {
                List<ByteBuffer> names = new ArrayList<>();
                for (int n = 1 + random.nextInt(3); n > 0; n--) names.add(subcolumns ? words.subname(f) : words.name(f));
                predicate.setColumn_names(names);
            } else {
                ByteBuffer a = subcolumns ? words.subname(f) : words.name(f);
                ByteBuffer b = subcolumns ? words.subname(f) : words.name(f);
                boolean inOrder = Diff07Vocabulary.order(subcolumns ? f.subnames() : f.names()).compare(a, b) <= 0;
                predicate.setSlice_range(new SliceRange(inOrder ? a : b, inOrder ? b : a, false, 100));
            }
            deletion.setPredicate(predicate);
        }
        return new Mutation().setDeletion(deletion);
    }

    // ---- reads

    /**
     * A get (15%), get_slice (30%), get_count (10%), multiget_slice (15%), multiget_count (8%), get_range_slices (14%)
     * or get_paged_slice.
     */
    V20Call read() {
        int pick = random.nextInt(100);
        if (pick < 45) return pick < 15 ? get() : getSlice();
        if (pick < 78) return pick < 55 ? getCount() : pick < 70 ? multigetSlice() : multigetCount();
        return pick < 88 ? rangeSlices() : pick < 94 ? pagedSlice() : multiSlice();
    }

    /** get_multi_slice of one to three slices, some open-ended, of a standard or (refused) super family. */
    private V20Call multiSlice() {
        Family f = words.family();
        MultiSliceRequest request = new MultiSliceRequest().setKey(words.key()).setColumn_parent(
                new ColumnParent(f.name())).setReversed(random.nextInt(3) == 0).setCount(1 + random.nextInt(8))
                .setConsistency_level(ONE);
        List<String> shown = new ArrayList<>();
        for (int i = 1 + random.nextInt(3); i > 0; i--) {
            ColumnSlice slice = new ColumnSlice();
            if (random.nextInt(4) > 0) slice.setStart(words.name(f));
            if (random.nextInt(4) > 0) slice.setFinish(words.name(f));
            request.addToColumn_slices(slice);
            shown.add((slice.isSetStart() ? hex(slice.start) : "-") + ".." + (slice.isSetFinish() ? hex(slice.finish) : "-"));
        }
        return new V20Call("get_multi_slice(" + f.name() + ", key " + hex(request.key) + ", " + shown
                + (request.reversed ? " reversed" : "") + ", count=" + request.count + ")",
                s -> V20Call.cells(s.client().get_multi_slice(request)), request.reversed
                        ? Diff07Shape.read(f.name(), null, request.key).failing311Too(Diff07KnownDifferences.Where311Fails.REVERSED_MULTI_SLICE)
                        : Diff07Shape.read(f.name(), null, request.key));
    }

    private V20Call get() {
        Family f = words.family();
        ByteBuffer key = words.key();
        ColumnPath path = new ColumnPath(f.name());
        if (!f.isSuper()) path.setColumn(words.name(f));
        else if (random.nextBoolean()) path.setSuper_column(words.name(f)).setColumn(words.subname(f));
        else path.setSuper_column(words.name(f));
        return new V20Call("get(" + hex(key) + ", " + path(path) + ")", s -> V20Call.cell(s.client().get(key, path, ONE)),
                Diff07Shape.read(f.name(), path.isSetColumn() ? path.bufferForSuper_column() : null, key));
    }

    /** A column family, now and then a super column of a super one. */
    private ColumnParent someParent(Family f) {
        ColumnParent parent = new ColumnParent(f.name());
        if (f.isSuper() && random.nextBoolean()) parent.setSuper_column(words.name(f));
        return parent;
    }

    /** Names or a range of the columns of {@code parent}: subcolumns when it names a super column. */
    private SlicePredicate somePredicate(Family f, ColumnParent parent) {
        boolean subcolumns = parent.isSetSuper_column();
        ColumnNameType type = subcolumns ? f.subnames() : f.names();
        if (random.nextInt(4) == 0) {
            List<ByteBuffer> names = new ArrayList<>();
            for (int n = 1 + random.nextInt(4); n > 0; n--) names.add(subcolumns ? words.subname(f) : words.name(f));
            return new SlicePredicate().setColumn_names(names);
        }
        ByteBuffer start = random.nextInt(3) == 0 ? ByteBuffer.allocate(0) : subcolumns ? words.subname(f) : words.name(f);
        ByteBuffer finish = random.nextInt(3) == 0 ? ByteBuffer.allocate(0) : subcolumns ? words.subname(f) : words.name(f);
        boolean reversed = random.nextInt(3) == 0;
        // Nine in ten ranges run in the order of traversal; the others may not, and both servers must refuse them alike.
        if (random.nextInt(10) > 0 && start.hasRemaining() && finish.hasRemaining()) {
            boolean ascending = Diff07Vocabulary.order(type).compare(start, finish) <= 0;
            if (ascending == reversed) {
                ByteBuffer t = start;
                start = finish;
                finish = t;
            }
        }
        int count = switch (random.nextInt(4)) {
            case 0 -> 1;
            case 1 -> 1 + random.nextInt(5);
            default -> 100;
        };
        return new SlicePredicate().setSlice_range(new SliceRange(start, finish, reversed, count));
    }

    /** What a slice reads: a column family or super column, and a predicate on its columns. */
    private record Slice(ColumnParent parent, SlicePredicate predicate) {
        /** What the comparison needs to know of a read of {@code key} (null: its answer names its keys). */
        Diff07Shape shape(ByteBuffer key) {
            return Diff07Shape.read(parent.getColumn_family(), parent.bufferForSuper_column(), key);
        }

        @Override
        public String toString() {
            return V20Call.parent(parent) + ", " + V20Call.predicate(predicate);
        }
    }

    private Slice slice() {
        Family f = words.family();
        ColumnParent parent = someParent(f);
        return new Slice(parent, somePredicate(f, parent));
    }

    private V20Call getSlice() {
        ByteBuffer key = words.key();
        Slice q = slice();
        return new V20Call("get_slice(" + hex(key) + ", " + q + ")", s -> V20Call.cells(s.client().get_slice(key, q.parent, q.predicate, ONE)),
                q.shape(key));
    }

    private V20Call getCount() {
        ByteBuffer key = words.key();
        Slice q = slice();
        Diff07Shape shape = q.shape(key);
        if (q.parent.isSetSuper_column() && q.predicate.isSetSlice_range()) {
            shape = shape.failing311Too(Diff07KnownDifferences.Where311Fails.subcolumnsPastCount(q.predicate.getSlice_range().getCount()));
        }
        return new V20Call("get_count(" + hex(key) + ", " + q + ")", s -> String.valueOf(s.client().get_count(key, q.parent, q.predicate, ONE)),
                shape);
    }

    private V20Call multigetSlice() {
        List<ByteBuffer> keys = words.keys(4);
        Slice q = slice();
        return new V20Call("multiget_slice(" + V20Call.keys(keys) + ", " + q + ")",
                s -> V20Call.byKey(s.client().multiget_slice(keys, q.parent, q.predicate, ONE), V20Call::cells), q.shape(null));
    }

    private V20Call multigetCount() {
        List<ByteBuffer> keys = words.keys(4);
        Slice q = slice();
        return new V20Call("multiget_count(" + V20Call.keys(keys) + ", " + q + ")",
                s -> V20Call.byKey(s.client().multiget_count(keys, q.parent, q.predicate, ONE), String::valueOf), q.shape(null));
    }

    /**
     * get_range_slices over a key range from a key (or the start of the ring) to the end of the ring or to a key, or
     * over a token range.
     */
    private V20Call rangeSlices() {
        Slice q = slice();
        KeyRange range = new KeyRange(1 + random.nextInt(6));
        if (random.nextInt(4) > 0) {
            // An end key whose token sorts before the start key's is refused under RandomPartitioner, by both alike.
            range.setStart_key(random.nextInt(3) == 0 ? ByteBuffer.allocate(0) : words.key())
                    .setEnd_key(random.nextInt(4) == 0 ? words.key() : ByteBuffer.allocate(0));
        } else {
            range.setStart_token(token()).setEnd_token(token());
        }
        return rangeSlices(q.parent, q.predicate, range);
    }

    /** get_paged_slice from a key and a column (or the start of the row), or over a token range. */
    private V20Call pagedSlice() {
        Family f = words.family();
        KeyRange range = new KeyRange(1 + random.nextInt(12));
        ByteBuffer startColumn = ByteBuffer.allocate(0);
        if (random.nextInt(4) > 0) {
            range.setStart_key(random.nextInt(4) == 0 ? ByteBuffer.allocate(0) : words.key())
                    .setEnd_key(ByteBuffer.allocate(0));
            if (random.nextBoolean()) startColumn = words.name(f);
        } else {
            range.setStart_token(token()).setEnd_token(token());
        }
        ByteBuffer from = startColumn;
        return new V20Call("get_paged_slice(" + f.name() + ", " + V20Call.range(range) + ", from " + V20Call.hex(from)
                + ")", s -> V20Call.keySlices(s.client().get_paged_slice(f.name(), range, from, ONE)),
                Diff07Shape.read(f.name(), null, null));
    }

    static V20Call rangeSlices(ColumnParent parent, SlicePredicate predicate, KeyRange range) {
        return new V20Call("get_range_slices(" + parent(parent) + ", " + predicate(predicate) + ", " + V20Call.range(range) + ")",
                s -> V20Call.keySlices(s.client().get_range_slices(parent, predicate, range, ONE)),
                Diff07Shape.read(parent.getColumn_family(), parent.bufferForSuper_column(), null));
    }

    /** A token of RandomPartitioner: 0 to 2^127. */
    private String token() {
        return random.nextInt(5) == 0 ? "0" : new BigInteger(127, random).toString();
    }
}
