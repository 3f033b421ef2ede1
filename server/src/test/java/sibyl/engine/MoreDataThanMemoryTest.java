package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.engine.EngineFixture.KS;
import static sibyl.engine.EngineFixture.STD;
import static sibyl.engine.EngineFixture.b;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnSelection;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;

/**
 * Far more data than one memtable holds: many flushes, compaction keeping the SSTable count
 * bounded, and after a restart every row still there, by range scan and by point reads.
 */
class MoreDataThanMemoryTest {
    private static final int ROWS = 24_000;
    private static final int COLUMNS = 8;
    private static final int VALUE_BYTES = 256;

    @TempDir
    Path dir;

    @Test
    void sixtyMegabytesThroughTwoMegabyteMemtablesSurviveARestart() throws Exception {
        long seed = Long.getLong("sibyl.seed", System.nanoTime());
        System.out.println("MoreDataThanMemoryTest seed " + seed);
        EngineFixture.Settings options = EngineFixture.options(dir, 2L << 20, 864000, 4096);
        long started = System.nanoTime();
        try (LocalStorageService db = EngineFixture.open(options)) {
            for (int r = 0; r < ROWS; r++) {
                RowMutation.Builder m = RowMutation.builder(KS, key(r));
                for (int c = 0; c < COLUMNS; c++) m.write(STD, b("c" + c), value(r, c), 1);
                db.apply(m.build());
            }
            ColumnFamilyStore store = store(db);
            assertTrue(store.memtableSwitchCount() >= 20, "switches: " + store.memtableSwitchCount());
            waitForBackgroundWork(db);
            int sstables = store.liveSSTables().size();
            assertTrue(sstables <= 8, "compaction keeps the sstable count bounded: " + sstables);
            assertTrue(store.liveDiskSpaceUsed() > 40L << 20, "bytes on disk: " + store.liveDiskSpaceUsed());
            System.out.printf("wrote %d rows (%d MB) in %d ms; %d switches, %d sstables%n", ROWS,
                    store.liveDiskSpaceUsed() >> 20, (System.nanoTime() - started) / 1_000_000,
                    store.memtableSwitchCount(), sstables);
        }
        try (LocalStorageService db = EngineFixture.open(options)) {
            System.out.printf("restart with %d sstables took %d ms%n", db.sstablesAtStartUp(), db.startUpTime().toMillis());
            int seen = 0;
            String from = "";
            while (true) {
                List<RowSlice> page = db.getRangeSlice(KS, QueryPath.cf(STD), ColumnSelection.range(new byte[0], new byte[0], false, 100),
                        new RowRange.Keys(from, ""), 1000);
                for (RowSlice row : page) {
                    if (row.key().equals(from)) continue;
                    assertEquals(COLUMNS, row.cells().size(), row.key());
                    seen++;
                }
                if (page.size() < 1000) break;
                from = page.get(page.size() - 1).key();
            }
            assertEquals(ROWS, seen);
            Random random = new Random(seed);
            for (int i = 0; i < 2000; i++) {
                int r = random.nextInt(ROWS);
                int c = random.nextInt(COLUMNS);
                Cell cell = db.get(KS, key(r), QueryPath.column(STD, b("c" + c))).orElseThrow(() -> new AssertionError(key(r)));
                assertTrue(Arrays.equals(value(r, c), ((Column) cell).value()), key(r) + "/c" + c);
            }
            assertTrue(db.get(KS, "absent", QueryPath.column(STD, b("c0"))).isEmpty());
        }
    }

    /** Waits, by bounded polling, until no flush or compaction is queued or running. */
    private static void waitForBackgroundWork(LocalStorageService db) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (db.engine().orElseThrow().pendingTasks() > 0) {
            if (System.nanoTime() > deadline) throw new AssertionError("background work did not finish in 60 s");
            Thread.sleep(20);
        }
    }

    private static String key(int r) {
        return "row" + r;
    }

    private static byte[] value(int r, int c) {
        byte[] v = new byte[VALUE_BYTES];
        Arrays.fill(v, (byte) ('a' + (r + c) % 26));
        byte[] id = (r + ":" + c).getBytes(StandardCharsets.UTF_8);
        System.arraycopy(id, 0, v, 0, id.length);
        return v;
    }

    private static ColumnFamilyStore store(LocalStorageService db) {
        for (Keyspace ks : db.openKeyspaces()) if (ks.name().equals(KS)) return ks.store(STD);
        throw new AssertionError();
    }
}
