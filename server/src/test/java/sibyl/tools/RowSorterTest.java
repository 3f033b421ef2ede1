package sibyl.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CFMetaData;
import sibyl.db.ColumnFamily;
import sibyl.dht.DecoratedKey;
import sibyl.dht.RandomPartitioner;
import sibyl.io.Descriptor;
import sibyl.io.SSTableReader;
import sibyl.io.SSTableWriter;

/** Rows in any order, duplicates among them, come out as one SSTable in ring order whatever the memory budget. */
class RowSorterTest {
    private static final RandomPartitioner PARTITIONER = new RandomPartitioner();

    @TempDir
    Path dir;

    @Test
    void manyRunsMergeInSeveralRoundsIntoRingOrderReconcilingDuplicates() throws Exception {
        // A budget of a few rows: more runs than one merge reads, so runs are merged into runs first.
        TreeMap<DecoratedKey, ColumnFamily> rows = sortAndCheck(JsonRowsTest.STD, 1200, 400, 10_000);
        assertTrue(rows.size() < 3000, "some keys came more than once: " + rows.size());
        sortAndCheck(JsonRowsTest.SUPER, 400, 400, 10_000);
    }

    @Test
    void whatFitsTheBudgetIsWrittenWithoutRuns() throws Exception {
        sortAndCheck(JsonRowsTest.STD, 500, 100_000, 1L << 30);
    }

    @Test
    void nothingAddedIsRefusedAndCloseRemovesRunsLeft() throws Exception {
        Path work = Files.createDirectories(dir.resolve("work"));
        try (RowSorter sorter = new RowSorter(JsonRowsTest.STD, PARTITIONER, work, 1, 1024, 4)) {
            assertThrows(IllegalStateException.class, () -> sorter.finishInto(rows -> {
                throw new AssertionError("no output for no rows");
            }));
            Random random = new Random(1);
            for (int i = 0; i < 5; i++) sorter.add(PARTITIONER.decorateKey("k" + i), JsonRowsTest.randomRow(random, JsonRowsTest.STD));
            assertEquals(5, sorter.runsWritten(), "a budget of one byte spills every row");
        }
        assertEquals(List.of(), files(work), "close deleted the runs");
    }

    /**
     * Adds {@code rows} random rows of keys drawn from {@code keys}, in the order drawn, sorts them
     * with {@code budget} bytes, and checks the output against the same rows merged in memory.
     */
    private TreeMap<DecoratedKey, ColumnFamily> sortAndCheck(CFMetaData cf, int rows, int keys, long budget)
            throws Exception {
        long seed = System.nanoTime();
        System.out.println("RowSorterTest seed " + seed);
        Random random = new Random(seed);
        Path work = Files.createDirectories(dir.resolve("work-" + seed));
        Path out = Files.createDirectories(dir.resolve("out-" + seed));
        TreeMap<DecoratedKey, ColumnFamily> expected = new TreeMap<>();
        Descriptor written;
        int runs;
        try (RowSorter sorter = new RowSorter(cf, PARTITIONER, work, budget, 1024, 4)) {
            for (int i = 0; i < rows; i++) {
                DecoratedKey key = PARTITIONER.decorateKey("key" + random.nextInt(keys));
                ColumnFamily row = JsonRowsTest.randomRow(random, cf);
                expected.merge(key, row, ColumnFamily::merge);
                sorter.add(key, row);
            }
            assertEquals(rows, sorter.rowsAdded());
            written = sorter.finishInto(expectedRows -> {
                assertTrue(expectedRows >= expected.size(), "the output is sized for every row: " + expectedRows);
                return SSTableWriter.create(new Descriptor(out, cf.name(), 1), cf, PARTITIONER, 1024, 4, expectedRows);
            });
            runs = sorter.runsWritten();
        }
        if (budget > 1 << 20) {
            assertEquals(0, runs, "everything fit the budget");
        } else {
            assertTrue(runs > RowSorter.FAN_IN + 1, "more runs than one merge takes, so some were merged into runs: " + runs);
        }
        assertEquals(List.of(), files(work), "no run left behind");
        SSTableReader reader = SSTableReader.open(written, cf, PARTITIONER, 4);
        try {
            Iterator<Map.Entry<DecoratedKey, ColumnFamily>> actual =
                    reader.rowsFrom(DecoratedKey.startOf(PARTITIONER.getMinimumToken()));
            for (Map.Entry<DecoratedKey, ColumnFamily> e : expected.entrySet()) {
                assertTrue(actual.hasNext(), "seed " + seed + ": row " + e.getKey() + " missing");
                Map.Entry<DecoratedKey, ColumnFamily> a = actual.next();
                assertEquals(e.getKey(), a.getKey(), "seed " + seed);
                JsonRowsTest.assertSameRow(e.getValue(), a.getValue(), "seed " + seed + ", key " + e.getKey());
            }
            assertTrue(!actual.hasNext(), "seed " + seed + ": no extra rows");
        } finally {
            reader.release();
        }
        return expected;
    }

    private static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }
}
