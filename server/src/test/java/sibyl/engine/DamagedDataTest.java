package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.engine.EngineFixture.KS;
import static sibyl.engine.EngineFixture.STD;
import static sibyl.engine.EngineFixture.b;

import ch.qos.logback.classic.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnSelection;
import sibyl.db.DamagedDataException;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.dht.RandomPartitioner;
import sibyl.testing.DataFileDamage;
import sibyl.testing.LogCapture;

/**
 * Reads that meet a damaged block fail with an error naming the column family and pointing at
 * scrub, each damaged block logged once however often it is read; reads of other rows, and range
 * scans that end before the damage, go on. Scrub then rewrites the column family without exactly
 * the damaged rows, keeps the originals in a snapshot, and everything else reads back, also after
 * a restart.
 */
class DamagedDataTest {
    private static final int ROWS = 300;

    @TempDir
    Path dir;

    private static String key(int i) {
        return String.format("row%04d", i);
    }

    private static byte[] value(String key, int column) {
        return b(key + "/c" + column + "/" + "x".repeat(40));
    }

    /** Every row of Standard1, by range scan: key to its columns' values. */
    private static List<String> scan(LocalStorageService db, int count) {
        List<String> rows = new ArrayList<>();
        for (RowSlice row : db.getRangeSlice(KS, QueryPath.cf(STD), ColumnSelection.all(), new RowRange.Keys("", ""),
                count)) {
            rows.add(row.key() + "=" + row.cells().size());
        }
        return rows;
    }

    private static void assertWhole(LocalStorageService db, String key) {
        List<Cell> cells = db.getSlice(KS, key, QueryPath.cf(STD), ColumnSelection.all());
        assertEquals(3, cells.size(), key);
        for (int c = 0; c < 3; c++) assertArrayEquals(value(key, c), ((Column) cells.get(c)).value(), key);
    }

    @Test
    void damagedRowsFailTheirReadsOnlyAndScrubDropsExactlyThem() throws Exception {
        EngineFixture.Settings options = EngineFixture.options(dir, 64L << 20, 864000, 64 << 10);
        Set<String> damaged = new TreeSet<>();
        List<String> ringOrder = new ArrayList<>();
        Path dataFile;
        byte[] damagedBytes;
        try (LogCapture log = new LogCapture(DamageReports.class);
             LocalStorageService db = EngineFixture.open(options)) {
            for (int i = 0; i < ROWS; i++) {
                RowMutation.Builder m = RowMutation.builder(KS, key(i));
                for (int c = 0; c < 3; c++) m.write(STD, b("c" + c), value(key(i), c), 1);
                db.apply(m.build());
            }
            db.forceFlush(KS, STD);
            ColumnFamilyStore store = EngineFixture.store(db, STD);
            assertEquals(1, store.liveSSTables().size());
            dataFile = store.liveSSTables().get(0).descriptor().path(sibyl.io.Component.DATA);
            List<DataFileDamage.Row> rows = DataFileDamage.rows(store.liveSSTables().get(0).descriptor()
                    .path(sibyl.io.Component.INDEX));
            assertEquals(ROWS, rows.size());
            for (DataFileDamage.Row row : rows) ringOrder.add(row.key());
            // Three rows, each one block, damaged in its middle; the first of them is the 100th in ring order.
            for (int i : new int[] {100, 150, 151}) {
                DataFileDamage.flip(dataFile, rows.get(i).middle());
                damaged.add(rows.get(i).key());
            }
            damagedBytes = Files.readAllBytes(dataFile);
            // Another source, so range scans merge the memtable with the SSTable.
            db.apply(RowMutation.builder(KS, "in-memory").write(STD, b("c0"), b("v"), 1).build());

            for (int round = 0; round < 3; round++) {
                for (String key : damaged) {
                    DamagedDataException e = assertThrows(DamagedDataException.class,
                            () -> db.getSlice(KS, key, QueryPath.cf(STD), ColumnSelection.all()));
                    assertEquals("a data file of Keyspace1.Standard1 is damaged (" + dataFile.getFileName()
                            + " at offset " + e.getMessage().replaceAll(".* at offset (\\d+):.*", "$1")
                            + ": data block checksum mismatch); the rows stored there cannot be read until an operator"
                            + " runs nodetool scrub Keyspace1 Standard1", e.getMessage());
                    assertThrows(DamagedDataException.class, () -> db.get(KS, key, QueryPath.column(STD, b("c1"))));
                }
            }
            for (String key : ringOrder) if (!damaged.contains(key)) assertWhole(db, key);
            assertThrows(DamagedDataException.class, () -> scan(db, ROWS + 1), "a scan over a damaged row");
            // The 100 rows before the first damaged one (and the memtable's row when it lies among them): the
            // scan ends right before the damage, and the look-ahead of the merge does not fail it.
            RandomPartitioner partitioner = new RandomPartitioner();
            int wanted = 100 + (partitioner.decorateKey("in-memory").compareTo(partitioner.decorateKey(ringOrder.get(100)))
                    < 0 ? 1 : 0);
            List<String> before = scan(db, wanted);
            assertEquals(wanted, before.size());
            assertTrue(before.stream().noneMatch(r -> damaged.contains(r.substring(0, r.indexOf('=')))), before.toString());

            List<String> logged = log.messages(Level.ERROR);
            assertEquals(3, logged.size(), "one line per damaged block, however often it is read: " + logged);
            for (String line : logged) {
                assertTrue(line.startsWith("Damaged data in Keyspace1.Standard1: corrupt sstable file " + dataFile)
                        && line.endsWith("reads of the rows there fail until `nodetool scrub Keyspace1 Standard1`"
                        + " rewrites the column family without them"), line);
            }
            assertEquals(List.of(), log.messagesWithStackTraces(Level.ERROR));

            List<ScrubReport> reports = db.scrub(KS, STD);
            assertEquals(1, reports.size());
            ScrubReport report = reports.get(0);
            assertEquals(ROWS - 3, report.rowsKept());
            assertEquals(3, report.rowsDropped());
            assertEquals(1, report.sstables());
            assertTrue(report.snapshot().matches("\\d+-pre-scrub-Standard1"), report.snapshot());
            assertEquals("Keyspace1.Standard1: 297 rows kept, 3 rows dropped, 1 sstables rewritten; the originals are"
                    + " in snapshot " + report.snapshot(), report.toString());
            Path snapshot = dataFile.getParent().resolve("snapshots").resolve(report.snapshot());
            assertArrayEquals(damagedBytes, Files.readAllBytes(snapshot.resolve(dataFile.getFileName())),
                    "the damaged original is kept in the snapshot");

            assertAllButDamagedReadBack(db, ringOrder, damaged);
            assertEquals(ROWS - 3 + 1, scan(db, ROWS + 10).size());
        }
        try (LocalStorageService db = EngineFixture.open(options)) {
            assertAllButDamagedReadBack(db, ringOrder, damaged);
        }
    }

    private static void assertAllButDamagedReadBack(LocalStorageService db, List<String> keys, Set<String> damaged) {
        for (String key : keys) {
            if (damaged.contains(key)) {
                assertEquals(List.of(), db.getSlice(KS, key, QueryPath.cf(STD), ColumnSelection.all()), key);
                assertEquals(Optional.empty(), db.get(KS, key, QueryPath.column(STD, b("c1"))));
            } else {
                assertWhole(db, key);
            }
        }
    }

    @Test
    void scrubOfAColumnFamilyWithoutSSTablesDoesNothing() throws Exception {
        try (LocalStorageService db = EngineFixture.open(EngineFixture.options(dir, 64L << 20, 864000, 1024))) {
            List<ScrubReport> reports = db.scrub(KS);
            assertEquals(2, reports.size());
            for (ScrubReport r : reports) assertEquals(0, r.sstables(), r.toString());
            assertEquals("Keyspace1.Standard1: no sstables to scrub", reports.get(0).toString());
            try (Stream<Path> files = Files.walk(dir)) {
                assertTrue(files.noneMatch(f -> f.getFileName().toString().equals("snapshots")), "no snapshot is made");
            }
        }
    }
}
