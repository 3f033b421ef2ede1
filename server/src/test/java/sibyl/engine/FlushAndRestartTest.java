package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.engine.EngineFixture.KS;
import static sibyl.engine.EngineFixture.STD;
import static sibyl.engine.EngineFixture.SUPER;

import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Memtables flushed into SSTables read back as they were, and a restart serves both. */
class FlushAndRestartTest {
    @TempDir
    Path dir;

    @Test
    void aFlushedStoreReadsAsBefore() throws Exception {
        long seed = Long.getLong("sibyl.seed", System.nanoTime());
        System.out.println("FlushAndRestartTest seed " + seed);
        Random random = new Random(seed);
        EngineFixture.Settings options = EngineFixture.options(dir, 64L << 20, 864000, 256);
        try (LocalStorageService db = EngineFixture.open(options)) {
            for (int i = 0; i < 3000; i++) db.apply(EngineFixture.randomMutation(random, 60));
            String before = EngineFixture.snapshot(db);
            db.forceFlush(KS);
            assertEquals(0, EngineFixture.store(db, STD).memtable().operationCount());
            assertEquals(1, EngineFixture.store(db, STD).liveSSTables().size());
            assertEquals(1, EngineFixture.store(db, SUPER).liveSSTables().size());
            assertEquals(before, EngineFixture.snapshot(db), "seed " + seed);
            // Newer writes in the memtable over older ones in SSTables, several SSTables deep.
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 500; i++) db.apply(EngineFixture.randomMutation(random, 60));
                String mixed = EngineFixture.snapshot(db);
                db.forceFlush(KS, STD, SUPER);
                assertEquals(mixed, EngineFixture.snapshot(db), "seed " + seed + " round " + round);
            }
        }
    }

    @Test
    void aRestartServesFlushedAndUnflushedWritesAndFlushedSegmentsAreDeleted() throws Exception {
        long seed = Long.getLong("sibyl.seed", System.nanoTime());
        System.out.println("FlushAndRestartTest seed " + seed);
        Random random = new Random(seed);
        EngineFixture.Settings options = EngineFixture.options(dir, 64L << 20, 864000, 256);
        String before;
        int segmentsBeforeFlush;
        try (LocalStorageService db = EngineFixture.open(options)) {
            for (int i = 0; i < 4000; i++) db.apply(EngineFixture.randomMutation(random, 80));
            segmentsBeforeFlush = options.log().opened().orElseThrow().segmentFiles().size();
            assertTrue(segmentsBeforeFlush > 2, "the writes spread over several segments: " + segmentsBeforeFlush);
            db.forceFlush(KS);
            assertEquals(1, options.log().opened().orElseThrow().segmentFiles().size(),
                    "only the active segment outlives a flush of everything");
            for (int i = 0; i < 500; i++) db.apply(EngineFixture.randomMutation(random, 80));
            db.forceFlush(KS, STD);
            for (int i = 0; i < 500; i++) db.apply(EngineFixture.randomMutation(random, 80));
            before = EngineFixture.snapshot(db);
        }
        try (LocalStorageService db = EngineFixture.open(options)) {
            assertEquals(before, EngineFixture.snapshot(db), "seed " + seed);
            assertEquals(3, db.sstablesAtStartUp());
            // The segments of the first 4,000 writes were deleted but the one active at the flush.
            assertTrue(db.replaySummary().orElseThrow().entries() < 2500,
                    "replayed " + db.replaySummary().orElseThrow().entries());
        }
        try (LocalStorageService db = EngineFixture.open(options)) {
            assertEquals(before, EngineFixture.snapshot(db), "seed " + seed + ", second restart");
        }
    }
}
