package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnSelection;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.db.SuperColumn;
import sibyl.db.TestSchema;
import sibyl.dht.OrderPreservingPartitioner;
import sibyl.dht.Partitioner;
import sibyl.dht.RandomPartitioner;
import sibyl.dht.Token;

/**
 * Random writes, deletions and reads against the store and against a plain model made of
 * TreeMaps that applies docs/semantics.md §Reads to §Range slices literally. Prints its seed; rerun a failure with
 * {@code -Dsibyl.seed=<seed>}.
 */
class RandomizedModelTest {
    private static final String STD = TestSchema.STD;
    private static final String SUP = TestSchema.SUPER;
    private static final String KS = TestSchema.KS;
    private static final Comparator<byte[]> BYTES = Arrays::compareUnsigned;
    private static final byte[][] NAMES = {{0x00}, {0x01}, {0x01, 0x00}, {0x41}, {0x7f}, {(byte) 0x80}, {(byte) 0xff},
            {(byte) 0xff, 0x00}};
    private static final String[] KEYS = {"a", "b", "c", "d", "e", "f", "g", "h"};

    // ---- the model

    private record Version(byte[] value, long ts, boolean deleted) {
        static Version reconcile(Version a, Version b) {
            if (a.ts != b.ts) return a.ts > b.ts ? a : b;
            if (a.deleted != b.deleted) return a.deleted ? a : b;
            return Arrays.compareUnsigned(a.value, b.value) >= 0 ? a : b;
        }
    }

    private static final class ModelSuper {
        long deletedAt = Long.MIN_VALUE;
        final TreeMap<byte[], Version> cols = new TreeMap<>(BYTES);
    }

    private static final class ModelRow {
        long deletedAt = Long.MIN_VALUE;
        final TreeMap<byte[], Version> cols = new TreeMap<>(BYTES);
        final TreeMap<byte[], ModelSuper> supers = new TreeMap<>(BYTES);
    }

    /** cf -> key -> row; a key is present once anything was written to that CF for it. */
    private final Map<String, Map<String, ModelRow>> model = Map.of(STD, new TreeMap<>(), SUP, new TreeMap<>());

    private ModelRow row(String cf, String key) {
        return model.get(cf).computeIfAbsent(key, k -> new ModelRow());
    }

    /** Live entries of a level as "name=value" or "sc[sub=value,...]" strings, ascending. */
    private List<Map.Entry<byte[], String>> live(String cf, String key, byte[] sc) {
        List<Map.Entry<byte[], String>> out = new ArrayList<>();
        ModelRow r = model.get(cf).get(key);
        if (r == null) return out;
        if (cf.equals(STD)) {
            r.cols.forEach((n, v) -> {
                if (!v.deleted && v.ts > r.deletedAt) out.add(Map.entry(n, hex(n) + "=" + hex(v.value)));
            });
        } else if (sc == null) {
            r.supers.forEach((n, s) -> {
                List<Map.Entry<byte[], String>> subs = liveSubs(r, s);
                if (!subs.isEmpty()) {
                    StringBuilder b = new StringBuilder(hex(n)).append('[');
                    subs.forEach(e -> b.append(e.getValue()).append(','));
                    out.add(Map.entry(n, b.append(']').toString()));
                }
            });
        } else {
            ModelSuper s = r.supers.get(sc);
            if (s != null) out.addAll(liveSubs(r, s));
        }
        return out;
    }

    private static List<Map.Entry<byte[], String>> liveSubs(ModelRow r, ModelSuper s) {
        long shadow = Math.max(r.deletedAt, s.deletedAt);
        List<Map.Entry<byte[], String>> out = new ArrayList<>();
        s.cols.forEach((n, v) -> {
            if (!v.deleted && v.ts > shadow) out.add(Map.entry(n, hex(n) + "=" + hex(v.value)));
        });
        return out;
    }

    private List<Map.Entry<byte[], String>> slice(String cf, String key, byte[] sc, ColumnSelection sel) {
        List<Map.Entry<byte[], String>> all = live(cf, key, sc);
        List<Map.Entry<byte[], String>> out = new ArrayList<>();
        if (sel instanceof ColumnSelection.Names names) {
            for (Map.Entry<byte[], String> e : all) {
                if (names.names().stream().anyMatch(n -> Arrays.equals(n, e.getKey()))) out.add(e);
            }
            return out;
        }
        ColumnSelection.Range r = (ColumnSelection.Range) sel;
        if (r.reversed()) all = reversed(all);
        for (Map.Entry<byte[], String> e : all) {
            if (out.size() >= r.count()) break;
            int toStart = BYTES.compare(e.getKey(), r.start());
            int toFinish = BYTES.compare(e.getKey(), r.finish());
            boolean afterStart = r.start().length == 0 || (r.reversed() ? toStart <= 0 : toStart >= 0);
            boolean beforeFinish = r.finish().length == 0 || (r.reversed() ? toFinish >= 0 : toFinish <= 0);
            if (afterStart && beforeFinish) out.add(e);
        }
        return out;
    }

    private static <T> List<T> reversed(List<T> l) {
        List<T> r = new ArrayList<>(l);
        java.util.Collections.reverse(r);
        return r;
    }

    private void modelWrite(String cf, String key, byte[] sc, byte[] name, Version v) {
        ModelRow r = row(cf, key);
        TreeMap<byte[], Version> cols = sc == null ? r.cols : r.supers.computeIfAbsent(sc, n -> new ModelSuper()).cols;
        cols.merge(name, v, Version::reconcile);
    }

    // ---- the test

    @Test
    void storeAgreesWithModelUnderRandomOperations() {
        long seed = Long.getLong("sibyl.seed", 20240601L);
        System.out.println("RandomizedModelTest seed " + seed + " (rerun with -Dsibyl.seed=" + seed + ")");
        for (Partitioner p : List.of(new OrderPreservingPartitioner(), new RandomPartitioner())) {
            model.values().forEach(Map::clear);
            run(new Random(seed), p, seed);
        }
    }

    private void run(Random rnd, Partitioner p, long seed) {
        LocalStorageService db = TestStores.service(p);
        for (int step = 0; step < 4000; step++) {
            String context = "seed " + seed + " step " + step + " (" + p.className() + ")";
            if (rnd.nextInt(3) > 0) {
                mutate(db, rnd);
            } else {
                query(db, rnd, p, context);
            }
        }
    }

    private void mutate(LocalStorageService db, Random rnd) {
        String key = KEYS[rnd.nextInt(KEYS.length)];
        RowMutation.Builder b = RowMutation.builder(KS, key);
        List<Runnable> modelChanges = new ArrayList<>();
        List<Runnable> sliceDeletes = new ArrayList<>();
        int n = 1 + rnd.nextInt(4);
        for (int i = 0; i < n; i++) {
            long ts = rnd.nextInt(30);
            byte[] name = NAMES[rnd.nextInt(NAMES.length)];
            byte[] sc = NAMES[rnd.nextInt(3)];
            byte[] value = {(byte) rnd.nextInt(3)};
            switch (rnd.nextInt(12)) {
                case 0, 1, 2 -> {
                    b.write(STD, name, value, ts);
                    modelChanges.add(() -> modelWrite(STD, key, null, name, new Version(value, ts, false)));
                }
                case 3, 4, 5 -> {
                    b.write(SUP, sc, name, value, ts);
                    modelChanges.add(() -> modelWrite(SUP, key, sc, name, new Version(value, ts, false)));
                }
                case 6 -> {
                    b.deleteColumn(STD, name, ts);
                    modelChanges.add(() -> modelWrite(STD, key, null, name, new Version(new byte[0], ts, true)));
                }
                case 7 -> {
                    b.deleteSubcolumn(SUP, sc, name, ts);
                    modelChanges.add(() -> modelWrite(SUP, key, sc, name, new Version(new byte[0], ts, true)));
                }
                case 8 -> {
                    b.deleteSuperColumn(SUP, sc, ts);
                    modelChanges.add(() -> {
                        ModelSuper s = row(SUP, key).supers.computeIfAbsent(sc, x -> new ModelSuper());
                        s.deletedAt = Math.max(s.deletedAt, ts);
                    });
                }
                case 9 -> {
                    String cf = rnd.nextBoolean() ? STD : SUP;
                    b.deleteRow(cf, ts);
                    modelChanges.add(() -> {
                        ModelRow r = row(cf, key);
                        r.deletedAt = Math.max(r.deletedAt, ts);
                    });
                }
                default -> {
                    String cf = rnd.nextBoolean() ? STD : SUP;
                    byte[] level = cf.equals(SUP) && rnd.nextBoolean() ? sc : null;
                    ColumnSelection.Range range = randomRange(rnd);
                    b.deleteSlice(cf, level, range, ts);
                    // Resolved against the row with the mutation's other changes in, before any slice deletion.
                    sliceDeletes.add(() -> {
                        List<Map.Entry<byte[], String>> hit = slice(cf, key, level, range);
                        modelChanges.add(() -> {
                            for (Map.Entry<byte[], String> e : hit) {
                                if (cf.equals(SUP) && level == null) {
                                    ModelSuper s = row(SUP, key).supers.get(e.getKey());
                                    s.deletedAt = Math.max(s.deletedAt, ts);
                                } else {
                                    modelWrite(cf, key, level, e.getKey(), new Version(new byte[0], ts, true));
                                }
                            }
                        });
                    });
                }
            }
        }
        db.apply(b.build());
        List<Runnable> plain = new ArrayList<>(modelChanges);
        modelChanges.clear();
        plain.forEach(Runnable::run);
        sliceDeletes.forEach(Runnable::run);
        modelChanges.forEach(Runnable::run);
    }

    private static ColumnSelection.Range randomRange(Random rnd) {
        byte[] start = rnd.nextInt(3) == 0 ? new byte[0] : NAMES[rnd.nextInt(NAMES.length)];
        byte[] finish = rnd.nextInt(3) == 0 ? new byte[0] : NAMES[rnd.nextInt(NAMES.length)];
        boolean reversed = rnd.nextBoolean();
        if (start.length > 0 && finish.length > 0) {
            int c = BYTES.compare(start, finish);
            if (reversed ? c < 0 : c > 0) {
                byte[] t = start;
                start = finish;
                finish = t;
            }
        }
        return ColumnSelection.range(start, finish, reversed, rnd.nextInt(6));
    }

    private static ColumnSelection randomSelection(Random rnd) {
        if (rnd.nextInt(4) > 0) return randomRange(rnd);
        List<byte[]> names = new ArrayList<>();
        for (int i = rnd.nextInt(5); i > 0; i--) names.add(NAMES[rnd.nextInt(NAMES.length)]);
        return ColumnSelection.names(names);
    }

    private void query(LocalStorageService db, Random rnd, Partitioner p, String context) {
        String key = KEYS[rnd.nextInt(KEYS.length)];
        boolean sup = rnd.nextBoolean();
        String cf = sup ? SUP : STD;
        byte[] sc = sup && rnd.nextBoolean() ? NAMES[rnd.nextInt(3)] : null;
        QueryPath parent = new QueryPath(cf, sc, null);
        ColumnSelection sel = randomSelection(rnd);
        switch (rnd.nextInt(4)) {
            case 0 -> assertEquals(render(slice(cf, key, sc, sel)), render(db.getSlice(KS, key, parent, sel)),
                    context + " get_slice " + key + " " + parent + " " + sel);
            case 1 -> assertEquals(live(cf, key, sc).size(), db.getCount(KS, key, parent), context + " get_count");
            case 2 -> {
                byte[] name = NAMES[rnd.nextInt(NAMES.length)];
                QueryPath path = sup ? new QueryPath(cf, sc == null ? name : sc, sc == null ? null : name)
                        : QueryPath.column(cf, name);
                byte[] level = sup ? path.superColumn() : null;
                List<Map.Entry<byte[], String>> expected = sup && sc == null
                        ? slice(cf, key, null, ColumnSelection.names(name))
                        : slice(cf, key, level, ColumnSelection.names(name));
                List<Cell> got = db.get(KS, key, path).map(List::of).orElse(List.of());
                assertEquals(render(expected), render(got), context + " get " + path);
            }
            default -> {
                int count = 1 + rnd.nextInt(10);
                RowRange range;
                List<String> candidates = new ArrayList<>(model.get(cf).keySet());
                candidates.sort(Comparator.comparing(p::getToken).thenComparing(Comparator.naturalOrder()));
                List<String> expectedKeys = new ArrayList<>();
                if (rnd.nextBoolean()) {
                    String start = rnd.nextInt(3) == 0 ? "" : KEYS[rnd.nextInt(KEYS.length)];
                    String end = rnd.nextInt(3) == 0 ? "" : KEYS[rnd.nextInt(KEYS.length)];
                    Token ts = start.isEmpty() ? p.getMinimumToken() : p.getToken(start);
                    if (!end.isEmpty() && ts.compareTo(p.getToken(end)) > 0) {
                        String t = start;
                        start = end;
                        end = t;
                        ts = start.isEmpty() ? p.getMinimumToken() : p.getToken(start);
                    }
                    range = RowRange.keys(start, end);
                    for (String k : candidates) {
                        if (p.getToken(k).compareTo(ts) >= 0 && (end.isEmpty() || p.getToken(k).compareTo(p.getToken(end)) <= 0)) {
                            expectedKeys.add(k);
                        }
                    }
                } else {
                    Token l = p.getToken(KEYS[rnd.nextInt(KEYS.length)]);
                    Token r = rnd.nextInt(4) == 0 ? l : p.getToken(KEYS[rnd.nextInt(KEYS.length)]);
                    range = RowRange.tokens(l, r);
                    List<String> after = new ArrayList<>();
                    List<String> upToStart = new ArrayList<>();
                    for (String k : candidates) (p.getToken(k).compareTo(l) > 0 ? after : upToStart).add(k);
                    List<String> ring = new ArrayList<>(after);
                    ring.addAll(upToStart);
                    sibyl.dht.Range tokenRange = new sibyl.dht.Range(l, r);
                    for (String k : ring) if (tokenRange.contains(p.getToken(k))) expectedKeys.add(k);
                }
                List<String> expected = new ArrayList<>();
                for (String k : expectedKeys.subList(0, Math.min(count, expectedKeys.size()))) {
                    expected.add(k + " " + render(slice(cf, k, sc, sel)));
                }
                List<String> got = new ArrayList<>();
                for (RowSlice row : db.getRangeSlice(KS, parent, sel, range, count)) {
                    got.add(row.key() + " " + render(row.cells()));
                }
                assertEquals(expected, got, context + " get_range_slices " + range + " " + parent + " " + sel);
            }
        }
    }

    private static String render(List<?> entries) {
        List<String> out = new ArrayList<>();
        for (Object o : entries) {
            if (o instanceof Map.Entry<?, ?> e) {
                out.add((String) e.getValue());
            } else if (o instanceof Column c) {
                out.add(hex(c.name()) + "=" + hex(c.value()));
            } else {
                SuperColumn s = (SuperColumn) o;
                StringBuilder b = new StringBuilder(hex(s.name())).append('[');
                for (Column c : s.subcolumns()) b.append(hex(c.name())).append('=').append(hex(c.value())).append(',');
                out.add(b.append(']').toString());
            }
        }
        return out.toString();
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
