package sibyl.engine;

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
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.config.NodeSettings;
import sibyl.db.CFMetaData;
import sibyl.db.KSMetaData;
import sibyl.db.RowMutation;
import sibyl.db.marshal.BytesType;
import sibyl.dht.DecoratedKey;
import sibyl.dht.RandomPartitioner;
import sibyl.io.Component;
import sibyl.io.Descriptor;
import sibyl.io.SSTableReader;
import sibyl.testing.TestConf;

/**
 * Snapshots: every component of every live SSTable hard-linked under 0.6's layout and naming,
 * whole whatever compactions do meanwhile, all or nothing when a link cannot be made, enough to
 * restore the column families from, and cleared by tag.
 */
class SnapshotTest {
    private static final long NOW = 1_700_000_000_000L;
    private static final Clock FIXED = Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC);

    @TempDir
    Path dir;

    /** A node of {@code keyspaces} whose engine is that of {@code settings} changed by {@code change}. */
    private static LocalStorageService open(EngineFixture.Settings settings, UnaryOperator<EngineSettings> change,
                                            List<KSMetaData> keyspaces) throws Exception {
        return LocalStorageService.open(new RandomPartitioner(), keyspaces, settings.log(),
                change.apply(settings.engine()));
    }

    private static void write(LocalStorageService db, Random random, int mutations) {
        for (int i = 0; i < mutations; i++) db.apply(EngineFixture.randomMutation(random, 200));
    }

    @Test
    void aSnapshotLinksEveryLiveSSTableAndIsEnoughToRestoreFrom() throws Exception {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        EngineFixture.Settings options = EngineFixture.options(dir.resolve("node"), 64L << 20, 864000, 1024);
        String atSnapshot;
        Snapshot snapshot;
        Path ksDir = dir.resolve("node/data").resolve(KS);
        try (LocalStorageService db = open(options, e -> e.toBuilder().clock(FIXED).build(),
                List.of(EngineFixture.SCHEMA))) {
            for (int flush = 0; flush < 2; flush++) { // with the snapshot's, 3 per column family: too few to compact
                write(db, random, 300);
                db.forceFlush(KS);
            }
            write(db, random, 100); // in the memtables: the snapshot flushes them first
            atSnapshot = EngineFixture.snapshot(db);

            snapshot = db.takeSnapshot("nightly", Duration.ofMinutes(1));
            assertEquals(NOW + "-nightly", snapshot.name());
            Path taken = ksDir.resolve("snapshots").resolve(NOW + "-nightly");
            assertEquals(List.of(taken), snapshot.directories(), "one directory: only Keyspace1 has sstables");
            List<SSTableReader> live = new ArrayList<>(EngineFixture.store(db, STD).liveSSTables());
            live.addAll(EngineFixture.store(db, SUPER).liveSSTables());
            assertEquals(live.size(), snapshot.sstables());
            assertEquals(6, live.size(), "two flushes and the snapshot's, of two column families");
            for (SSTableReader r : live) {
                for (Component c : Component.values()) {
                    Path original = r.descriptor().path(c);
                    Path link = taken.resolve(original.getFileName());
                    assertTrue(Files.isSameFile(original, link), "a hard link to " + original);
                }
            }
            try (Stream<Path> files = Files.list(taken)) {
                assertEquals(live.size() * Component.values().length, files.count(), "nothing else in it");
            }

            // Later writes and a compaction delete the originals' names; the snapshot keeps their bytes.
            write(db, random, 300);
            db.forceMajorCompaction(KS);
            for (SSTableReader r : live) awaitDeleted(r.descriptor().path(Component.DATA));
            assertEquals(NOW + 1 + "", db.takeSnapshot("", Duration.ofMinutes(1)).name(),
                    "untagged, named by the time alone, and never the name of an earlier snapshot");
        }

        // Restore: a node whose data directory holds nothing but the snapshot's files.
        Path restored = Files.createDirectories(dir.resolve("restored/data").resolve(KS));
        try (Stream<Path> files = Files.list(snapshot.directories().get(0))) {
            for (Path f : files.toList()) Files.copy(f, restored.resolve(f.getFileName()));
        }
        try (LocalStorageService db = EngineFixture.open(EngineFixture.options(dir.resolve("restored"), 64L << 20,
                864000, 1024))) {
            assertEquals(atSnapshot, EngineFixture.snapshot(db), "the restored node holds what the snapshot did, seed "
                    + seed);
        }
    }

    private static void awaitDeleted(Path file) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (Files.exists(file)) {
            assertTrue(System.nanoTime() < deadline, file + " is deleted once compacted");
            Thread.sleep(10);
        }
    }

    /**
     * Snapshots taken while writes flush and compactions replace SSTables all the time: every
     * snapshot must succeed and hold only whole SSTables, each of which opens and reads through.
     */
    @Test
    void snapshotsTakenDuringCompactionsHoldOnlyWholeSSTables() throws Exception {
        EngineFixture.Settings options = EngineFixture.options(dir, 16 << 10, 864000, 1024);
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try (LocalStorageService db = EngineFixture.open(options)) {
            long seed = new Random().nextLong();
            Future<?> writes = writer.submit(() -> {
                Random random = new Random(seed);
                while (!stop.get()) db.apply(EngineFixture.randomMutation(random, 500));
                return null;
            });
            StorageEngine engine = db.engine().orElseThrow();
            long compactionsBefore = engine.compactionsCompleted();
            List<Snapshot> snapshots = new ArrayList<>();
            for (int i = 0; i < 40 || engine.compactionsCompleted() < compactionsBefore + 5; i++) {
                assertTrue(i < 2000, "compactions ran meanwhile");
                snapshots.add(db.takeSnapshot("s" + i, Duration.ofMinutes(1)));
            }
            stop.set(true);
            writes.get(60, TimeUnit.SECONDS);
            System.out.printf("%d snapshots during %d compactions, seed %d%n", snapshots.size(),
                    engine.compactionsCompleted() - compactionsBefore, seed);
            for (Snapshot s : snapshots) assertWhole(s);
        } finally {
            stop.set(true);
            writer.shutdownNow();
        }
    }

    /** Every SSTable of the snapshot is complete, opens and reads through to its last row. */
    private static void assertWhole(Snapshot s) throws IOException {
        int sstables = 0;
        for (Path d : s.directories()) {
            for (String cf : List.of(STD, SUPER)) {
                CFMetaData metadata = EngineFixture.SCHEMA.columnFamily(cf).orElseThrow();
                for (Descriptor sstable : sibyl.io.SSTableDirectory.list(d, cf)) {
                    for (Component c : Component.values()) {
                        assertTrue(Files.exists(sstable.path(c)), sstable.path(c) + " in snapshot " + s.name());
                    }
                    SSTableReader r = SSTableReader.open(sstable, metadata, new RandomPartitioner(), 128);
                    try {
                        long rows = 0;
                        var it = r.rowsFrom(DecoratedKey.startOf(new RandomPartitioner().getMinimumToken()));
                        while (it.hasNext()) {
                            it.next().getValue();
                            rows++;
                        }
                        assertEquals(r.statistics().rowCount(), rows);
                    } finally {
                        r.release();
                    }
                    sstables++;
                }
            }
        }
        assertEquals(s.sstables(), sstables, "snapshot " + s.name());
    }

    @Test
    void clearSnapshotRemovesThoseOfATagOrAll() throws Exception {
        EngineFixture.Settings options = EngineFixture.options(dir, 64L << 20, 864000, 1024);
        try (LocalStorageService db = open(options, e -> e.toBuilder().clock(FIXED).build(),
                List.of(EngineFixture.SCHEMA))) {
            write(db, new Random(1), 100);
            Path snapshots = dir.resolve("data").resolve(KS).resolve("snapshots");
            db.takeSnapshot("a", Duration.ofMinutes(1));
            db.takeSnapshot("b", Duration.ofMinutes(1));
            db.takeSnapshot("a", Duration.ofMinutes(1));
            db.takeSnapshot("a-b", Duration.ofMinutes(1));
            assertEquals(List.of(NOW + "-a", NOW + 1 + "-b", NOW + 2 + "-a", NOW + 3 + "-a-b"), names(snapshots));

            assertEquals(List.of(snapshots.resolve(NOW + "-a"), snapshots.resolve(NOW + 2 + "-a")),
                    db.clearSnapshot("a").stream().sorted().toList());
            assertEquals(List.of(NOW + 1 + "-b", NOW + 3 + "-a-b"), names(snapshots));
            assertEquals(List.of(), db.clearSnapshot("c"));
            assertEquals(2, db.clearSnapshot(null).size());
            assertFalse(Files.exists(snapshots), "the snapshots directory goes with the last snapshot");
            assertTrue(Files.exists(dir.resolve("data").resolve(KS)), "the sstables stay");
            assertEquals(2, EngineFixture.store(db, STD).liveSSTables().size() + EngineFixture.store(db, SUPER)
                    .liveSSTables().size());
        }
    }

    private static List<String> names(Path snapshots) throws IOException {
        try (Stream<Path> all = Files.list(snapshots)) {
            return all.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aTagThatIsNoPlainNameIsRefusedBeforeAnythingIsDone() throws Exception {
        EngineFixture.Settings options = EngineFixture.options(dir, 64L << 20, 864000, 1024);
        try (LocalStorageService db = EngineFixture.open(options)) {
            write(db, new Random(1), 50);
            for (String tag : List.of("../escape", "a/b", ".hidden", "-x", "with space", "x".repeat(201))) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> db.takeSnapshot(tag, Duration.ofMinutes(1)), tag);
                assertEquals("snapshot tag '" + tag + "' must be 1 to 200 letters, digits, '_', '.' or '-', and not"
                        + " begin with '.' or '-'", e.getMessage());
                assertThrows(IllegalArgumentException.class, () -> db.clearSnapshot(tag), tag);
            }
            assertEquals(0, EngineFixture.store(db, STD).liveSSTables().size(), "nothing was flushed for them");
        }
    }

    /**
     * A snapshot that fails half-way (here: its second keyspace's directory cannot be made, as on a
     * full disk) leaves nothing, not even the first keyspace's complete part, and says why.
     */
    @Test
    void aSnapshotThatFailsHalfWayLeavesNothing() throws Exception {
        EngineFixture.Settings options = EngineFixture.options(dir, 64L << 20, 864000, 1024);
        KSMetaData second = new KSMetaData("Keyspace2", 1, List.of(CFMetaData.standard("Keyspace2", "Standard1",
                BytesType.instance)));
        try (LocalStorageService db = open(options, e -> e.toBuilder().clock(FIXED).build(),
                List.of(EngineFixture.SCHEMA, second))) {
            write(db, new Random(1), 50);
            db.apply(RowMutation.builder("Keyspace2", "k").write("Standard1", EngineFixture.b("c"), EngineFixture.b("v"), 1)
                    .build());
            Path blocker = Files.createDirectories(dir.resolve("data/Keyspace2/snapshots"))
                    .resolve("tmp-" + NOW + "-x");
            Files.writeString(blocker, "in the way");

            IOException e = assertThrows(IOException.class, () -> db.takeSnapshot("x", Duration.ofMinutes(1)));
            assertEquals("snapshot " + NOW + "-x failed: could not create " + blocker
                    + ": FileAlreadyExistsException: " + blocker + "; nothing of it is kept", e.getMessage());
            assertFalse(Files.exists(dir.resolve("data").resolve(KS).resolve("snapshots")), "no part is left");
            assertEquals(List.of("tmp-" + NOW + "-x"), names(dir.resolve("data/Keyspace2/snapshots")));

            Files.delete(blocker);
            Snapshot s = db.takeSnapshot("x", Duration.ofMinutes(1));
            assertEquals(2, s.directories().size(), "once the way is clear it succeeds: " + s);
        }
    }

    @Test
    void snapshotBeforeCompactionComesFromTheConfiguration() {
        assertFalse(EngineSettings.from(TestConf.builder(dir).build()).snapshotBeforeCompaction());
        assertTrue(EngineSettings.from(TestConf.builder(dir).set(NodeSettings.SNAPSHOT_BEFORE_COMPACTION, true).build())
                .snapshotBeforeCompaction());
    }

    @Test
    void snapshotBeforeCompactionKeepsWhatEachCompactionReplaces() throws Exception {
        EngineFixture.Settings options = EngineFixture.options(dir, 64L << 20, 864000, 1024);
        try (LocalStorageService db = open(options, e -> e.toBuilder().clock(FIXED).snapshotBeforeCompaction(true).build(),
                List.of(EngineFixture.SCHEMA))) {
            Random random = new Random(2);
            for (int i = 0; i < 2; i++) {
                for (int m = 0; m < 100; m++) {
                    RowMutation.Builder b = RowMutation.builder(KS, "k" + random.nextInt(100));
                    b.write(STD, EngineFixture.b("c" + m), EngineFixture.b("v"), i);
                    db.apply(b.build());
                }
                db.forceFlush(KS, STD);
            }
            List<Path> inputs = new ArrayList<>();
            for (SSTableReader r : EngineFixture.store(db, STD).liveSSTables()) inputs.add(r.descriptor().path(Component.DATA));
            assertEquals(2, inputs.size());
            db.forceMajorCompaction(KS);
            Path snapshot = dir.resolve("data").resolve(KS).resolve("snapshots").resolve(NOW + "-compact-Standard1");
            for (Path input : inputs) {
                awaitDeleted(input);
                assertTrue(Files.exists(snapshot.resolve(input.getFileName())), input + " kept in " + snapshot);
            }
            assertEquals(List.of(NOW + "-compact-Standard1"), names(snapshot.getParent()),
                    "Super1 has no sstables, so nothing to compact or snapshot");
        }
    }
}
