package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.engine.EngineFixture.KS;
import static sibyl.engine.EngineFixture.STD;
import static sibyl.engine.EngineFixture.SUPER;
import static sibyl.engine.EngineFixture.b;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CacheCapacity;
import sibyl.db.CacheConfig;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.ColumnSelection;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.db.SuperColumn;
import sibyl.dht.RandomPartitioner;

/**
 * Expiring columns in the engine (docs/semantics.md §Expiring columns), on a clock the test moves: every read
 * leaves a column out from its expiration on, whether it is in a memtable, an SSTable or the row cache; it keeps
 * its ttl and expiration through the commit log, flushes and restarts; compaction turns it into a tombstone once
 * expired and drops that after the grace period.
 */
class ExpiringColumnTest {
    private static final int GRACE = 1000;

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.ofEpochSecond(1_800_000_000L));

    @Test
    void everyReadLeavesAnExpiredColumnOutWhereverItIs() throws Exception {
        CacheConfig rowCache = CacheConfig.sized(CacheCapacity.entries(0), CacheCapacity.entries(16));
        EngineFixture.Settings options = EngineFixture.options(dir, 64L << 20, GRACE, 1024);
        try (LocalStorageService db = LocalStorageService.open(new RandomPartitioner(),
                EngineFixture.schema(cf -> cf.withCaches(rowCache)), options.log(),
                options.engine().toBuilder().clock(clock).build())) {
            writeExpiringAndLasting(db, "mem");
            writeExpiringAndLasting(db, "disk");
            db.forceFlush(KS);
            for (String key : List.of("mem", "disk")) assertSeenBeforeExpiry(db, key); // fills the row cache too
            clock.advance(Duration.ofSeconds(99));
            for (String key : List.of("mem", "disk")) assertSeenBeforeExpiry(db, key);
            clock.advance(Duration.ofSeconds(1));
            for (String key : List.of("mem", "disk")) assertSeenAfterExpiry(db, key);
        }
    }

    @Test
    void aColumnKeepsItsTtlThroughTheCommitLogFlushesAndRestartsAndCompactionTurnsItIntoATombstoneOnceExpired()
            throws Exception {
        EngineFixture.Settings options = EngineFixture.options(dir, 64L << 20, GRACE, 1024);
        int writtenAt = clock.seconds();
        try (LocalStorageService db = EngineFixture.open(options, clock)) {
            writeExpiringAndLasting(db, "k");
        }
        try (LocalStorageService db = EngineFixture.open(options, clock)) { // replayed from the commit log
            assertSeenBeforeExpiry(db, "k");
            db.forceFlush(KS);
        }
        try (LocalStorageService db = EngineFixture.open(options, clock)) { // read from the SSTable
            assertSeenBeforeExpiry(db, "k");
            db.forceMajorCompaction(KS);
            assertSeenBeforeExpiry(db, "k");
            assertEquals(Column.expiring(b("e"), b("v"), 5, 100, writtenAt + 100), stored(db, "k").cell(b("e")),
                    "compacted before expiry it stays an expiring column");
            clock.advance(Duration.ofSeconds(100));
            db.forceMajorCompaction(KS);
            assertSeenAfterExpiry(db, "k");
            assertEquals(Column.tombstone(b("e"), 5, writtenAt), stored(db, "k").cell(b("e")),
                    "compacted once expired it is a tombstone at its timestamp, dated when it was written");
            clock.advance(Duration.ofSeconds(GRACE + 1));
            db.forceMajorCompaction(KS);
            assertSeenAfterExpiry(db, "k");
            assertEquals(null, stored(db, "k").cell(b("e")), "after the grace period the tombstone goes");
        }
        try (LocalStorageService db = EngineFixture.open(options, clock)) {
            assertSeenAfterExpiry(db, "k");
        }
    }

    @Test
    void aSubcolumnExpiresAndTakesItsSuperColumnWithItWhenItWasTheLast() throws Exception {
        EngineFixture.Settings options = EngineFixture.options(dir, 64L << 20, GRACE, 1024);
        try (LocalStorageService db = EngineFixture.open(options, clock)) {
            db.apply(RowMutation.builder(KS, "s").localDeletionTime(clock.seconds())
                    .write(SUPER, b("sc1"), b("a"), b("v"), 1, 10)
                    .write(SUPER, b("sc2"), b("a"), b("v"), 1, 10).write(SUPER, b("sc2"), b("b"), b("v"), 1).build());
            assertEquals(List.of("sc1", "sc2"), names(db.getSlice(KS, "s", QueryPath.cf(SUPER), ColumnSelection.all())));
            assertEquals(2, db.getCount(KS, "s", QueryPath.superColumn(SUPER, b("sc2"))));
            clock.advance(Duration.ofSeconds(10));
            List<Cell> left = db.getSlice(KS, "s", QueryPath.cf(SUPER), ColumnSelection.all());
            assertEquals(List.of("sc2"), names(left));
            List<Column> subcolumns = new ArrayList<>();
            ((SuperColumn) left.get(0)).subcolumns().forEach(subcolumns::add);
            assertEquals(List.of("b"), names(subcolumns));
            assertEquals(1, db.getCount(KS, "s", QueryPath.superColumn(SUPER, b("sc2"))));
            assertFalse(db.get(KS, "s", QueryPath.superColumn(SUPER, b("sc1"))).isPresent());
        }
    }

    @Test
    void aCountedSliceCountsOnlyColumnsThatHaveNotExpired() throws Exception {
        EngineFixture.Settings options = EngineFixture.options(dir, 64L << 20, GRACE, 64);
        try (LocalStorageService db = EngineFixture.open(options, clock)) {
            RowMutation.Builder m = RowMutation.builder(KS, "wide").localDeletionTime(clock.seconds());
            for (int i = 0; i < 20; i++) {
                if (i % 2 == 0) m.write(STD, b(String.format("c%02d", i)), b("value-" + i), 1, 5);
                else m.write(STD, b(String.format("c%02d", i)), b("value-" + i), 1);
            }
            db.apply(m.build());
            db.forceFlush(KS);
            clock.advance(Duration.ofSeconds(5));
            assertEquals(List.of("c01", "c03", "c05"), names(db.getSlice(KS, "wide", QueryPath.cf(STD),
                    ColumnSelection.range(new byte[0], new byte[0], false, 3))));
            assertEquals(List.of("c19", "c17"), names(db.getSlice(KS, "wide", QueryPath.cf(STD),
                    ColumnSelection.range(new byte[0], new byte[0], true, 2))));
            assertEquals(10, db.getCount(KS, "wide", QueryPath.cf(STD)));
        }
    }

    /** Column e expires 100 s after now (ttl 100); column l does not expire. Both at timestamp 5. */
    private void writeExpiringAndLasting(LocalStorageService db, String key) {
        db.apply(RowMutation.builder(KS, key).localDeletionTime(clock.seconds())
                .write(STD, b("e"), b("v"), 5, 100).write(STD, b("l"), b("v"), 5).build());
    }

    private static void assertSeenBeforeExpiry(LocalStorageService db, String key) {
        List<Cell> row = db.getSlice(KS, key, QueryPath.cf(STD), ColumnSelection.all());
        assertEquals(List.of("e", "l"), names(row), key);
        assertEquals(100, ((Column) row.get(0)).ttl(), key);
        assertEquals(Column.NO_TTL, ((Column) row.get(1)).ttl(), key);
        assertEquals(2, db.getCount(KS, key, QueryPath.cf(STD)), key);
        assertTrue(db.get(KS, key, QueryPath.column(STD, b("e"))).isPresent(), key);
        assertEquals(List.of("e"), names(db.getSlice(KS, key, QueryPath.cf(STD), ColumnSelection.names(b("e")))), key);
    }

    private static void assertSeenAfterExpiry(LocalStorageService db, String key) {
        assertEquals(List.of("l"), names(db.getSlice(KS, key, QueryPath.cf(STD), ColumnSelection.all())), key);
        assertEquals(1, db.getCount(KS, key, QueryPath.cf(STD)), key);
        assertFalse(db.get(KS, key, QueryPath.column(STD, b("e"))).isPresent(), key);
        assertEquals(List.of(), names(db.getSlice(KS, key, QueryPath.cf(STD), ColumnSelection.names(b("e")))), key);
        for (RowSlice row : db.getRangeSlice(KS, QueryPath.cf(STD), ColumnSelection.all(), new RowRange.Keys("", ""), 100)) {
            if (row.key().equals(key)) assertEquals(List.of("l"), names(row.cells()), key);
        }
    }

    /** The row as stored, tombstones and all. */
    private static ColumnFamily stored(LocalStorageService db, String key) {
        return EngineFixture.store(db, STD).getRow(db.partitioner().decorateKey(key));
    }

    private static List<String> names(List<? extends Cell> cells) {
        List<String> names = new ArrayList<>();
        for (Cell c : cells) names.add(new String(c.name(), StandardCharsets.UTF_8));
        return names;
    }
}
