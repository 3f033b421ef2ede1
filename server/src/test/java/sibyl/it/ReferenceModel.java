package sibyl.it;

import static sibyl.it.Requests.b;
import static sibyl.it.Requests.text;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.Deletion;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;
import org.apache.cassandra.thrift.SuperColumn;

/**
 * The 0.6 data rules (docs/semantics.md §Reads to §Range slices) over plain TreeMaps, for one standard and one
 * super column family whose names and values are ASCII text (so String order is byte order).
 * Deliberately naive: every rule is applied where it is stated, nothing is merged or cached.
 */
final class ReferenceModel {
    /** One stored version of a column: a value, or a tombstone when {@code value} is null. */
    record Version(String value, long ts) {
        boolean liveAbove(long shadow) {
            return value != null && ts > shadow;
        }
    }

    static final class Super {
        long deletedAt = Long.MIN_VALUE;
        final TreeMap<String, Version> subcolumns = new TreeMap<>();
    }

    static final class Row {
        long deletedAt = Long.MIN_VALUE;
        final TreeMap<String, Version> columns = new TreeMap<>();
        final TreeMap<String, Super> supers = new TreeMap<>();
    }

    private final String standardCf;
    private final String superCf;
    /** Column family → key → row; a key is present once anything was stored for it. */
    private final Map<String, TreeMap<String, Row>> data = new TreeMap<>();

    ReferenceModel(String standardCf, String superCf) {
        this.standardCf = standardCf;
        this.superCf = superCf;
        data.put(standardCf, new TreeMap<>());
        data.put(superCf, new TreeMap<>());
    }

    boolean isSuper(String cf) {
        return cf.equals(superCf);
    }

    // ---- reconciliation (docs/semantics.md §Tombstones)

    static Version reconcile(Version stored, Version incoming) {
        if (stored == null) return incoming;
        if (incoming.ts != stored.ts) return incoming.ts > stored.ts ? incoming : stored;
        if (stored.value == null) return stored;
        if (incoming.value == null) return incoming;
        return incoming.value.compareTo(stored.value) > 0 ? incoming : stored;
    }

    private Row row(String cf, String key) {
        return data.get(cf).computeIfAbsent(key, k -> new Row());
    }

    // ---- writes

    void write(String key, String column, String value, long ts) {
        row(standardCf, key).columns.merge(column, new Version(value, ts), ReferenceModel::reconcile);
    }

    void writeSub(String key, String superColumn, String column, String value, long ts) {
        row(superCf, key).supers.computeIfAbsent(superColumn, s -> new Super())
                .subcolumns.merge(column, new Version(value, ts), ReferenceModel::reconcile);
    }

    void deleteColumn(String key, String column, long ts) {
        row(standardCf, key).columns.merge(column, new Version(null, ts), ReferenceModel::reconcile);
    }

    void deleteSub(String key, String superColumn, String column, long ts) {
        row(superCf, key).supers.computeIfAbsent(superColumn, s -> new Super())
                .subcolumns.merge(column, new Version(null, ts), ReferenceModel::reconcile);
    }

    void deleteSuper(String key, String superColumn, long ts) {
        Super sc = row(superCf, key).supers.computeIfAbsent(superColumn, s -> new Super());
        sc.deletedAt = Math.max(sc.deletedAt, ts);
    }

    void deleteRow(String cf, String key, long ts) {
        Row r = row(cf, key);
        r.deletedAt = Math.max(r.deletedAt, ts);
    }

    /**
     * One key's mutations to one column family, as batch_mutate applies them: slice deletions
     * (Sibyl's extension) select from the row with every other change of the list already in.
     */
    void apply(String key, String cf, List<Mutation> mutations) {
        List<Deletion> slices = new ArrayList<>();
        for (Mutation m : mutations) {
            if (m.isSetColumn_or_supercolumn()) {
                ColumnOrSuperColumn cosc = m.getColumn_or_supercolumn();
                if (cosc.isSetColumn()) {
                    Column c = cosc.getColumn();
                    write(key, text(c.bufferForName()), text(c.bufferForValue()), c.getTimestamp());
                } else {
                    SuperColumn sc = cosc.getSuper_column();
                    for (Column c : sc.getColumns()) {
                        writeSub(key, text(sc.bufferForName()), text(c.bufferForName()), text(c.bufferForValue()),
                                c.getTimestamp());
                    }
                }
                continue;
            }
            Deletion d = m.getDeletion();
            String sc = d.isSetSuper_column() ? text(d.bufferForSuper_column()) : null;
            long ts = d.getTimestamp();
            if (d.isSetPredicate() && d.getPredicate().isSetSlice_range()) {
                slices.add(d);
            } else if (d.isSetPredicate()) {
                for (ByteBuffer n : d.getPredicate().getColumn_names()) {
                    if (sc != null) deleteSub(key, sc, text(n), ts);
                    else if (isSuper(cf)) deleteSuper(key, text(n), ts);
                    else deleteColumn(key, text(n), ts);
                }
            } else if (sc != null) {
                deleteSuper(key, sc, ts);
            } else {
                deleteRow(cf, key, ts);
            }
        }
        List<Runnable> tombstones = new ArrayList<>();
        for (Deletion d : slices) {
            String sc = d.isSetSuper_column() ? text(d.bufferForSuper_column()) : null;
            long ts = d.getTimestamp();
            for (ColumnOrSuperColumn hit : slice(cf, key, sc, new SlicePredicate().setSlice_range(d.getPredicate().getSlice_range()))) {
                String name = text(hit.isSetColumn() ? hit.getColumn().bufferForName() : hit.getSuper_column().bufferForName());
                if (sc != null) tombstones.add(() -> deleteSub(key, sc, name, ts));
                else if (isSuper(cf)) tombstones.add(() -> deleteSuper(key, name, ts));
                else tombstones.add(() -> deleteColumn(key, name, ts));
            }
        }
        tombstones.forEach(Runnable::run);
    }

    // ---- reads

    /** get_slice of {@code cf} at {@code key}, under super column {@code sc} when not null. */
    List<ColumnOrSuperColumn> slice(String cf, String key, String sc, SlicePredicate predicate) {
        Row r = data.get(cf).get(key);
        List<ColumnOrSuperColumn> out = new ArrayList<>();
        if (r == null) return out;
        if (sc != null) {
            Super s = r.supers.get(sc);
            if (s == null) return out;
            long shadow = Math.max(r.deletedAt, s.deletedAt);
            for (String name : selected(s.subcolumns, predicate, n -> s.subcolumns.get(n).liveAbove(shadow))) {
                out.add(new ColumnOrSuperColumn().setColumn(column(name, s.subcolumns.get(name))));
            }
        } else if (isSuper(cf)) {
            for (String name : selected(r.supers, predicate, n -> liveSuper(r, n) != null)) {
                out.add(new ColumnOrSuperColumn().setSuper_column(liveSuper(r, name)));
            }
        } else {
            for (String name : selected(r.columns, predicate, n -> r.columns.get(n).liveAbove(r.deletedAt))) {
                out.add(new ColumnOrSuperColumn().setColumn(column(name, r.columns.get(name))));
            }
        }
        return out;
    }

    /** get of a column or subcolumn; null when it is not live. */
    ColumnOrSuperColumn get(String cf, String key, String sc, String column) {
        List<ColumnOrSuperColumn> hit = slice(cf, key, sc, new SlicePredicate().setColumn_names(List.of(b(column))));
        return hit.isEmpty() ? null : hit.get(0);
    }

    /**
     * Whether range slices list rows that hold only tombstones (0.6 and the embedded engine do;
     * the cluster backend does not).
     */
    boolean listsGhostRows = true;

    /** get_range_slices over every key, in the order {@code tokenOrder} gives the keys. */
    List<KeySlice> rangeSlice(String cf, String sc, SlicePredicate predicate, Comparator<String> tokenOrder, int count) {
        List<String> keys = new ArrayList<>(data.get(cf).keySet());
        if (!listsGhostRows) {
            SlicePredicate everything = new SlicePredicate().setSlice_range(
                    new SliceRange(java.nio.ByteBuffer.allocate(0), java.nio.ByteBuffer.allocate(0), false, Integer.MAX_VALUE));
            keys.removeIf(key -> slice(cf, key, null, everything).isEmpty());
        }
        keys.sort(tokenOrder);
        List<KeySlice> out = new ArrayList<>();
        for (String key : keys.subList(0, Math.min(count, keys.size()))) {
            out.add(new KeySlice(key, slice(cf, key, sc, predicate)));
        }
        return out;
    }

    private static SuperColumn liveSuper(Row r, String name) {
        Super s = r.supers.get(name);
        long shadow = Math.max(r.deletedAt, s.deletedAt);
        List<Column> live = new ArrayList<>();
        s.subcolumns.forEach((n, v) -> {
            if (v.liveAbove(shadow)) live.add(column(n, v));
        });
        return live.isEmpty() ? null : new SuperColumn(b(name), live);
    }

    private static Column column(String name, Version v) {
        return new Column(b(name), b(v.value), v.ts);
    }

    /** The names of {@code stored} a predicate picks, counting only those {@code live} accepts. */
    private static List<String> selected(NavigableMap<String, ?> stored, SlicePredicate p,
                                         java.util.function.Predicate<String> live) {
        List<String> out = new ArrayList<>();
        if (p.isSetColumn_names()) {
            TreeSet<String> names = new TreeSet<>();
            for (ByteBuffer n : p.getColumn_names()) names.add(text(n));
            for (String n : names) {
                if (stored.containsKey(n) && live.test(n)) out.add(n);
            }
            return out;
        }
        SliceRange r = p.getSlice_range();
        String start = text(r.bufferForStart());
        String finish = text(r.bufferForFinish());
        NavigableMap<String, ?> view;
        if (r.isReversed()) {
            view = (start.isEmpty() ? stored : stored.headMap(start, true)).descendingMap();
        } else {
            view = start.isEmpty() ? stored : stored.tailMap(start, true);
        }
        for (String n : view.keySet()) {
            if (out.size() >= r.getCount()) break;
            if (!finish.isEmpty() && (r.isReversed() ? n.compareTo(finish) < 0 : n.compareTo(finish) > 0)) break;
            if (live.test(n)) out.add(n);
        }
        return out;
    }
}
