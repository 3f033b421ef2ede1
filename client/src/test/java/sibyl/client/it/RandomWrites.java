package sibyl.client.it;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.Deletion;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SuperColumn;
import sibyl.client.it.DifferentialSchema.Family;

/**
 * Random writes of the Thrift API, each a {@link ThriftCall} that answers "ok" when it succeeds: insert,
 * batch_mutate over several rows and column families with insertions and deletions of rows, columns, super
 * columns and subcolumns, batch_insert, remove at every level, and now and then a call the server must refuse.
 * Timestamps are mostly newer than any before, sometimes older (the write must lose to what it overwrites)
 * and sometimes equal to an earlier one (0.6 breaks such ties by tombstone, then by value).
 */
final class RandomWrites {
    private final Random random;
    private final Vocabulary words;
    private long newest = 1_285_014_400_000_000L;
    private final Deque<Long> recent = new ArrayDeque<>();

    RandomWrites(Random random, Vocabulary words) {
        this.random = random;
        this.words = words;
    }

    ThriftCall next() {
        int r = random.nextInt(100);
        if (r < 30) return insert();
        if (r < 60) return batchMutate();
        if (r < 64) return batchInsert();
        if (r < 97) return remove();
        return refused();
    }

    /** Removes of whole rows: {@code count} of them, each of a random key of a random family. */
    List<ThriftCall> rowRemovals(int count) {
        List<ThriftCall> calls = new ArrayList<>();
        for (int i = 0; i < count; i++) calls.add(remove(family(), words.key(), new ColumnPath(), newer()));
        return calls;
    }

    // ---- timestamps and values

    private long timestamp() {
        int r = random.nextInt(100);
        long ts;
        if (r < 75 || recent.isEmpty()) ts = newer();
        else if (r < 95) ts = newest - 1 - random.nextInt(3_000_000);
        else ts = new ArrayList<>(recent).get(random.nextInt(recent.size()));
        remember(ts);
        return ts;
    }

    private long newer() {
        newest += 1 + random.nextInt(1000);
        remember(newest);
        return newest;
    }

    private void remember(long ts) {
        recent.addLast(ts);
        if (recent.size() > 64) recent.removeFirst();
    }

    private byte[] value() {
        int r = random.nextInt(100);
        int length;
        if (r < 70) length = random.nextInt(25);
        else if (r < 90) length = 25 + random.nextInt(276);
        else if (r < 98) length = 1024 + random.nextInt(5 * 1024);
        else length = 20 * 1024 + random.nextInt(50 * 1024);
        byte[] v = new byte[length];
        random.nextBytes(v);
        return v;
    }

    private ConsistencyLevel level() {
        int r = random.nextInt(20);
        return r == 0 ? ConsistencyLevel.QUORUM : r == 1 ? ConsistencyLevel.ALL : ConsistencyLevel.ONE;
    }

    private Family family() {
        return DifferentialSchema.FAMILIES.get(random.nextInt(DifferentialSchema.FAMILIES.size()));
    }

    // ---- the calls

    private ThriftCall insert() {
        Family f = family();
        ColumnPath path = new ColumnPath(f.name());
        if (f.isSuper()) path.setSuper_column(words.name(f)).setColumn(words.subname(f));
        else path.setColumn(words.name(f));
        return insert(f.keyspace(), words.key(), path, value(), timestamp(), level());
    }

    private static ThriftCall insert(String keyspace, String key, ColumnPath path, byte[] value, long ts, ConsistencyLevel cl) {
        String d = "insert(" + keyspace + ", " + ThriftCall.key(key) + ", " + ThriftCall.path(path) + ", "
                + ThriftCall.cell(new ColumnOrSuperColumn().setColumn(new Column(ByteBuffer.allocate(0), ByteBuffer.wrap(value), ts)))
                + ", " + cl + ")";
        return new ThriftCall(d, c -> {
            c.insert(keyspace, key, path, ByteBuffer.wrap(value), ts, cl);
            return "ok";
        });
    }

    private ThriftCall remove() {
        Family f = family();
        ColumnPath path = new ColumnPath(f.name());
        int level = random.nextInt(100);
        if (f.isSuper()) {
            if (level >= 20) path.setSuper_column(words.nameOrStranger(f));
            if (level >= 55) path.setColumn(words.subnameOrStranger(f));
        } else if (level >= 30) {
            path.setColumn(words.nameOrStranger(f));
        }
        return remove(f, words.keyOrStranger(), path, timestamp());
    }

    private ThriftCall remove(Family f, String key, ColumnPath path, long ts) {
        path.setColumn_family(f.name());
        ConsistencyLevel cl = level();
        String d = "remove(" + f.keyspace() + ", " + ThriftCall.key(key) + ", " + ThriftCall.path(path) + ", " + ts + ", " + cl + ")";
        return new ThriftCall(d, c -> {
            c.remove(f.keyspace(), key, path, ts, cl);
            return "ok";
        });
    }

    private ThriftCall batchMutate() {
        String keyspace = DifferentialSchema.keyspaces().get(random.nextInt(DifferentialSchema.keyspaces().size()));
        List<Family> families = DifferentialSchema.familiesOf(keyspace);
        Map<String, Map<String, List<Mutation>>> mutations = new LinkedHashMap<>();
        for (int k = 1 + random.nextInt(4); k > 0; k--) {
            Map<String, List<Mutation>> row = mutations.computeIfAbsent(words.keyOrStranger(), x -> new LinkedHashMap<>());
            for (int c = 1 + random.nextInt(3); c > 0; c--) {
                Family f = families.get(random.nextInt(families.size()));
                List<Mutation> list = row.computeIfAbsent(f.name(), x -> new ArrayList<>());
                for (int m = 1 + random.nextInt(5); m > 0; m--) {
                    list.add(random.nextInt(100) < 60 ? insertion(f) : deletion(f, list.stream().noneMatch(RandomWrites::deletesRow)));
                }
            }
        }
        return batchMutate(keyspace, mutations, level());
    }

    private static ThriftCall batchMutate(String keyspace, Map<String, Map<String, List<Mutation>>> mutations, ConsistencyLevel cl) {
        StringBuilder d = new StringBuilder("batch_mutate(").append(keyspace).append(", {");
        boolean firstRow = true;
        for (Map.Entry<String, Map<String, List<Mutation>>> row : mutations.entrySet()) {
            d.append(firstRow ? "" : ", ").append(ThriftCall.key(row.getKey())).append(": {");
            firstRow = false;
            boolean firstCf = true;
            for (Map.Entry<String, List<Mutation>> cf : row.getValue().entrySet()) {
                d.append(firstCf ? "" : ", ").append(cf.getKey()).append(": [");
                firstCf = false;
                for (int i = 0; i < cf.getValue().size(); i++) d.append(i > 0 ? ", " : "").append(mutation(cf.getValue().get(i)));
                d.append(']');
            }
            d.append('}');
        }
        d.append("}, ").append(cl).append(')');
        return new ThriftCall(d.toString(), c -> {
            c.batch_mutate(keyspace, mutations, cl);
            return "ok";
        });
    }

    private static String mutation(Mutation m) {
        StringBuilder out = new StringBuilder();
        if (m.isSetColumn_or_supercolumn()) out.append('+').append(ThriftCall.cell(m.getColumn_or_supercolumn()));
        if (m.isSetDeletion()) {
            Deletion del = m.getDeletion();
            out.append(out.length() > 0 ? " & " : "").append("-del(");
            if (del.isSetSuper_column()) out.append("sc=").append(ThriftCall.hex(del.getSuper_column())).append(' ');
            if (del.isSetPredicate()) out.append(ThriftCall.predicate(del.getPredicate())).append(' ');
            out.append('@').append(del.getTimestamp()).append(')');
        }
        return out.length() == 0 ? "(empty Mutation)" : out.toString();
    }

    private Mutation insertion(Family f) {
        return new Mutation().setColumn_or_supercolumn(cell(f));
    }

    private ColumnOrSuperColumn cell(Family f) {
        if (!f.isSuper()) return new ColumnOrSuperColumn().setColumn(new Column(ByteBuffer.wrap(words.name(f)), ByteBuffer.wrap(value()), timestamp()));
        List<Column> subcolumns = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        // now and then a super column with no subcolumn at all, which 0.6 takes
        int count = random.nextInt(40) == 0 ? 0 : 1 + random.nextInt(4);
        for (int i = 0; i < count; i++) {
            byte[] name = words.subname(f);
            if (seen.add(ThriftCall.hex(name))) subcolumns.add(new Column(ByteBuffer.wrap(name), ByteBuffer.wrap(value()), timestamp()));
        }
        return new ColumnOrSuperColumn().setSuper_column(new SuperColumn(ByteBuffer.wrap(words.name(f)), subcolumns));
    }

    /**
     * A deletion of a row (only when {@code ofRow}), columns, super columns or subcolumns.
     *
     * <p>At most one row deletion per row and column family of a batch: 0.6.5 keeps the last one listed rather than
     * the newest (its row mutation sets the row's deletion time where it should take the greater), so a batch with
     * a newer row deletion before an older one deletes less in 0.6 than in Sibyl, which takes the newest. Reproduced
     * on a fresh 0.6.5 node: column "a" at 50, then one batch_mutate deleting the row at 100 and at 10; 0.6 still
     * answers "a".
     */
    private Mutation deletion(Family f, boolean ofRow) {
        Deletion del = new Deletion(timestamp());
        int r = random.nextInt(100);
        if (!f.isSuper()) {
            if (r < 60 || !ofRow) del.setPredicate(names(f, false));
        } else if (r < 30) {
            del.setSuper_column(words.nameOrStranger(f));
        } else if (r < 60) {
            del.setSuper_column(words.nameOrStranger(f)).setPredicate(names(f, true));
        } else if (r < 80 || !ofRow) {
            del.setPredicate(names(f, false));
        }
        return new Mutation().setDeletion(del);
    }

    private static boolean deletesRow(Mutation m) {
        return m.isSetDeletion() && !m.getDeletion().isSetSuper_column() && !m.getDeletion().isSetPredicate();
    }

    private SlicePredicate names(Family f, boolean subcolumns) {
        List<ByteBuffer> names = new ArrayList<>();
        for (int i = 1 + random.nextInt(3); i > 0; i--) names.add(ByteBuffer.wrap(subcolumns ? words.subnameOrStranger(f) : words.nameOrStranger(f)));
        return new SlicePredicate().setColumn_names(names);
    }

    private ThriftCall batchInsert() {
        String keyspace = DifferentialSchema.keyspaces().get(random.nextInt(DifferentialSchema.keyspaces().size()));
        List<Family> families = DifferentialSchema.familiesOf(keyspace);
        String key = words.key();
        Map<String, List<ColumnOrSuperColumn>> cfmap = new LinkedHashMap<>();
        for (int c = 1 + random.nextInt(2); c > 0; c--) {
            Family f = families.get(random.nextInt(families.size()));
            List<ColumnOrSuperColumn> cells = cfmap.computeIfAbsent(f.name(), x -> new ArrayList<>());
            for (int i = 1 + random.nextInt(4); i > 0; i--) cells.add(cell(f));
        }
        ConsistencyLevel cl = level();
        StringBuilder d = new StringBuilder("batch_insert(").append(keyspace).append(", ").append(ThriftCall.key(key)).append(", {");
        boolean first = true;
        for (Map.Entry<String, List<ColumnOrSuperColumn>> e : cfmap.entrySet()) {
            d.append(first ? "" : ", ").append(e.getKey()).append(": ").append(ThriftCall.cells(e.getValue()));
            first = false;
        }
        d.append("}, ").append(cl).append(')');
        return new ThriftCall(d.toString(), c -> {
            c.batch_insert(keyspace, key, cfmap, cl);
            return "ok";
        });
    }

    /**
     * A write the server must refuse, each as a client gets it wrong; some hide one bad part among good ones.
     * (Not a Deletion with a slice_range, which 0.6 refuses: Sibyl takes it on purpose, as later Cassandras do.)
     */
    private ThriftCall refused() {
        Family f = family();
        String key = words.key();
        long ts = timestamp();
        switch (random.nextInt(8)) {
            case 0 -> {
                return insert(f.keyspace(), "", pathOf(f), value(), ts, ConsistencyLevel.ONE);
            }
            case 1 -> {
                ColumnPath path = new ColumnPath(f.name());
                byte[] bad = f.names().invalidName(random);
                if (bad == null) bad = new byte[0];
                if (f.isSuper()) path.setSuper_column(bad).setColumn(words.subname(f));
                else path.setColumn(bad);
                return insert(f.keyspace(), key, path, value(), ts, ConsistencyLevel.ONE);
            }
            case 2 -> {
                // a super column on a standard family, or none on a super family
                ColumnPath path = new ColumnPath(f.name());
                if (f.isSuper()) path.setColumn(words.subname(f));
                else path.setSuper_column(words.name(f)).setColumn(words.name(f));
                return insert(f.keyspace(), key, path, value(), ts, ConsistencyLevel.ONE);
            }
            case 3 -> {
                Mutation m = insertion(f);
                m.setDeletion(new Deletion(ts));
                return batchMutate(f.keyspace(), withGoodOnes(f, key, m), ConsistencyLevel.ONE);
            }
            case 4 -> {
                return batchMutate(f.keyspace(), withGoodOnes(f, key, new Mutation()), ConsistencyLevel.ONE);
            }
            case 5 -> {
                Map<String, Map<String, List<Mutation>>> m = withGoodOnes(f, key, insertion(f));
                m.get(key).put("NoSuchFamily", new ArrayList<>(List.of(insertion(f))));
                return batchMutate(f.keyspace(), m, ConsistencyLevel.ONE);
            }
            case 6 -> {
                // a super column on a standard family, or an empty super column name
                ColumnPath path = new ColumnPath(f.name());
                path.setSuper_column(f.isSuper() ? new byte[0] : words.name(f));
                return remove(f, key, path, ts);
            }
            default -> {
                Family standard = DifferentialSchema.FAMILIES.get(random.nextInt(6));
                Deletion del = new Deletion(ts).setSuper_column(words.name(standard));
                return batchMutate(standard.keyspace(), withGoodOnes(standard, key, new Mutation().setDeletion(del)), ConsistencyLevel.ONE);
            }
        }
    }

    private ColumnPath pathOf(Family f) {
        ColumnPath path = new ColumnPath(f.name());
        if (f.isSuper()) path.setSuper_column(words.name(f)).setColumn(words.subname(f));
        else path.setColumn(words.name(f));
        return path;
    }

    /** {@code bad} for {@code key} after valid insertions into other rows and its own: none may be applied. */
    private Map<String, Map<String, List<Mutation>>> withGoodOnes(Family f, String key, Mutation bad) {
        Map<String, Map<String, List<Mutation>>> m = new LinkedHashMap<>();
        m.computeIfAbsent(words.key(), x -> new LinkedHashMap<>()).computeIfAbsent(f.name(), x -> new ArrayList<>()).add(insertion(f));
        List<Mutation> own = m.computeIfAbsent(key, x -> new LinkedHashMap<>()).computeIfAbsent(f.name(), x -> new ArrayList<>());
        own.add(insertion(f));
        own.add(bad);
        return m;
    }
}
