package sibyl.commitlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.commitlog.C06Fixture.KS;
import static sibyl.commitlog.C06Fixture.contents;
import static sibyl.commitlog.C06Fixture.replay;
import static sibyl.commitlog.C06Fixture.writer;
import static sibyl.commitlog.C06Row.standard;

import ch.qos.logback.classic.Level;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.testing.LogCapture;

/** What Sibyl starts beside in CommitLogDirectory, what it refuses, and that refusing changes nothing. */
class CommitLogDirectoryScanTest {
    private static final String DRAIN = "drain the node that wrote it with its own Cassandra (nodetool drain), so"
            + " that its SSTables hold everything, then move the file out of CommitLogDirectory";
    private static final String MOVE = "move it out of CommitLogDirectory";

    @TempDir
    Path dir;

    @Test
    void laterVersionsAndUnknownFilesRefuseTheStartNamingEachAndNothingIsChanged() throws IOException {
        sibylSegmentWithEntries();
        Path legacy = writer(JavaHashMapOrder.JAVA_8).writeTo(dir).get(0);
        Files.write(dir.resolve("CommitLog-3-1700000000001.log"), new byte[64]);
        Files.write(dir.resolve("CommitLog-6-1700000000002.log"), new byte[]{1, 2});
        Files.write(dir.resolve("CommitLog-7-1700000000003_cdc.idx"), new byte[]{3});
        Files.write(dir.resolve("CommitLog-1700000000004.log.header"), new byte[]{4});
        Files.write(dir.resolve("CommitLog-1700000000005.log.tmp"), new byte[]{5});
        // A Cassandra 0.7 segment: its entries begin at once, with an int length and a long checksum of it.
        Files.write(dir.resolve("CommitLog-1700000000006.log"), ByteBuffer.allocate(40).putInt(28).putLong(12345).array());
        Files.writeString(dir.resolve("notes.txt"), "operator's notes");
        Files.createDirectory(dir.resolve("old"));
        Map<String, String> before = contents(dir);

        IOException e = assertThrows(IOException.class, () -> CommitLog.open(dir, C06Fixture.PERIODIC, 1 << 20));
        String m = e.getMessage();
        assertTrue(m.startsWith("refusing to start: the commit log directory " + dir + " holds 8 files Sibyl did not"
                + " write and cannot take over; no file in it was changed or deleted. "), m);
        for (String expected : List.of(
                "CommitLog-3-1700000000001.log is a commit log segment of Cassandra 2.0 (commit log format version 3): "
                        + DRAIN,
                "CommitLog-6-1700000000002.log is a commit log segment of Cassandra 3.0 to 3.11 (commit log format"
                        + " version 6): " + DRAIN,
                "CommitLog-7-1700000000003_cdc.idx is a change data capture index of Cassandra 3.8 or later: " + DRAIN,
                "CommitLog-1700000000004.log.header is a commit log segment header of Cassandra 0.7 or 0.8: " + DRAIN,
                "CommitLog-1700000000005.log.tmp is a commit log file of a Cassandra version after 0.6: " + DRAIN,
                "CommitLog-1700000000006.log is a commit log segment that is neither Sibyl's nor Cassandra 0.6's"
                        + " (Cassandra 0.7 to 1.1 name their segments alike), or a damaged one: " + DRAIN,
                "notes.txt is not a commit log file: " + MOVE,
                "old is a directory: " + MOVE)) {
            assertTrue(m.contains(expected), "missing '" + expected + "' in: " + m);
        }
        assertTrue(!m.contains(legacy.getFileName().toString()), "a 0.6 segment is not refused: " + m);
        assertEquals(without(before, ".lock"), without(contents(dir), ".lock"));
    }

    @Test
    void aZeroSixHeaderThatDoesNotReadIsRefused() throws IOException {
        byte[] header = ByteBuffer.allocate(40).putLong(30).putInt(LegacySegmentHeader.SERIALIZATION_MAGIC)
                .putInt(0x01020304).array();
        Files.write(dir.resolve("CommitLog-5.log"), header);
        IOException e = assertThrows(IOException.class, () -> CommitLog.open(dir, C06Fixture.PERIODIC, 1 << 20));
        assertTrue(e.getMessage().contains("CommitLog-5.log is a Cassandra 0.6 commit log segment whose header does"
                + " not read") && e.getMessage().contains("start that node's Cassandra 0.6 once"), e.getMessage());
    }

    @Test
    void aFileNamedLikeASummaryThatIsNotOneIsRefusedAndKept() throws IOException {
        Path notOurs = Files.writeString(dir.resolve("Summary-7.cfs"), "not a summary");
        IOException e = assertThrows(IOException.class, () -> CommitLog.open(dir, C06Fixture.PERIODIC, 1 << 20));
        assertTrue(e.getMessage().contains("Summary-7.cfs is named like a Sibyl segment summary but does not hold one"),
                e.getMessage());
        assertEquals("not a summary", Files.readString(notOurs));
    }

    @Test
    void sibylsOwnTemporaryFilesAreRemovedButOnlyWhenTheyHoldWhatSibylWrites() throws IOException {
        Path empty = Files.write(dir.resolve("Summary-5.cfs.tmp"), new byte[0]);
        Path torn = Files.write(dir.resolve("Summary-6.cfs.tmp"), ByteBuffer.allocate(6).putInt(SegmentSummary.MAGIC).array());
        try (CommitLog log = CommitLog.open(dir, C06Fixture.PERIODIC, 1 << 20)) {
            assertTrue(!Files.exists(empty) && !Files.exists(torn));
        }
        Path other = Files.writeString(dir.resolve("Summary-7.cfs.tmp"), "someone else's");
        IOException e = assertThrows(IOException.class, () -> CommitLog.open(dir, C06Fixture.PERIODIC, 1 << 20));
        assertTrue(e.getMessage().contains("Summary-7.cfs.tmp is named like the temporary file of a commit log segment"
                + " summary but does not hold one"), e.getMessage());
        assertEquals("someone else's", Files.readString(other));
    }

    @Test
    void filesThatHoldNothingAreLeftAsTheyAreAndNamedOnce() throws IOException {
        Path empty = Files.write(dir.resolve("CommitLog-11.log"), new byte[0]);
        Path zeros = Files.write(dir.resolve("CommitLog-12.log"), new byte[4096]);
        byte[] whole = writer(JavaHashMapOrder.JAVA_8).current().bytes();
        Path torn = Files.write(dir.resolve("CommitLog-13.log"), Arrays.copyOf(whole, 40)); // 0.6 stopped mid-header
        Path legacy = new C06LogWriter(C06Fixture.numbering(JavaHashMapOrder.JAVA_8), 14).writeTo(dir).get(0);
        Map<String, String> before = contents(dir);
        try (LogCapture logs = new LogCapture(CommitLog.class)) {
            C06Fixture.Replay replay = replay(dir, true);
            assertEquals(1, replay.summary().legacySegments());
            List<String> warnings = logs.messages(Level.WARN);
            assertEquals(1, warnings.size(), warnings.toString());
            for (Path p : List.of(empty, zeros, torn)) assertTrue(warnings.get(0).contains(p.getFileName().toString()));
            assertTrue(!warnings.get(0).contains(legacy.getFileName().toString()));
        }
        Map<String, String> after = contents(dir);
        for (Path p : List.of(empty, zeros, torn, legacy)) {
            String name = p.getFileName().toString();
            assertEquals(before.get(name), after.get(name), name);
        }
        try (CommitLog log = CommitLog.open(dir, C06Fixture.PERIODIC, 1 << 20)) {
            assertTrue(log.position().segmentId() > 14, "new ids pass every segment name");
        }
    }

    @Test
    void aLostAndFoundDirectoryIsNoConcern() throws IOException {
        Files.createDirectory(dir.resolve("lost+found"));
        try (CommitLog log = CommitLog.open(dir, C06Fixture.PERIODIC, 1 << 20)) {
            log.recover(C06Fixture.KEYSPACES, FlushedPositions.NONE, m -> { });
        }
        assertTrue(Files.isDirectory(dir.resolve("lost+found")));
    }

    @Test
    void theDirectoryIsCreatedWithItsParents() throws IOException {
        Path nested = dir.resolve("a/b/commitlog");
        try (CommitLog log = CommitLog.open(nested, C06Fixture.PERIODIC, 1 << 20)) {
            assertTrue(Files.isDirectory(nested));
        }
    }

    @Test
    void zeroSixAndSibylSegmentsTogetherAreBothReplayed() throws IOException {
        sibylSegmentWithEntries();
        C06LogWriter w = writer(JavaHashMapOrder.JAVA_8);
        w.write(KS, "legacy", standard("Standard1").column("c", "1", 1));
        w.writeTo(dir);
        C06Fixture.Replay replay = replay(dir);
        assertEquals(List.of("legacy", "sibyl"), replay.mutations().stream().map(m -> m.key()).toList());
        assertEquals(2, replay.summary().segments());
        assertEquals(2, replay.summary().entries());
        assertEquals(1, replay.summary().legacySegments());
    }

    /** Leaves one Sibyl segment holding an unflushed entry of Keyspace1.Standard1, key "sibyl". */
    private void sibylSegmentWithEntries() throws IOException {
        try (CommitLog log = CommitLog.open(dir, C06Fixture.PERIODIC, 1 << 20)) {
            sibyl.db.CFMetaData standard1 = C06Fixture.KEYSPACE1.columnFamily("Standard1").orElseThrow();
            log.append(new sibyl.db.ResolvedMutation(KS, "sibyl", List.of(sibyl.db.ColumnFamily.empty(standard1)
                    .withCell(sibyl.db.Column.live(new byte[]{'c'}, new byte[]{'v'}, 1)))));
        }
    }

    private static Map<String, String> without(Map<String, String> files, String name) {
        Map<String, String> copy = new java.util.TreeMap<>(files);
        copy.remove(name);
        return copy;
    }
}
