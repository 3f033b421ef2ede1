package sibyl.commitlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.CommitLogOpener;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnSelection;
import sibyl.db.KSMetaData;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.db.SuperColumn;
import sibyl.db.WriteFailedException;
import sibyl.db.marshal.BytesType;
import sibyl.dht.RandomPartitioner;
import sibyl.engine.EngineSettings;
import sibyl.engine.LocalStorageService;
import sibyl.testing.TestConf;

/** The storage service over a commit log: what it served before a restart, it serves after. */
class DurableStorageTest {
    private static final String KS = "Keyspace1";
    private static final String STD = "Standard1";
    private static final String SUPER = "Super1";
    private static final KSMetaData SCHEMA = new KSMetaData(KS, 1, List.of(
            CFMetaData.standard(KS, STD, BytesType.instance),
            CFMetaData.ofSuper(KS, SUPER, BytesType.instance, BytesType.instance)));
    private static final byte[] E = {};

    @TempDir
    Path dir;

    /** The commit log of the store last opened. */
    private CommitLogOpener commitLog;

    private LocalStorageService open(SyncMode mode) throws Exception {
        commitLog = new CommitLogOpener(new CommitLogSettings(dir.resolve("commitlog"), mode, 4096));
        return LocalStorageService.open(new RandomPartitioner(), List.of(SCHEMA), commitLog,
                EngineSettings.from(TestConf.builder(dir).build()));
    }

    @Test
    void aReopenedStoreServesWhatItServedBefore() throws Exception {
        long seed = Long.getLong("sibyl.seed", System.nanoTime());
        System.out.println("DurableStorageTest seed " + seed + " (-Dsibyl.seed=" + seed + " to repeat)");
        Random random = new Random(seed);
        String before;
        try (LocalStorageService db = open(LogFixture.PERIODIC)) {
            for (int i = 0; i < 2000; i++) db.apply(randomMutation(random));
            before = snapshot(db);
        }
        try (LocalStorageService db = open(LogFixture.BATCH)) {
            assertEquals(before, snapshot(db), "seed " + seed);
            assertTrue(db.replaySummary().orElseThrow().entries() > 0);
        }
    }

    @Test
    void tombstonesSurviveARestart() throws Exception {
        try (LocalStorageService db = open(LogFixture.BATCH)) {
            db.apply(RowMutation.builder(KS, "k").write(STD, b("a"), b("1"), 1).write(STD, b("b"), b("1"), 1)
                    .write(STD, b("c"), b("1"), 1).build());
            db.apply(RowMutation.builder(KS, "k")
                    .deleteSlice(STD, null, ColumnSelection.range(b("a"), b("b"), false, 10), 5).build());
            db.apply(RowMutation.builder(KS, "s").write(SUPER, b("sc"), b("x"), b("1"), 1).build());
            db.apply(RowMutation.builder(KS, "s").deleteSuperColumn(SUPER, b("sc"), 5).build());
            db.apply(RowMutation.builder(KS, "r").write(STD, b("a"), b("1"), 1).build());
            db.apply(RowMutation.builder(KS, "r").deleteRow(STD, 5).build());
        }
        try (LocalStorageService db = open(LogFixture.BATCH)) {
            // Writes older than the tombstones stay hidden: the tombstones came back too.
            db.apply(RowMutation.builder(KS, "k").write(STD, b("a"), b("2"), 4).build());
            db.apply(RowMutation.builder(KS, "s").write(SUPER, b("sc"), b("y"), b("2"), 4).build());
            db.apply(RowMutation.builder(KS, "r").write(STD, b("z"), b("2"), 4).build());
            assertEquals(List.of("c"), names(db.getSlice(KS, "k", QueryPath.cf(STD), ColumnSelection.all())));
            assertEquals(List.of(), db.getSlice(KS, "s", QueryPath.cf(SUPER), ColumnSelection.all()));
            assertEquals(List.of(), db.getSlice(KS, "r", QueryPath.cf(STD), ColumnSelection.all()));
        }
    }

    @Test
    void aFailedWriteIsNotAppliedAndReadsGoOn() throws Exception {
        try (LocalStorageService db = open(LogFixture.BATCH)) {
            db.apply(RowMutation.builder(KS, "k").write(STD, b("a"), b("1"), 1).build());
            commitLog.opened().orElseThrow().activeSegment().abandon();
            WriteFailedException e = assertThrows(WriteFailedException.class,
                    () -> db.apply(RowMutation.builder(KS, "k").write(STD, b("b"), b("1"), 1).build()));
            assertTrue(e.getMessage().startsWith("write failed"), e.getMessage());
            assertEquals(List.of("a"), names(db.getSlice(KS, "k", QueryPath.cf(STD), ColumnSelection.all())));
            db.apply(RowMutation.builder(KS, "k").write(STD, b("c"), b("1"), 1).build());
        }
        try (LocalStorageService db = open(LogFixture.BATCH)) {
            assertEquals(List.of("a", "c"), names(db.getSlice(KS, "k", QueryPath.cf(STD), ColumnSelection.all())));
        }
    }

    @Test
    void aSliceDeletionThatSelectsNothingIsNotLogged() throws Exception {
        try (LocalStorageService db = open(LogFixture.BATCH)) {
            long syncs = commitLog.opened().orElseThrow().syncCount();
            db.apply(RowMutation.builder(KS, "nothing").deleteSlice(STD, null, ColumnSelection.all(), 5).build());
            assertEquals(syncs, commitLog.opened().orElseThrow().syncCount());
        }
    }

    private static RowMutation randomMutation(Random random) {
        String key = "k" + random.nextInt(30);
        RowMutation.Builder m = RowMutation.builder(KS, key).localDeletionTime(1_700_000_000 + random.nextInt(1000));
        long ts = random.nextInt(1000);
        int changes = 1 + random.nextInt(4);
        for (int i = 0; i < changes; i++) {
            byte[] col = b("c" + random.nextInt(12));
            byte[] sc = b("s" + random.nextInt(4));
            switch (random.nextInt(10)) {
                case 0, 1, 2 -> m.write(STD, col, b("v" + random.nextInt(100)), ts);
                case 3, 4 -> m.write(SUPER, sc, col, b("v" + random.nextInt(100)), ts);
                case 5 -> m.deleteColumn(STD, col, ts);
                case 6 -> m.deleteSubcolumn(SUPER, sc, col, ts);
                case 7 -> m.deleteSuperColumn(SUPER, sc, ts);
                case 8 -> m.deleteSlice(random.nextBoolean() ? STD : SUPER, null,
                        ColumnSelection.range(E, E, random.nextBoolean(), 1 + random.nextInt(4)), ts);
                default -> m.deleteRow(random.nextBoolean() ? STD : SUPER, ts / 4);
            }
        }
        return m.build();
    }

    /** Every row of both column families as readers see it, ghosts included. */
    private static String snapshot(LocalStorageService db) {
        StringBuilder s = new StringBuilder();
        for (String cf : List.of(STD, SUPER)) {
            List<RowSlice> rows = db.getRangeSlice(KS, QueryPath.cf(cf), ColumnSelection.all(),
                    new RowRange.Keys("", ""), 1000);
            for (RowSlice row : rows) {
                s.append(cf).append('/').append(row.key()).append(": ");
                for (Cell c : row.cells()) s.append(describe(c)).append(' ');
                s.append('\n');
            }
        }
        return s.toString();
    }

    private static String describe(Cell c) {
        if (c instanceof Column col) return new String(col.name(), StandardCharsets.UTF_8) + "=" + col.timestamp();
        SuperColumn sc = (SuperColumn) c;
        List<String> subs = new ArrayList<>();
        for (Column sub : sc.subcolumns()) subs.add(describe(sub));
        return new String(sc.name(), StandardCharsets.UTF_8) + subs;
    }

    private static List<String> names(List<Cell> cells) {
        List<String> names = new ArrayList<>();
        for (Cell c : cells) names.add(new String(c.name(), StandardCharsets.UTF_8));
        return names;
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
