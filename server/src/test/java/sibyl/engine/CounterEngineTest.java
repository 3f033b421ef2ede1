package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Change;
import sibyl.db.Column;
import sibyl.db.ColumnSelection;
import sibyl.db.KSMetaData;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.db.SuperColumn;
import sibyl.db.Validators;
import sibyl.db.marshal.BytesType;
import sibyl.db.marshal.CounterColumnType;
import sibyl.dht.RandomPartitioner;

/**
 * Counter column families against a model of what they hold: random increments, decrements and deletions (of a
 * counter, a super column, a row), with flushes, major compactions and restarts between them, each restart
 * replaying the commit log over what the SSTables hold. Every read of every row must show the sum of the increments
 * applied since the last deletion that hides them: an increment counted twice or lost in a flush, a merge, a
 * compaction or a replay fails it.
 */
class CounterEngineTest {
    private static final String KS = "Counters";
    private static final String STD = "C";
    private static final String SUPER = "CSup";
    private static final Validators COUNTERS = new Validators(BytesType.instance, CounterColumnType.instance, Map.of());
    private static final KSMetaData SCHEMA = new KSMetaData(KS, 1, List.of(
            CFMetaData.standard(KS, STD, BytesType.instance).withValidators(COUNTERS),
            CFMetaData.ofSuper(KS, SUPER, BytesType.instance, BytesType.instance).withValidators(COUNTERS)));

    @TempDir
    Path dir;

    /** What the store must answer: per row, per "name" or "super/name", the count; deleted counters stay gone. */
    private final Map<String, Map<String, Long>> model = new TreeMap<>();
    /**
     * Counters deleted one by one: a deleted counter cannot be revived until a deletion of its row or super column
     * clears it (docs/semantics.md §Counters).
     */
    private final Map<String, Boolean> deletedCells = new TreeMap<>();
    private long clock = 1;

    @Test
    void sumsSurviveFlushesCompactionsAndReplays() throws Exception {
        long seed = Long.getLong("sibyl.seed", System.nanoTime());
        System.out.println("CounterEngineTest seed " + seed);
        Random random = new Random(seed);
        EngineFixture.Settings options = EngineFixture.options(dir, 64L << 20, 864000, 128);
        LocalStorageService db = open(options);
        try {
            for (int round = 0; round < 12; round++) {
                for (int i = 0; i < 300; i++) db.apply(randomMutation(random));
                assertEquals(expected(), actual(db), "seed " + seed + ", round " + round);
                switch (random.nextInt(5)) {
                    case 0 -> db.forceFlush(KS, random.nextBoolean() ? STD : SUPER);
                    case 1 -> {
                        db.forceFlush(KS);
                        db.forceMajorCompaction(KS);
                    }
                    case 2 -> {
                        // A crash after a compaction's output is durable and before its inputs are deleted: the
                        // inputs' files are put back before the restart. Loaded beside the output, their
                        // increments would count twice. Settled first to one SSTable per column family, so that
                        // the flush below leaves too few for a minor compaction and the major one's inputs are
                        // exactly the files kept. A minor compaction in between would delete its inputs before
                        // the major's output exists, and the directory sync that publishes that output makes the
                        // deletion durable: no crash brings those back (docs/semantics.md §Counters).
                        db.forceFlush(KS);
                        db.forceMajorCompaction(KS);
                        Map<Path, Path> kept = keepSSTableFiles();
                        for (int i = 0; i < 50; i++) db.apply(randomMutation(random));
                        db.forceFlush(KS);
                        db.forceMajorCompaction(KS);
                        db.close();
                        List<Path> putBack = new ArrayList<>();
                        for (Map.Entry<Path, Path> f : kept.entrySet()) {
                            if (Files.exists(f.getKey())) continue;
                            Files.createLink(f.getKey(), f.getValue());
                            putBack.add(f.getKey());
                        }
                        db = open(options);
                        for (Path f : putBack) assertFalse(Files.exists(f), f + " deleted again at start");
                    }
                    default -> {
                        // A restart: what is not flushed comes back from the log, once.
                        db.close();
                        db = open(options);
                        assertTrue(db.replaySummary().isPresent());
                    }
                }
                assertEquals(expected(), actual(db), "seed " + seed + ", after round " + round);
            }
        } finally {
            db.close();
        }
    }

    /** Hard links to every SSTable file of the keyspace, under {@code kept/}: each original path to its link. */
    private Map<Path, Path> keepSSTableFiles() throws IOException {
        Path kept = Files.createDirectories(dir.resolve("kept-" + clock));
        Map<Path, Path> links = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String name = f.getFileName().toString();
                String top = dir.relativize(f).getName(0).toString();
                if (top.startsWith("kept-") || top.equals("commitlog") || f.toString().contains("snapshots")
                        || !(name.startsWith(STD + "-") || name.startsWith(SUPER + "-"))) {
                    continue;
                }
                links.put(f, Files.createLink(kept.resolve(links.size() + "-" + name), f));
            }
        }
        return links;
    }

    private static LocalStorageService open(EngineFixture.Settings options) throws Exception {
        return LocalStorageService.open(new RandomPartitioner(), List.of(SCHEMA), options.log(), options.engine());
    }

    private RowMutation randomMutation(Random random) {
        String key = "k" + random.nextInt(12);
        RowMutation.Builder m = RowMutation.builder(KS, key).localDeletionTime((int) (System.currentTimeMillis() / 1000));
        int changes = 1 + random.nextInt(3);
        for (int i = 0; i < changes; i++) {
            String name = "c" + random.nextInt(6);
            String sc = "s" + random.nextInt(3);
            long delta = random.nextInt(2001) - 1000;
            long ts = clock++;
            int op = random.nextInt(40);
            if (op < 16) {
                m.add(STD, new Change.Increment(null, b(name), delta, ts));
                count(key, name, delta);
            } else if (op < 32) {
                m.add(SUPER, new Change.Increment(b(sc), b(name), delta, ts));
                count(key, sc + "/" + name, delta);
            } else if (op < 34) {
                m.deleteColumn(STD, b(name), ts);
                deleteCell(key, name);
            } else if (op < 36) {
                m.deleteSubcolumn(SUPER, b(sc), b(name), ts);
                deleteCell(key, sc + "/" + name);
            } else if (op < 38) {
                m.deleteSuperColumn(SUPER, b(sc), ts);
                row(key).keySet().removeIf(n -> n.startsWith(sc + "/"));
                deletedCells.keySet().removeIf(n -> n.startsWith(key + ":" + sc + "/"));
            } else {
                boolean isSuper = random.nextBoolean();
                m.deleteRow(isSuper ? SUPER : STD, ts);
                row(key).keySet().removeIf(n -> n.contains("/") == isSuper);
                deletedCells.keySet().removeIf(n -> n.startsWith(key + ":") && n.contains("/") == isSuper);
            }
        }
        return m.build();
    }

    private Map<String, Long> row(String key) {
        return model.computeIfAbsent(key, k -> new TreeMap<>());
    }

    private void count(String key, String name, long delta) {
        if (deletedCells.containsKey(key + ":" + name)) return; // a tombstone beats every later increment
        row(key).merge(name, delta, Long::sum);
    }

    private void deleteCell(String key, String name) {
        deletedCells.put(key + ":" + name, true);
        row(key).remove(name);
    }

    private String expected() {
        StringBuilder s = new StringBuilder();
        for (Map.Entry<String, Map<String, Long>> row : model.entrySet()) {
            if (row.getValue().isEmpty()) continue;
            s.append(row.getKey()).append(": ").append(row.getValue()).append('\n');
        }
        return s.toString();
    }

    /** Every row of both column families by range scan, and each by slice and by name, which must agree. */
    private static String actual(LocalStorageService db) {
        Map<String, Map<String, Long>> rows = new TreeMap<>();
        for (String cf : List.of(STD, SUPER)) {
            for (RowSlice row : db.getRangeSlice(KS, QueryPath.cf(cf), ColumnSelection.all(), new RowRange.Keys("", ""), 1000)) {
                Map<String, Long> counts = rows.computeIfAbsent(row.key(), k -> new TreeMap<>());
                for (Cell c : row.cells()) put(counts, c);
                Map<String, Long> bySlice = new TreeMap<>();
                for (Cell c : db.getSlice(KS, row.key(), QueryPath.cf(cf), ColumnSelection.all())) put(bySlice, c);
                Map<String, Long> ofThisCf = new TreeMap<>(counts);
                ofThisCf.keySet().removeIf(n -> n.contains("/") != cf.equals(SUPER));
                assertEquals(ofThisCf, bySlice, "a slice of " + row.key() + " in " + cf);
                if (cf.equals(STD)) {
                    for (Map.Entry<String, Long> c : bySlice.entrySet()) {
                        Column named = (Column) db.get(KS, row.key(), QueryPath.column(STD, b(c.getKey()))).orElseThrow();
                        assertEquals(c.getValue(), named.count(), "a read by name of " + row.key() + "/" + c.getKey());
                    }
                }
            }
        }
        StringBuilder s = new StringBuilder();
        for (Map.Entry<String, Map<String, Long>> row : rows.entrySet()) {
            if (!row.getValue().isEmpty()) s.append(row.getKey()).append(": ").append(row.getValue()).append('\n');
        }
        return s.toString();
    }

    private static void put(Map<String, Long> counts, Cell c) {
        if (c instanceof Column col) {
            counts.put(new String(col.name(), StandardCharsets.UTF_8), col.count());
            return;
        }
        SuperColumn sc = (SuperColumn) c;
        String prefix = new String(sc.name(), StandardCharsets.UTF_8) + "/";
        for (Column sub : sc.subcolumns()) counts.put(prefix + new String(sub.name(), StandardCharsets.UTF_8), sub.count());
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
