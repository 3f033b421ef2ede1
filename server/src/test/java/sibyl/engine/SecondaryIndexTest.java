package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static sibyl.engine.EngineFixture.KS;
import static sibyl.engine.EngineFixture.STD;
import static sibyl.engine.EngineFixture.b;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.ColumnIndexes;
import sibyl.db.ColumnSelection;
import sibyl.db.IndexQuery;
import sibyl.db.LogPosition;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.dht.RandomPartitioner;
import sibyl.io.Descriptor;
import sibyl.io.SSTableWriter;
import sibyl.service.Consistency;

/**
 * KEYS indexes in the engine (docs/thrift-api-0.7.md §Secondary indexes): after random writes, deletions of
 * columns, rows and slices, and columns whose ttl runs out, an indexed read answers exactly the rows a scan of the
 * whole column family finds with the value, in ring order, with the memtable, after a flush, after a compaction and
 * after a restart that replays the commit log (the index is rebuilt from the rows, so it agrees with them).
 */
class SecondaryIndexTest {
    private static final byte[] INDEXED = b("c");
    private static final ColumnSelection ALL = ColumnSelection.range(new byte[0], new byte[0], false, 100);

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.ofEpochSecond(1_800_000_000L));

    private LocalStorageService open() throws Exception {
        EngineFixture.Settings options = EngineFixture.options(dir, 64L << 20, 1000, 1024);
        ColumnIndexes indexes = new ColumnIndexes(Map.of(ByteBuffer.wrap(INDEXED), "Standard1_c_idx"));
        return LocalStorageService.open(new RandomPartitioner(),
                EngineFixture.schema(cf -> cf.isSuper() ? cf : cf.withIndexes(indexes)), options.log(),
                options.engine().toBuilder().clock(clock).build());
    }

    @Test
    void anIndexedReadFindsWhatAScanFindsThroughFlushesCompactionsAndRestarts() throws Exception {
        long seed = new Random().nextLong();
        System.out.println("SecondaryIndexTest seed " + seed);
        Random random = new Random(seed);
        try (LocalStorageService db = open()) {
            agree(db, "empty");
            write(db, random, 300);
            agree(db, "in the memtable, seed " + seed);
            clock.advance(Duration.ofSeconds(11));
            agree(db, "after the ttls ran out, seed " + seed);
            db.forceFlush(KS);
            write(db, random, 300);
            agree(db, "flushed and in the memtable, seed " + seed);
        }
        try (LocalStorageService db = open()) {
            agree(db, "after a restart that replayed the log, seed " + seed);
            write(db, random, 200);
            db.forceFlush(KS);
            db.forceMajorCompaction(KS);
            agree(db, "after a compaction, seed " + seed);
            db.truncate(KS, STD).join();
            agree(db, "after a truncate");
            write(db, random, 100);
            agree(db, "written after a truncate, seed " + seed);
            // What json2sstable and nodetool refresh do: rows the index never saw written, loaded while it runs.
            ColumnFamilyStore store = EngineFixture.store(db, STD);
            db.forceFlush(KS);
            int next = store.liveSSTables().stream().mapToInt(r -> r.descriptor().generation()).max().orElseThrow() + 1;
            ColumnFamily row = ColumnFamily.builder(store.metadata(), 1).add(Column.live(INDEXED, b("v1"), 5)).build();
            RandomPartitioner partitioner = new RandomPartitioner();
            try (SSTableWriter writer = SSTableWriter.create(new Descriptor(dir.resolve("data").resolve(KS), STD, next),
                    store.metadata(), partitioner, 1024, 1)) {
                writer.append(partitioner.decorateKey("loaded"), row);
                writer.finish(LogPosition.NONE);
            }
            assertEquals(1, db.loadNewSSTables(KS, STD));
            agree(db, "after SSTables were loaded while it ran, seed " + seed);
        }
    }

    private void write(LocalStorageService db, Random random, int mutations) {
        for (int i = 0; i < mutations; i++) {
            RowMutation.Builder m = RowMutation.builder(KS, "k" + random.nextInt(40)).localDeletionTime(clock.seconds());
            long ts = random.nextInt(1000);
            byte[] value = b("v" + random.nextInt(4));
            switch (random.nextInt(10)) {
                case 0, 1, 2, 3 -> m.write(STD, INDEXED, value, ts);
                case 4 -> m.write(STD, INDEXED, value, ts, 10);
                case 5 -> m.write(STD, b("other"), value, ts);
                case 6 -> m.deleteColumn(STD, INDEXED, ts);
                case 7 -> m.deleteRow(STD, ts);
                case 8 -> m.deleteSlice(STD, null, ColumnSelection.range(b("a"), b("d"), false, 10), ts);
                default -> {
                    m.write(STD, INDEXED, value, ts);
                    m.deleteColumn(STD, b("other"), ts);
                }
            }
            db.write(m.build(), Consistency.ONE).join();
        }
    }

    /** For each value, the indexed read against a filtered scan, whole and in pages of 3 from a start key. */
    private static void agree(LocalStorageService db, String when) {
        QueryPath parent = QueryPath.cf(STD);
        List<RowSlice> scan = db.scan(KS, parent, ALL, RowRange.keys("", ""), 10_000, Consistency.ONE).join();
        for (int v = 0; v < 4; v++) {
            byte[] value = b("v" + v);
            List<RowSlice> expected = new ArrayList<>();
            for (RowSlice row : scan) {
                for (Cell cell : row.cells()) {
                    if (cell instanceof Column c && Arrays.equals(c.name(), INDEXED) && Arrays.equals(c.value(), value)) {
                        expected.add(row);
                    }
                }
            }
            IndexQuery query = new IndexQuery(List.of(new IndexQuery.Expression(INDEXED, IndexQuery.Operator.EQ, value)));
            List<RowSlice> found = db.indexedScan(KS, parent, ALL, query, RowRange.keys("", ""), 10_000, Consistency.ONE)
                    .join();
            assertEquals(expected.toString(), found.toString(), "v" + v + " " + when);
            List<RowSlice> paged = new ArrayList<>();
            String start = "";
            while (true) {
                List<RowSlice> page = db.indexedScan(KS, parent, ALL, query, RowRange.keys(start, ""), 3, Consistency.ONE)
                        .join();
                for (RowSlice row : page) if (paged.isEmpty() || !paged.get(paged.size() - 1).key().equals(row.key())) paged.add(row);
                if (page.size() < 3) break;
                start = page.get(page.size() - 1).key();
            }
            assertEquals(expected.toString(), paged.toString(), "v" + v + " in pages, " + when);
        }
    }
}
