package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.engine.EngineFixture.KS;
import static sibyl.engine.EngineFixture.STD;
import static sibyl.engine.EngineFixture.b;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.Cell;
import sibyl.db.ColumnSelection;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;

/**
 * Deleted data stays deleted through flushes, compactions and restarts; once GCGraceSeconds have
 * passed (on an injected clock, no sleeping), a major compaction drops the tombstones too.
 */
class TombstoneGcTest {
    @TempDir
    Path dir;

    @Test
    void deletedDataStaysDeletedAndExpiredTombstonesGoInAMajorCompaction() throws Exception {
        ManualClock clock = new ManualClock(Instant.ofEpochSecond(1_800_000_000L));
        int deletedAt = (int) clock.instant().getEpochSecond();
        EngineFixture.Settings options = EngineFixture.options(dir, 64L << 20, 1, 1024);
        try (LocalStorageService db = EngineFixture.open(options, clock)) {
            for (int k = 0; k < 200; k++) {
                RowMutation.Builder m = RowMutation.builder(KS, "k" + k);
                for (int c = 0; c < 10; c++) m.write(STD, b("c" + c), b("value-" + k + "-" + c), 1);
                db.apply(m.build());
            }
            db.forceFlush(KS);
            // Delete half the rows whole, and column c0 of the others; in a second SSTable.
            for (int k = 0; k < 200; k++) {
                RowMutation.Builder m = RowMutation.builder(KS, "k" + k).localDeletionTime(deletedAt);
                if (k % 2 == 0) m.deleteRow(STD, 2);
                else m.deleteColumn(STD, b("c0"), 2);
                db.apply(m.build());
            }
            assertDeleted(db);
            db.forceFlush(KS);
            assertDeleted(db);
            db.forceMajorCompaction(KS);
            assertDeleted(db);
            assertEquals(200, rows(db).size(), "within the grace period deleted rows remain as tombstones (range ghosts)");
        }
        long spaceWithTombstones;
        try (LocalStorageService db = EngineFixture.open(options, clock)) {
            assertDeleted(db);
            spaceWithTombstones = store(db).liveDiskSpaceUsed();
            clock.advance(Duration.ofSeconds(2));
            db.forceMajorCompaction(KS);
            assertDeleted(db);
            assertEquals(100, rows(db).size(), "rows that were only a tombstone are gone");
            assertEquals(1, store(db).liveSSTables().size());
            assertTrue(store(db).liveDiskSpaceUsed() < spaceWithTombstones,
                    store(db).liveDiskSpaceUsed() + " bytes after purging, " + spaceWithTombstones + " before");
            // An older write does not come back to life where the tombstone was: it never existed after it.
        }
        try (LocalStorageService db = EngineFixture.open(options, clock)) {
            assertDeleted(db);
            assertEquals(100, rows(db).size());
        }
    }

    private static void assertDeleted(LocalStorageService db) {
        for (int k = 0; k < 200; k++) {
            List<String> names = names(db.getSlice(KS, "k" + k, QueryPath.cf(STD), ColumnSelection.all()));
            if (k % 2 == 0) assertEquals(List.of(), names, "k" + k);
            else assertEquals(List.of("c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"), names, "k" + k);
        }
    }

    private static List<RowSlice> rows(LocalStorageService db) {
        return db.getRangeSlice(KS, QueryPath.cf(STD), ColumnSelection.all(), new RowRange.Keys("", ""), 10_000);
    }

    private static ColumnFamilyStore store(LocalStorageService db) {
        for (Keyspace ks : db.openKeyspaces()) if (ks.name().equals(KS)) return ks.store(STD);
        throw new AssertionError();
    }

    private static List<String> names(List<Cell> cells) {
        List<String> names = new ArrayList<>();
        for (Cell c : cells) names.add(new String(c.name(), StandardCharsets.UTF_8));
        return names;
    }
}
