package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.engine.EngineFixture.KS;
import static sibyl.engine.EngineFixture.STD;
import static sibyl.engine.EngineFixture.SUPER;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.ColumnFamily;
import sibyl.db.KSMetaData;
import sibyl.db.RowMutation;
import sibyl.db.SystemKeyspace;
import sibyl.dht.DecoratedKey;
import sibyl.dht.RandomPartitioner;
import sibyl.io.Cassandra06Writer;
import sibyl.io.SSTableFormat;
import sibyl.io.SSTableReader;

/**
 * A node started on a Cassandra 0.6 node's data directory serves what 0.6 held, through every read, and
 * compaction replaces the 0.6 SSTables with its own without changing an answer. The 0.6 SSTables are made by
 * writing random mutations into a Sibyl node, flushing a few times, and rewriting each of its SSTables in 0.6's
 * format under the same generation: the two nodes must then answer alike. Prints its seed.
 */
class Cassandra06TakeoverTest {
    private static final RandomPartitioner PARTITIONER = new RandomPartitioner();
    private static final int COLUMN_INDEX_SIZE = 256;

    @TempDir
    Path dir;
    private long seed;
    /** What the Sibyl node holding the same data answers. */
    private String expected;
    private EngineFixture.Settings options;
    private Path ksDir;

    /** A Sibyl node of random data in {@code dir/sibyl}; its SSTables rewritten as 0.6's in {@code dir/c06/data}. */
    @BeforeEach
    void makeA06DataDirectory() throws Exception {
        seed = Long.getLong("sibyl.seed", System.nanoTime());
        System.out.println("Cassandra06TakeoverTest seed " + seed + " (rerun with -Dsibyl.seed=" + seed + ")");
        Random random = new Random(seed);
        EngineFixture.Settings sibyl = EngineFixture.options(dir.resolve("sibyl"), 64L << 20, 864000, COLUMN_INDEX_SIZE)
                .withEngine(EngineFixture::withoutCompaction);
        options = EngineFixture.options(dir.resolve("c06"), 64L << 20, 864000, COLUMN_INDEX_SIZE)
                .withEngine(EngineFixture::withoutCompaction);
        ksDir = dir.resolve("c06/data").resolve(KS);
        try (LocalStorageService db = EngineFixture.open(sibyl)) {
            for (int flush = 0; flush < 3; flush++) {
                for (int i = 0; i < 400; i++) db.apply(EngineFixture.randomMutation(random, 150));
                db.forceFlush(KS);
            }
            expected = EngineFixture.snapshot(db);
            for (String cf : List.of(STD, SUPER)) {
                for (SSTableReader sstable : EngineFixture.store(db, cf).liveSSTables()) {
                    Cassandra06Writer.write(ksDir, cf, sstable.descriptor().generation(), PARTITIONER, COLUMN_INDEX_SIZE,
                            rows(sstable));
                }
            }
        }
    }

    private static List<Map.Entry<DecoratedKey, ColumnFamily>> rows(SSTableReader sstable) {
        List<Map.Entry<DecoratedKey, ColumnFamily>> rows = new ArrayList<>();
        sstable.rowsFrom(DecoratedKey.startOf(PARTITIONER.getMinimumToken())).forEachRemaining(rows::add);
        return rows;
    }

    @Test
    void theNodeServesThe06SSTablesInPlaceAndCompactionReplacesThem() throws Exception {
        Map<String, byte[]> before = contents(ksDir);
        String withNewWrite;
        try (LocalStorageService db = EngineFixture.open(options)) {
            assertMapEquals(before, contents(ksDir));
            assertEquals(6, db.sstablesAtStartUp());
            for (String cf : List.of(STD, SUPER)) {
                for (SSTableReader r : EngineFixture.store(db, cf).liveSSTables()) {
                    assertEquals(SSTableFormat.CASSANDRA_06, r.format(), r.toString());
                }
            }
            assertEquals(expected, EngineFixture.snapshot(db), "seed " + seed);

            // New writes go to Sibyl's SSTables, under generations past 0.6's.
            db.apply(RowMutation.builder(KS, "k1").write(STD, EngineFixture.b("c7"), EngineFixture.b("new"), 5000).build());
            db.forceFlush(KS, STD);
            List<SSTableReader> live = EngineFixture.store(db, STD).liveSSTables();
            SSTableReader newest = live.get(live.size() - 1);
            assertEquals(SSTableFormat.SIBYL, newest.format());
            assertTrue(newest.descriptor().generation() > 5, "past the six generations of 0.6's: " + newest);
            withNewWrite = EngineFixture.snapshot(db);

            db.forceMajorCompaction(KS);
            assertEquals(withNewWrite, EngineFixture.snapshot(db), "seed " + seed + ": compaction changes no answer");
            for (String cf : List.of(STD, SUPER)) {
                List<SSTableReader> after = EngineFixture.store(db, cf).liveSSTables();
                assertEquals(1, after.size());
                assertEquals(SSTableFormat.SIBYL, after.get(0).format());
            }
            assertEquals(List.of(), c06Files(ksDir), "the 0.6 files and their markers are gone");
            // ... from the keyspace directory: snapshots keep them, for a way back to 0.6.
            List<String> kept = new ArrayList<>();
            try (Stream<Path> snapshots = Files.list(ksDir.resolve("snapshots"))) {
                for (Path snapshot : snapshots.toList()) {
                    assertTrue(snapshot.getFileName().toString().matches("\\d+-pre-upgrade-(Standard1|Super1)"),
                            snapshot.toString());
                    kept.addAll(c06Files(snapshot));
                }
            }
            kept.sort(null);
            List<String> original = new ArrayList<>(before.keySet());
            original.sort(null);
            assertEquals(original, kept, "every 0.6 file is in a pre-upgrade snapshot");
        }
        try (LocalStorageService db = EngineFixture.open(options)) {
            assertEquals(withNewWrite, EngineFixture.snapshot(db), "seed " + seed + ": after a restart");
        }
    }

    @Test
    void aSnapshotLinksThe06FilesAndAScrubRewritesThemInSibylsFormat() throws Exception {
        try (LocalStorageService db = EngineFixture.open(options)) {
            Snapshot snapshot = db.takeSnapshot("before", LocalStorageService.DEFAULT_FLUSH_TIMEOUT);
            assertEquals(6, snapshot.sstables());
            Path linked = snapshot.directories().get(0);
            for (String name : c06Files(ksDir)) {
                assertTrue(Files.isSameFile(ksDir.resolve(name), linked.resolve(name)), name + " linked");
            }

            List<ScrubReport> reports = db.scrub(KS);
            assertEquals(2, reports.size());
            assertEquals(expected, EngineFixture.snapshot(db), "seed " + seed + ": scrub changes no answer");
            for (String cf : List.of(STD, SUPER)) {
                for (SSTableReader r : EngineFixture.store(db, cf).liveSSTables()) {
                    assertEquals(SSTableFormat.SIBYL, r.format(), r.toString());
                }
            }
            assertEquals(List.of(), c06Files(ksDir));
            assertFalse(c06Files(linked).isEmpty(), "the snapshot keeps the 0.6 files");
        }
        try (LocalStorageService db = EngineFixture.open(options)) {
            assertEquals(expected, EngineFixture.snapshot(db), "seed " + seed + ": after a restart");
        }
    }

    @Test
    void anUpgradeRewritesThe06SSTablesOnlyAfterASnapshotOfThem() throws Exception {
        try (LocalStorageService db = EngineFixture.open(options)) {
            db.apply(RowMutation.builder(KS, "k1").write(STD, EngineFixture.b("c7"), EngineFixture.b("new"), 5000).build());
            db.forceFlush(KS, STD);
            String before = EngineFixture.snapshot(db);
            StorageEngine engine = db.engine().orElseThrow();
            SSTableReader own = EngineFixture.store(db, STD).liveSSTables().get(3);
            assertEquals(SSTableFormat.SIBYL, own.format());
            UpgradeReport report = engine.upgradeSSTables(EngineFixture.store(db, STD)).get();
            assertEquals(3, report.sstables(), report.toString());
            assertEquals(0, report.rowsDropped());
            assertTrue(EngineFixture.store(db, STD).liveSSTables().contains(own), "Sibyl's own SSTable is left as it is");
            engine.upgradeSSTables(EngineFixture.store(db, SUPER)).get();
            assertEquals(before, EngineFixture.snapshot(db), "seed " + seed);
            assertEquals(List.of(), c06Files(ksDir));
            assertEquals(9, c06Files(ksDir.resolve("snapshots").resolve(report.snapshot())).size(),
                    "the snapshot keeps Standard1's 0.6 files, for a way back");
        }
    }

    /**
     * A truncate gives up 0.6 SSTables as compaction does (docs/differences.md, "Coming from 0.6"): only after a
     * snapshot links their files; and a leftover of 0.6's own, which Sibyl does not recognise as an SSTable to
     * serve, stays where it is.
     */
    @Test
    void aTruncateGivesUpThe06SSTablesOnlyAfterASnapshotOfThem() throws Exception {
        Files.writeString(ksDir.resolve("Standard1-tmp-40-Data.db"), "0.6's half-written flush");
        Map<String, byte[]> before = contents(ksDir);
        List<String> standard = c06Files(ksDir).stream().filter(n -> n.startsWith(STD + "-") && !n.contains("-tmp-")).toList();
        assertEquals(9, standard.size(), standard.toString());
        String superOnly;
        try (LocalStorageService db = EngineFixture.open(options)) {
            db.truncate(KS, STD).get();
            superOnly = EngineFixture.snapshot(db);
            assertTrue(EngineFixture.store(db, STD).liveSSTables().isEmpty());
            assertFalse(superOnly.contains(STD + "/"), superOnly);
        }
        Path snapshot;
        try (Stream<Path> snapshots = Files.list(ksDir.resolve("snapshots"))) {
            snapshot = snapshots.filter(p -> p.getFileName().toString().endsWith("-truncated-" + STD)).findFirst().orElseThrow();
        }
        for (String name : standard) {
            assertFalse(Files.exists(ksDir.resolve(name)), name + " given up");
            assertArrayEquals(before.get(name), Files.readAllBytes(snapshot.resolve(name)), name + " kept in " + snapshot);
        }
        assertArrayEquals(before.get("Standard1-tmp-40-Data.db"), Files.readAllBytes(ksDir.resolve("Standard1-tmp-40-Data.db")));
        for (String name : c06Files(ksDir)) {
            if (name.startsWith(SUPER + "-")) assertArrayEquals(before.get(name), Files.readAllBytes(ksDir.resolve(name)), name);
        }
        try (LocalStorageService db = EngineFixture.open(options)) {
            assertEquals(superOnly, EngineFixture.snapshot(db), "seed " + seed + ": after a restart");
        }
    }

    @Test
    void a06SSTableCopiedInIsLoadedByARefresh() throws Exception {
        Path aside = dir.resolve("aside");
        Files.createDirectories(aside);
        String newest = c06Files(ksDir).stream().filter(n -> n.startsWith(STD + "-") && n.endsWith("-Data.db"))
                .reduce((a, b) -> b).orElseThrow().replace("Data.db", "");
        for (String name : c06Files(ksDir)) {
            if (name.startsWith(newest)) Files.move(ksDir.resolve(name), aside.resolve(name));
        }
        try (LocalStorageService db = EngineFixture.open(options)) {
            assertEquals(2, EngineFixture.store(db, STD).liveSSTables().size());
            for (String name : c06Files(aside)) Files.move(aside.resolve(name), ksDir.resolve(name));
            assertEquals(1, db.loadNewSSTables(KS, STD));
            assertEquals(expected, EngineFixture.snapshot(db), "seed " + seed);
        }
    }

    @Test
    void anUnknownFileRefusesTheStartAndNothingIsChanged() throws Exception {
        Files.writeString(ksDir.resolve("Standard1-f-4-Data.db"), "a 0.7 sstable");
        Files.writeString(ksDir.resolve("tmp-Standard1-9-Data.db"), "Sibyl's, left by a crash");
        Path system = dir.resolve("c06/data/system");
        Files.createDirectories(system);
        Files.writeString(system.resolve("token"), "1234");
        Files.writeString(system.resolve("tmp-LocationInfo-3-Index.db"), "Sibyl's, left by a crash");
        Map<String, byte[]> before = contents(dir.resolve("c06/data"));

        IOException e = assertThrows(IOException.class, () -> EngineFixture.open(options).close());
        assertTrue(e.getMessage().contains(ksDir.resolve("Standard1-f-4-Data.db")
                + ": an SSTable of Cassandra 0.7 or later (format f); export it with that version's sstable2json,"
                + " or move it out of the data directory"), e.getMessage());
        assertMapEquals(before, contents(dir.resolve("c06/data")));

        Files.delete(ksDir.resolve("Standard1-f-4-Data.db"));
        try (LocalStorageService db = EngineFixture.open(options)) {
            assertEquals(expected, EngineFixture.snapshot(db));
            assertFalse(Files.exists(ksDir.resolve("tmp-Standard1-9-Data.db")), "Sibyl's leftover goes once started");
            assertFalse(Files.exists(system.resolve("tmp-LocationInfo-3-Index.db")));
            assertTrue(Files.exists(system.resolve("token")), "the service's token file is left to it");
        }
    }

    @Test
    void oneRefusalNamesTheUnrecognisedFilesOfEveryKeyspace() throws Exception {
        Path system = dir.resolve("c06/data/system");
        Files.createDirectories(system);
        Files.writeString(ksDir.resolve("Keyspace1-Standard1-hf-9-Data.db"), "a 1.1 sstable");
        Files.writeString(system.resolve("LocationInfo-g-1-Data.db"), "a 0.8 sstable");
        StorageEngine engine = new StorageEngine(options.engine(), PARTITIONER);
        try {
            List<KSMetaData> keyspaces = List.of(EngineFixture.SCHEMA, SystemKeyspace.metadata());
            IOException e = assertThrows(IOException.class, () -> engine.inspect(keyspaces));
            assertTrue(e.getMessage().startsWith("Cannot start on the data directories of keyspaces Keyspace1, system:"
                    + " 2 files there are"), e.getMessage());
            assertTrue(e.getMessage().contains("\n  " + ksDir.resolve("Keyspace1-Standard1-hf-9-Data.db")
                    + ": an SSTable of Cassandra 1.1 or later (format hf)"), e.getMessage());
            assertTrue(e.getMessage().contains("\n  " + system.resolve("LocationInfo-g-1-Data.db")
                    + ": an SSTable of Cassandra 0.8 or later (format g)"), e.getMessage());
        } finally {
            engine.close();
        }
    }

    /** Every file under {@code root} with its bytes. */
    static Map<String, byte[]> contents(Path root) throws IOException {
        Map<String, byte[]> all = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.filter(Files::isRegularFile).toList()) all.put(root.relativize(p).toString(), Files.readAllBytes(p));
        }
        return all;
    }

    static void assertMapEquals(Map<String, byte[]> expected, Map<String, byte[]> actual) {
        assertEquals(expected.keySet(), actual.keySet());
        for (String k : expected.keySet()) assertArrayEquals(expected.get(k), actual.get(k), k);
    }

    /** Names of the 0.6 files (Data, Index, Filter without a Statistics file) and markers in {@code directory}. */
    private static List<String> c06Files(Path directory) throws IOException {
        List<String> names = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            for (Path p : files.toList()) {
                String name = p.getFileName().toString();
                String prefix = name.replaceAll("(-\\d+-).*", "$1");
                boolean sibyls = Files.exists(directory.resolve(prefix + "Statistics.db"));
                if (!sibyls && !Files.isDirectory(p)) names.add(name);
            }
        }
        names.sort(null);
        return names;
    }
}
