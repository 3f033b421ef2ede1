package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.engine.EngineFixture.KS;
import static sibyl.engine.EngineFixture.STD;
import static sibyl.engine.EngineFixture.b;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnSelection;
import sibyl.db.CompareAndSet;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.service.Consistency;
import sibyl.service.SerialConsistency;

/**
 * The engine's compare-and-set (docs/thrift-api-0.7.md §cas): judged on the row as every source holds it (memtable,
 * SSTables, tombstones), written at timestamps that only grow though the clock stands still, and logged like any
 * write, so a restart replays it.
 */
class CompareAndSetTest {
    private static final QueryPath ROW = new QueryPath(STD, null, null);

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.ofEpochSecond(1_800_000_000L));

    @Test
    void casJudgesTheWholeRowAndWritesAtGrowingTimestampsThatSurviveARestart() throws Exception {
        EngineFixture.Settings options = EngineFixture.options(dir, 64L << 20, 1000, 1024);
        CFMetaData cf = EngineFixture.SCHEMA.columnFamily(STD).orElseThrow();
        long first;
        try (LocalStorageService db = EngineFixture.open(options, clock)) {
            db.apply(RowMutation.builder(KS, "k").write(STD, b("a"), b("old"), 5).build());
            db.forceFlush(KS);
            db.apply(RowMutation.builder(KS, "k").deleteColumn(STD, b("a"), 6).build()); // in the memtable
            assertTrue(cas(db, cf, List.of(), List.of(Column.live(b("a"), b("1"), 1))).applied(),
                    "a row of a deleted column has no live column");
            first = only(db).timestamp();
            assertEquals(clock.instant().getEpochSecond() * 1_000_000, first, "the clock's microsecond");

            CompareAndSet.Outcome stale = cas(db, cf, List.of(new CompareAndSet.Expected(b("a"), b("old"), 0)), List.of());
            assertFalse(stale.applied());
            assertArrayEquals(b("1"), stale.current().get(0).value());

            // The clock stands still: the next cas still writes later than the one before.
            assertTrue(cas(db, cf, List.of(new CompareAndSet.Expected(b("a"), b("1"), 0)),
                    List.of(Column.live(b("a"), b("2"), 1))).applied());
            assertEquals(first + 1, only(db).timestamp());
        }
        try (LocalStorageService db = EngineFixture.open(options, clock)) { // replayed from the commit log
            Column a = only(db);
            assertArrayEquals(b("2"), a.value());
            assertEquals(first + 1, a.timestamp());
        }
    }

    private static CompareAndSet.Outcome cas(LocalStorageService db, CFMetaData cf, List<CompareAndSet.Expected> expected,
                                             List<Column> updates) {
        return db.compareAndSet(CompareAndSet.of(cf, "k", expected, updates, 1_800_000_000), SerialConsistency.SERIAL,
                Consistency.QUORUM).join();
    }

    private static Column only(LocalStorageService db) {
        List<Cell> row = db.getSlice(KS, "k", ROW, ColumnSelection.all());
        assertEquals(1, row.size(), row.toString());
        return (Column) row.get(0);
    }
}
