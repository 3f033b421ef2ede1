package sibyl.commitlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.commitlog.C06Fixture.KS;
import static sibyl.commitlog.C06Fixture.KS2;
import static sibyl.commitlog.C06Fixture.contents;
import static sibyl.commitlog.C06Fixture.replay;
import static sibyl.commitlog.C06Fixture.writer;
import static sibyl.commitlog.C06Row.ofSuper;
import static sibyl.commitlog.C06Row.standard;

import ch.qos.logback.classic.Level;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.KSMetaData;
import sibyl.db.ResolvedMutation;
import sibyl.db.SuperColumn;
import sibyl.db.SystemKeyspace;
import sibyl.db.marshal.BytesType;
import sibyl.testing.LogCapture;

/** Replay of hand-built Cassandra 0.6 segments: what 0.6 itself would have replayed, and nothing lost. */
class LegacyReplayTest {
    @TempDir
    Path dir;

    @Test
    void replaysWhatTheHeaderMarksUnflushedAsZeroSixDid() throws IOException {
        C06LogWriter w = writer(JavaHashMapOrder.JAVA_8);
        w.write(KS, "a", standard("Standard1").column("c", "1", 1), ofSuper("Super1").superColumn("s", 1, "x", "1"));
        w.write(KS, "b", standard("Standard1").column("c", "2", 2));
        w.flushed(KS, "Standard1", w.context());
        w.write(KS, "c", standard("Standard1").column("c", "3", 3));
        w.write(KS2, "d", standard("Events").column("e", "4", 4));
        w.writeTo(dir);

        C06Fixture.Replay replay = replay(dir);
        // a's Standard1 delta was flushed; b's entry ends exactly at the flush position, which 0.6 replays again.
        assertEquals(List.of(KS + "/a/Super1", KS + "/b/Standard1", KS + "/c/Standard1", KS2 + "/d/Events"),
                replay.deltas());
        assertEquals(1, replay.summary().legacySegments());
        assertEquals(4, replay.summary().legacyEntries());
        assertEquals(Map.of(KS, java.util.Set.of("Standard1", "Super1"), KS2, java.util.Set.of("Events")),
                replay.summary().legacyColumnFamilies());
    }

    @Test
    void aSegmentWithNothingUnflushedIsReadButNotReplayed() throws IOException {
        C06LogWriter w = writer(JavaHashMapOrder.JAVA_8);
        w.write(KS, "a", standard("Standard1").column("c", "1", 1));
        w.roll(); // 0.6 created the next segment and stopped before writing to it
        w.writeTo(dir);
        C06Fixture.Replay replay = replay(dir);
        assertEquals(List.of(KS + "/a/Standard1"), replay.deltas());
        assertEquals(2, replay.summary().legacySegments());
    }

    @Test
    void anEntryWhoseChecksumFailsIsPassedOverAndReadingGoesOn() throws IOException {
        C06LogWriter w = writer(JavaHashMapOrder.JAVA_8);
        w.write(KS, "a", standard("Standard1").column("c", "1", 1));
        long b = w.write(KS, "b", standard("Standard1").column("c", "2", 2));
        w.write(KS, "c", standard("Standard1").column("c", "3", 3));
        Path segment = w.writeTo(dir).get(0);
        flip(segment, b + Long.BYTES + 3); // a byte of b's mutation
        try (LogCapture logs = new LogCapture(LegacyReplayer.class)) {
            C06Fixture.Replay replay = replay(dir);
            assertEquals(List.of(KS + "/a/Standard1", KS + "/c/Standard1"), replay.deltas());
            assertEquals(1, replay.summary().damagedSegments());
            assertOneDamageLine(logs, segment, "checksum mismatch (the first at offset " + b + ")");
        }
    }

    @Test
    void aTornTailEndsTheSegmentWithOneLine() throws IOException {
        C06LogWriter w = writer(JavaHashMapOrder.JAVA_8);
        w.write(KS, "a", standard("Standard1").column("c", "1", 1));
        long b = w.write(KS, "b", standard("Standard1").column("c", "2", 2));
        Path segment = w.writeTo(dir).get(0);
        try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
            f.setLength(b + 20); // killed while writing b
        }
        try (LogCapture logs = new LogCapture(LegacyReplayer.class)) {
            assertEquals(List.of(KS + "/a/Standard1"), replay(dir).deltas());
            assertOneDamageLine(logs, segment, "reading ended at offset " + b);
        }
    }

    @Test
    void superColumnsTombstonesAndRowDeletionsComeBackExactly() throws IOException {
        C06LogWriter w = writer(JavaHashMapOrder.JAVA_8);
        w.write(KS, "k",
                standard("Standard1").column("live", "v", 10).tombstone("gone", 11, 1_700_000_000),
                standard("Standard2", C06Row.UTF8).deleted(20, 1_700_000_001).column("after", "w", 21),
                ofSuper("Super1")
                        .superColumn("dead", 30, 1_700_000_002, 31, "x", "1", "y", "2")
                        .superColumnTombstone("sub", "z", 32, 1_700_000_003));
        w.writeTo(dir);

        List<ResolvedMutation> replayed = replay(dir).mutations();
        assertEquals(1, replayed.size());
        ResolvedMutation m = replayed.get(0);
        assertEquals(KS, m.keyspace());
        assertEquals("k", m.key());
        ColumnFamily standard1 = cf(m, "Standard1");
        assertFalse(standard1.deletion().isMarkedForDelete());
        Iterator<Cell> cells = standard1.cells().iterator();
        Column gone = (Column) cells.next(); // "gone" sorts before "live"
        assertEquals("gone", utf8(gone.name()));
        assertTrue(gone.isTombstone());
        assertEquals(11, gone.timestamp());
        assertEquals(1_700_000_000, gone.localDeletionTime());
        assertEquals(Column.live(bytes("live"), bytes("v"), 10), cells.next());

        ColumnFamily standard2 = cf(m, "Standard2");
        assertEquals(20, standard2.deletion().markedForDeleteAt());
        assertEquals(1_700_000_001, standard2.deletion().localDeletionTime());
        assertEquals(List.of(Column.live(bytes("after"), bytes("w"), 21)), list(standard2.cells()));

        ColumnFamily super1 = cf(m, "Super1");
        SuperColumn dead = (SuperColumn) super1.cell(bytes("dead"));
        assertEquals(30, dead.deletion().markedForDeleteAt());
        assertEquals(1_700_000_002, dead.deletion().localDeletionTime());
        assertEquals(List.of(Column.live(bytes("x"), bytes("1"), 31), Column.live(bytes("y"), bytes("2"), 31)),
                list(dead.subcolumns()));
        SuperColumn sub = (SuperColumn) super1.cell(bytes("sub"));
        Column z = sub.subcolumn(bytes("z"));
        assertTrue(z.isTombstone());
        assertEquals(1_700_000_003, z.localDeletionTime());
    }

    @Test
    void superColumnsThatHoldNothingAreLeftOut() throws IOException {
        C06LogWriter w = writer(JavaHashMapOrder.JAVA_8);
        // What 0.6's read repair logs for a deleted super column it read: no subcolumns, no tombstone.
        w.write(KS, "repaired", ofSuper("Super1").superColumn("s", 1));
        w.write(KS, "mixed", ofSuper("Super1").superColumn("empty", 1).superColumn("full", 2, "x", "1"));
        w.writeTo(dir);
        List<ResolvedMutation> replayed = replay(dir).mutations();
        assertEquals(List.of("mixed"), replayed.stream().map(ResolvedMutation::key).toList());
        assertEquals(1, cf(replayed.get(0), "Super1").cellCount());
    }

    @Test
    void segmentsAreReplayedOldestFirstAcrossKeyspacesAndTheSystemKeyspace() throws IOException {
        C06LogWriter w = writer(JavaHashMapOrder.JAVA_8);
        // 0.6's LocationInfo compares names as UTF-8; Sibyl's system keyspace takes them as bytes.
        w.write(SystemKeyspace.NAME, "L", standard(SystemKeyspace.LOCATION_INFO, C06Row.UTF8).column("Token", "t", 1));
        w.write(KS, "a", standard("Standard1").column("c", "1", 1));
        w.roll();
        w.write(KS2, "b", ofSuper("Counts").superColumn("s", 2, "x", "1"));
        w.write(KS, "c", standard("Standard1").column("c", "2", 2), standard("Standard2", C06Row.UTF8).column("d", "3", 3));
        w.writeTo(dir);
        assertEquals(List.of("system/L/LocationInfo", KS + "/a/Standard1", KS2 + "/b/Counts", KS + "/c/Standard1",
                KS + "/c/Standard2"), replay(dir).deltas());
    }

    /**
     * The same history written by 0.6 on each kind of JVM: the flush of Standard1 is honoured (its
     * first write is not replayed) only if the header's numbers are read in the writer's order.
     */
    @ParameterizedTest
    @EnumSource(value = JavaHashMapOrder.class, names = {"JAVA_6", "JAVA_8"})
    void theColumnFamilyNumbersAreReadInTheOrderOfTheJvmThatWroteThem(JavaHashMapOrder jvm) throws IOException {
        assertNotEquals(C06Fixture.numbering(JavaHashMapOrder.JAVA_6), C06Fixture.numbering(JavaHashMapOrder.JAVA_8));
        C06LogWriter w = writer(jvm);
        w.write(SystemKeyspace.NAME, "L", standard(SystemKeyspace.LOCATION_INFO, C06Row.UTF8).column("Token", "t", 1));
        w.write(KS, "a", standard("Standard1").column("c", "1", 1));
        w.write(KS, "b", ofSuper("Super1").superColumn("s", 2, "x", "1"));
        C06LogWriter.Context flush = w.context();
        w.write(KS, "c", standard("Standard2", C06Row.UTF8).column("d", "3", 3));
        w.flushed(KS, "Standard1", flush);
        w.write(KS, "d", standard("Standard1").column("c", "4", 4));
        w.writeTo(dir);
        try (LogCapture logs = new LogCapture(LegacyReplayer.class)) {
            assertEquals(List.of("system/L/LocationInfo", KS + "/b/Super1", KS + "/c/Standard2", KS + "/d/Standard1"),
                    replay(dir).deltas());
            String jvms = jvm == JavaHashMapOrder.JAVA_6 ? "Java 6 or 7" : "Java 8 or later";
            assertTrue(logs.messages(Level.INFO).stream().anyMatch(l -> l.contains("in the order of " + jvms + ",")),
                    logs.messages(Level.INFO).toString());
            assertEquals(List.of(), logs.messages(Level.WARN));
        }
    }

    @Test
    void aConfigurationNotTheOneZeroSixRanWithReplaysEverythingFromTheLowestPosition() throws IOException {
        C06LogWriter w = writer(JavaHashMapOrder.JAVA_8);
        w.write(KS, "a", standard("Standard1").column("c", "1", 1));
        w.write(KS, "b", ofSuper("Super1").superColumn("s", 2, "x", "1"));
        w.flushed(KS, "Standard1", w.context());
        w.write(KS, "c", standard("Standard1").column("c", "3", 3));
        w.writeTo(dir);
        List<KSMetaData> grown = List.of(new KSMetaData(KS, 1, append(C06Fixture.KEYSPACE1.columnFamilies(),
                CFMetaData.standard(KS, "Added", BytesType.instance))), C06Fixture.KEYSPACE2, SystemKeyspace.metadata());
        List<String> deltas = new ArrayList<>();
        try (LogCapture logs = new LogCapture(LegacyReplayer.class);
             CommitLog log = CommitLog.open(dir, C06Fixture.PERIODIC, 1 << 20)) {
            log.recover(grown, FlushedPositions.NONE, m -> deltas.add(m.key()));
            List<String> warnings = logs.messages(Level.WARN);
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).contains("numbers 9 column families where 10 are configured now")
                    && warnings.get(0).contains("Replaying every column family's entries"), warnings.get(0));
        }
        // Super1 was first written at b, so replay begins there; a is not read, as in 0.6.
        assertEquals(List.of("b", "c"), deltas);
    }

    @Test
    void columnFamiliesNoLongerConfiguredAreSkippedAndNamedOnce() throws IOException {
        List<KSMetaData> then = List.of(C06Fixture.KEYSPACE1, new KSMetaData(KS2, 1, append(
                C06Fixture.KEYSPACE2.columnFamilies(), CFMetaData.standard(KS2, "Old", BytesType.instance))),
                SystemKeyspace.metadata());
        C06LogWriter w = new C06LogWriter(LegacyColumnFamilyIds.number(then, JavaHashMapOrder.JAVA_8), 1_000);
        w.write(KS2, "a", standard("Old").column("c", "1", 1), standard("Events").column("c", "1", 1));
        w.write(KS2, "b", standard("Old").column("c", "2", 2));
        w.writeTo(dir);
        try (LogCapture logs = new LogCapture(LegacyReplayer.class)) {
            assertEquals(List.of(KS2 + "/a/Events"), replay(dir).deltas());
            assertEquals(1, logs.messages(Level.WARN).stream().filter(l -> l.contains(KS2 + ".Old")).count());
        }
    }

    @Test
    void aComparatorOtherThanTheConfiguredOneRefusesToStartBeforeReplayingAnything() throws IOException {
        C06LogWriter w = writer(JavaHashMapOrder.JAVA_8);
        w.write(KS, "a", standard("Standard1").column("c", "1", 1));
        long b = w.write(KS, "b", standard("Standard2", C06Row.BYTES).column("c", "2", 2)); // configured: UTF8Type
        Path segment = w.writeTo(dir).get(0);
        Map<String, String> before = contents(dir);
        List<ResolvedMutation> replayed = new ArrayList<>();
        try (CommitLog log = CommitLog.open(dir, C06Fixture.PERIODIC, 1 << 20)) {
            IOException e = assertThrows(IOException.class,
                    () -> log.recover(C06Fixture.KEYSPACES, FlushedPositions.NONE, replayed::add));
            assertTrue(e.getMessage().contains(segment.toString()) && e.getMessage().contains("offset " + b)
                    && e.getMessage().contains("Keyspace1.Standard2")
                    && e.getMessage().contains("CompareWith org.apache.cassandra.db.marshal.BytesType")
                    && e.getMessage().contains("configured with org.apache.cassandra.db.marshal.UTF8Type"), e.getMessage());
        }
        assertEquals(List.of(), replayed);
        assertEquals(before.get(segment.getFileName().toString()), contents(dir).get(segment.getFileName().toString()));
    }

    @Test
    void anEntryThatDoesNotDecodeIsPassedOverWithTheDamageLine() throws IOException {
        C06LogWriter w = writer(JavaHashMapOrder.JAVA_8);
        w.write(KS, "a", standard("Standard1").column("c", "1", 1));
        long bad = w.current().end();
        C06LogWriter.appendEntry(w.current(), "not a mutation".getBytes(StandardCharsets.UTF_8));
        w.write(KS, "c", standard("Standard1").column("c", "3", 3));
        Path segment = w.writeTo(dir).get(0);
        try (LogCapture logs = new LogCapture(LegacyReplayer.class)) {
            assertEquals(List.of(KS + "/a/Standard1", KS + "/c/Standard1"), replay(dir).deltas());
            assertOneDamageLine(logs, segment, "did not decode (the first at offset " + bad);
        }
    }

    @Test
    void zeroSixSegmentsAreReplayedBeforeSibylsOwnAndNewIdsGoPastTheirs() throws IOException {
        long future = System.currentTimeMillis() + 86_400_000L; // a 0.6 node whose clock ran a day ahead
        C06LogWriter w = new C06LogWriter(C06Fixture.numbering(JavaHashMapOrder.JAVA_8), future);
        w.write(KS, "old", standard("Standard1").column("c", "1", 1));
        List<ResolvedMutation> replayed = new ArrayList<>();
        try (CommitLog log = CommitLog.open(dir, C06Fixture.PERIODIC, 1 << 20)) {
            log.recover(C06Fixture.KEYSPACES, FlushedPositions.NONE, replayed::add);
            CFMetaData standard1 = C06Fixture.KEYSPACE1.columnFamily("Standard1").orElseThrow();
            log.append(new ResolvedMutation(KS, "new", List.of(ColumnFamily.empty(standard1)
                    .withCell(Column.live(bytes("c"), bytes("2"), 2)))));
        }
        w.writeTo(dir);
        try (CommitLog log = CommitLog.open(dir, C06Fixture.PERIODIC, 1 << 20)) {
            replayed.clear();
            log.recover(C06Fixture.KEYSPACES, FlushedPositions.NONE, replayed::add);
            assertEquals(List.of("old", "new"), replayed.stream().map(ResolvedMutation::key).toList());
            assertTrue(log.position().segmentId() > future, "a new segment's id passes the 0.6 segment's");
        }
    }

    private static ColumnFamily cf(ResolvedMutation m, String name) {
        Optional<ColumnFamily> cf = m.columnFamilies().stream().filter(c -> c.metadata().name().equals(name)).findFirst();
        return cf.orElseThrow(() -> new AssertionError("no " + name + " in " + m));
    }

    private static <T> List<T> list(Iterable<T> items) {
        List<T> list = new ArrayList<>();
        items.forEach(list::add);
        return list;
    }

    private static <T> List<T> append(List<T> list, T item) {
        List<T> longer = new ArrayList<>(list);
        longer.add(item);
        return longer;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private static void assertOneDamageLine(LogCapture logs, Path segment, String what) {
        List<String> warnings = logs.messages(Level.WARN);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains(segment.toString()) && warnings.get(0).contains(what), warnings.get(0));
        assertFalse(warnings.get(0).contains("\n"));
    }

    static void flip(Path file, long offset) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(offset);
            int b = f.read();
            f.seek(offset);
            f.write(b ^ 0x01);
        }
    }
}
