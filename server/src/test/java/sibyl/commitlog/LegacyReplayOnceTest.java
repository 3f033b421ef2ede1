package sibyl.commitlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.commitlog.C06Fixture.KS;
import static sibyl.commitlog.C06Fixture.replay;
import static sibyl.commitlog.C06Fixture.writer;
import static sibyl.commitlog.C06Row.standard;

import ch.qos.logback.classic.Level;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CFMetaData;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.LogPosition;
import sibyl.db.ResolvedMutation;
import sibyl.testing.LogCapture;

/** A Cassandra 0.6 segment is replayed until a replay is confirmed, then never again; it is never changed. */
class LegacyReplayOnceTest {
    @TempDir
    Path dir;

    @Test
    void aConfirmedReplayIsNotRepeatedAndTheSegmentStaysAsItWas() throws IOException {
        Path segment = oneSegment("a", "b");
        byte[] bytes = Files.readAllBytes(segment);
        assertEquals(List.of("a", "b"), keys(replay(dir, true)));
        try (LogCapture logs = new LogCapture(LegacySegments.class)) {
            C06Fixture.Replay again = replay(dir);
            assertEquals(List.of(), again.mutations());
            assertEquals(0, again.summary().legacySegments());
            assertEquals(1, again.summary().legacySegmentsReplayedBefore());
            List<String> info = logs.messages(Level.INFO);
            assertEquals(1, info.size(), info.toString());
            assertTrue(info.get(0).contains(segment.getFileName().toString()) && info.get(0).contains("roll back to 0.6"),
                    info.get(0));
        }
        assertArrayEquals(bytes, Files.readAllBytes(segment));
    }

    @Test
    void withoutAConfirmationTheNextStartReplaysAgain() throws IOException {
        oneSegment("a");
        assertEquals(List.of("a"), keys(replay(dir, false)));
        assertEquals(List.of("a"), keys(replay(dir, false)), "a crash before the flush: replayed again");
        assertFalse(Files.exists(dir.resolve(LegacyReplayManifest.FILE_NAME)));
    }

    @Test
    void aSegmentChangedSinceItWasListedIsReplayedAgain() throws IOException {
        Path segment = oneSegment("a");
        replay(dir, true);
        // A rollback to 0.6 that wrote on: the file is another segment now.
        Files.write(segment, new byte[]{0, 0, 0}, StandardOpenOption.APPEND);
        assertEquals(List.of("a"), keys(replay(dir, true)));
        assertEquals(List.of(), keys(replay(dir)), "listed again, as it is now");
    }

    @Test
    void onlyTheSegmentsNotListedAreReplayedAndTheListFollowsWhatIsThere() throws IOException {
        Path first = oneSegment("a");
        replay(dir, true);
        Files.delete(first); // the operator removed it, no longer wanting a rollback
        C06LogWriter w = new C06LogWriter(C06Fixture.numbering(JavaHashMapOrder.JAVA_8), 2_000);
        w.write(KS, "b", standard("Standard1").column("c", "b", 1));
        Path second = w.writeTo(dir).get(0);
        assertEquals(List.of("b"), keys(replay(dir, true)));
        assertEquals(List.of(second.getFileName().toString()),
                LegacyReplayManifest.read(dir).stream().map(LegacyReplayManifest.Entry::name).toList());
    }

    @Test
    void aListThatDoesNotCheckOutReplaysEverySegmentAgainWithAWarning() throws IOException {
        oneSegment("a");
        replay(dir, true);
        LegacyReplayTest.flip(dir.resolve(LegacyReplayManifest.FILE_NAME), 9);
        try (LogCapture logs = new LogCapture(LegacySegments.class)) {
            assertEquals(List.of("a"), keys(replay(dir, true)));
            assertEquals(1, logs.messages(Level.WARN).size());
            assertTrue(logs.messages(Level.WARN).get(0).contains("does not read"));
        }
        assertEquals(List.of(), keys(replay(dir)), "the list was written anew");
    }

    @Test
    void theListIsWrittenWholeUnderADotNameThatZeroSixPassesOver() throws IOException {
        Path segment = oneSegment("a");
        replay(dir, true);
        Path list = dir.resolve(LegacyReplayManifest.FILE_NAME);
        assertTrue(list.getFileName().toString().startsWith("."));
        assertEquals(LegacyReplayManifest.MAGIC, ByteBuffer.wrap(Files.readAllBytes(list)).getInt());
        assertFalse(Files.exists(dir.resolve(LegacyReplayManifest.TEMPORARY_NAME)));
        assertEquals(List.of(LegacyReplayManifest.fingerprint(segment)), LegacyReplayManifest.read(dir));
    }

    @Test
    void aTemporaryListLeftByACrashIsRemovedAndTheReplayRepeated() throws IOException {
        oneSegment("a");
        Files.write(dir.resolve(LegacyReplayManifest.TEMPORARY_NAME), new byte[]{0x53, 0x42}); // torn while written
        assertEquals(List.of("a"), keys(replay(dir)));
        assertFalse(Files.exists(dir.resolve(LegacyReplayManifest.TEMPORARY_NAME)));
    }

    /** Through a whole life of the log, Sibyl's own segments come and go; the 0.6 segment stays byte for byte. */
    @Test
    void sibylsFlushesAndDeletionsNeverTouchAZeroSixSegment() throws IOException {
        Path segment = oneSegment("a", "b");
        byte[] bytes = Files.readAllBytes(segment);
        CFMetaData standard1 = C06Fixture.KEYSPACE1.columnFamily("Standard1").orElseThrow();
        try (CommitLog log = CommitLog.open(dir, C06Fixture.PERIODIC, 1024)) {
            log.recover(C06Fixture.KEYSPACES, FlushedPositions.NONE, m -> { });
            for (int i = 0; i < 100; i++) {
                log.append(new ResolvedMutation(KS, "k" + i, List.of(ColumnFamily.empty(standard1)
                        .withCell(Column.live("c".getBytes(StandardCharsets.UTF_8), new byte[64], i)))));
            }
            assertTrue(log.segmentFiles().size() > 3);
            assertFalse(log.segmentFiles().contains(segment), "a 0.6 segment is not one of the log's own");
            LogPosition end = log.position();
            for (CFMetaData cf : C06Fixture.KEYSPACE1.columnFamilies()) log.flushed(KS, cf.name(), end);
            log.confirmLegacyReplay();
            assertEquals(1, log.segmentFiles().size(), "Sibyl's flushed segments are deleted");
        }
        assertArrayEquals(bytes, Files.readAllBytes(segment));
        try (var files = Files.list(dir)) {
            List<String> left = files.map(f -> f.getFileName().toString()).sorted().toList();
            assertEquals(List.of(".lock", LegacyReplayManifest.FILE_NAME, segment.getFileName().toString()), left);
        }
    }

    /** One 0.6 segment with a write of each key to Keyspace1.Standard1. */
    private Path oneSegment(String... keys) throws IOException {
        C06LogWriter w = writer(JavaHashMapOrder.JAVA_8);
        for (String k : keys) w.write(KS, k, standard("Standard1").column("c", k, 1));
        return w.writeTo(dir).get(0);
    }

    private static List<String> keys(C06Fixture.Replay replay) {
        return replay.mutations().stream().map(ResolvedMutation::key).toList();
    }
}
