package sibyl.commitlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.commitlog.LogFixture.A;
import static sibyl.commitlog.LogFixture.B;
import static sibyl.commitlog.LogFixture.KS;
import static sibyl.commitlog.LogFixture.PERIODIC;
import static sibyl.commitlog.LogFixture.keys;
import static sibyl.commitlog.LogFixture.write;

import ch.qos.logback.classic.Level;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.LogPosition;
import sibyl.db.ResolvedMutation;
import sibyl.testing.LogCapture;

/** Replay steps over entries SSTables already hold, without checking or decoding them. */
class ReplaySkipTest {
    @TempDir
    Path dir;

    @Test
    void entriesBeforeTheReplayPointAreSteppedOverUndecoded() throws IOException {
        LogPosition middle;
        List<Long> starts = new ArrayList<>();
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 1 << 20)) {
            for (String k : keys("k", 0, 10)) starts.add(log.append(write(k)).offset());
            middle = log.position();
            for (String k : keys("k", 10, 20)) log.append(write(k));
        }
        // Damage the payload of a flushed entry: decoding or checksumming it would stop the
        // segment there and lose k10..k19; stepping over it by its length loses nothing.
        Path segment = onlySegment();
        flip(segment, starts.get(3) - 2);
        try (LogCapture logs = new LogCapture(CommitLogReplayer.class)) {
            assertEquals(keys("k", 10, 20), replay((ks, cf) -> cf.equals("A") ? middle : LogPosition.NONE));
            assertEquals(List.of(), logs.messages(Level.WARN));
        }
    }

    @Test
    void anEntryIsReplayedForTheColumnFamiliesNotYetFlushed() throws IOException {
        LogPosition end;
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 1 << 20)) {
            log.append(both("ab"));
            log.append(write(A, "a"));
            log.append(write(B, "b"));
            end = log.position();
        }
        List<String> replayed = new ArrayList<>();
        replayInto((ks, cf) -> cf.equals("A") ? end : LogPosition.NONE,
                m -> replayed.add(m.key() + ":" + m.columnFamilies().stream().map(c -> c.metadata().name()).toList()));
        assertEquals(List.of("ab:[B]", "b:[B]"), replayed);
    }

    @Test
    void damagePastTheReplayPointIsStillReportedOnceWithItsOffset() throws IOException {
        LogPosition middle;
        List<Long> ends = new ArrayList<>();
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 1 << 20)) {
            for (String k : keys("k", 0, 5)) log.append(write(k));
            middle = log.position();
            for (String k : keys("k", 5, 10)) ends.add(log.append(write(k)).offset());
        }
        Path segment = onlySegment();
        long seventhStart = ends.get(1); // k7 begins where k6 ends
        flip(segment, seventhStart + LogEntry.OVERHEAD + 3);
        try (LogCapture logs = new LogCapture(CommitLogReplayer.class)) {
            assertEquals(keys("k", 5, 7), replay((ks, cf) -> middle));
            List<String> warnings = logs.messages(Level.WARN);
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).contains(segment.toString()) && warnings.get(0).contains("offset " + seventhStart),
                    warnings.get(0));
        }
    }

    @Test
    void aTornTailAfterSkippedEntriesIsReportedOnce() throws IOException {
        LogPosition end;
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 1 << 20)) {
            for (String k : keys("k", 0, 5)) log.append(write(k));
            end = log.position();
        }
        Path segment = onlySegment();
        try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
            f.setLength(f.length() - 3);
        }
        try (LogCapture logs = new LogCapture(CommitLogReplayer.class)) {
            assertEquals(List.of(), replay((ks, cf) -> end));
            List<String> warnings = logs.messages(Level.WARN);
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).contains(segment.toString()) && warnings.get(0).contains("offset"), warnings.get(0));
        }
    }

    @Test
    void aFullySkippedSegmentIsDeletedOnceReplayed() throws IOException {
        LogPosition end;
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 1 << 20)) {
            for (String k : keys("k", 0, 5)) log.append(write(k));
            end = log.position();
        }
        Path segment = onlySegment();
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 1 << 20)) {
            log.recover(ks -> Optional.of(LogFixture.SCHEMA), (ks, cf) -> end, m -> { });
            assertTrue(!Files.exists(segment), "nothing in it to keep");
        }
    }

    @Test
    void steppedOverEntriesOfColumnFamiliesNoLongerConfiguredAreStillNamed() throws IOException {
        LogPosition end;
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 1 << 20)) {
            log.append(write(B, "b"));
            log.append(write(A, "a"));
            end = log.position();
        }
        sibyl.db.KSMetaData onlyA = new sibyl.db.KSMetaData(KS, 1, List.of(A));
        try (LogCapture logs = new LogCapture(CommitLogReplayer.class);
             CommitLog log = CommitLog.open(dir, PERIODIC, 1 << 20)) {
            List<String> keys = new ArrayList<>();
            log.recover(ks -> ks.equals(KS) ? Optional.of(onlyA) : Optional.empty(), (ks, cf) -> end, m -> keys.add(m.key()));
            assertEquals(List.of(), keys);
            List<String> warnings = logs.messages(Level.WARN);
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).contains("[" + KS + ".B]"), warnings.get(0));
        }
    }

    @Test
    void aClosedSegmentWhoseColumnFamiliesAreFlushedPastItIsNotRead() throws IOException {
        LogPosition middle;
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 256)) {
            for (String k : keys("k", 0, 20)) log.append(write(k));
            middle = log.position();
            for (String k : keys("k", 20, 25)) log.append(write(k));
        }
        List<Path> segments = segments();
        assertTrue(segments.size() > 3, segments.toString());
        Path first = segments.get(0);
        assertTrue(Files.exists(SegmentSummary.pathOf(first)), "a rotated segment has a summary");
        // A length that cannot fit: reading the first segment, even stepping over it, would report it.
        overwriteFirstLength(first);
        try (LogCapture logs = new LogCapture(CommitLogReplayer.class)) {
            assertEquals(keys("k", 20, 25), replay((ks, cf) -> middle));
            assertEquals(List.of(), logs.messages(Level.WARN));
        }
        assertTrue(!Files.exists(first) && !Files.exists(SegmentSummary.pathOf(first)), "deleted, summary and all");
    }

    @Test
    void aSegmentIsReadWhenItsSummaryNamesAColumnFamilyNotFlushedOrDoesNotCheckOut() throws IOException {
        LogPosition end;
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 256)) {
            for (int i = 0; i < 20; i++) log.append(write(i % 5 == 0 ? B : A, "k" + i));
            end = log.position();
        }
        Path first = segments().get(0);
        overwriteFirstLength(first);
        // B is not flushed: the first segment, which holds k0 of B, must be read.
        try (LogCapture logs = new LogCapture(CommitLogReplayer.class)) {
            replay((ks, cf) -> cf.equals("A") ? end : LogPosition.NONE);
            assertEquals(1, logs.messages(Level.WARN).size(), logs.messages(Level.WARN).toString());
        }
    }

    @Test
    void aDamagedSummaryIsNotBelieved() throws IOException {
        LogPosition end;
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 256)) {
            for (String k : keys("k", 0, 20)) log.append(write(k));
            end = log.position();
        }
        Path first = segments().get(0);
        overwriteFirstLength(first);
        flip(SegmentSummary.pathOf(first), 10);
        try (LogCapture logs = new LogCapture(CommitLogReplayer.class)) {
            assertEquals(List.of(), replay((ks, cf) -> end));
            assertEquals(1, logs.messages(Level.WARN).size(), "read, and its damage reported");
        }
    }

    @Test
    void aSummaryWhoseSegmentIsGoneIsRemovedAtOpen() throws IOException {
        // Left by a crash between deleting a summary's segment and the summary.
        Path segment = dir.resolve(CommitLogSegment.fileName(123));
        SegmentSummary.write(segment, new SegmentSummary.Contents(123, 20, java.util.Set.of()));
        Path orphan = SegmentSummary.pathOf(segment);
        assertTrue(Files.exists(orphan));
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 1 << 20)) {
            assertTrue(!Files.exists(orphan));
        }
    }

    @Test
    void entriesLargerThanTheReadBufferReplayWhole() throws IOException {
        byte[] big = new byte[3 << 20];
        new java.util.Random(7).nextBytes(big);
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 64 << 20)) {
            log.append(write("small"));
            log.append(new ResolvedMutation(KS, "big", List.of(ColumnFamily.empty(A).withCell(Column.live(new byte[]{'c'}, big, 1)))));
            log.append(write("after"));
        }
        List<ResolvedMutation> replayed = new ArrayList<>();
        replayInto(FlushedPositions.NONE, replayed::add);
        assertEquals(List.of("small", "big", "after"), replayed.stream().map(ResolvedMutation::key).toList());
        Column c = (Column) replayed.get(1).columnFamilies().get(0).cell(new byte[]{'c'});
        assertTrue(java.util.Arrays.equals(big, c.value()));
    }

    // ---- helpers

    private List<Path> segments() throws IOException {
        try (var files = Files.list(dir)) {
            return files.filter(f -> CommitLogSegment.idOf(f).isPresent())
                    .sorted((a, b) -> Long.compare(CommitLogSegment.idOf(a).orElseThrow(), CommitLogSegment.idOf(b).orElseThrow()))
                    .toList();
        }
    }

    private static void overwriteFirstLength(Path segment) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
            f.seek(SegmentHeader.SIZE);
            f.writeInt(Integer.MAX_VALUE);
        }
    }

    private static ResolvedMutation both(String key) {
        byte[] v = key.getBytes(StandardCharsets.UTF_8);
        return new ResolvedMutation(KS, key, List.of(
                ColumnFamily.empty(A).withCell(Column.live(new byte[]{'c'}, v, 1)),
                ColumnFamily.empty(B).withCell(Column.live(new byte[]{'c'}, v, 1))));
    }

    private List<String> replay(FlushedPositions flushed) throws IOException {
        List<String> keys = new ArrayList<>();
        replayInto(flushed, m -> keys.add(m.key()));
        return keys;
    }

    private void replayInto(FlushedPositions flushed, java.util.function.Consumer<ResolvedMutation> sink) throws IOException {
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 1 << 20)) {
            log.recover(ks -> ks.equals(KS) ? Optional.of(LogFixture.SCHEMA) : Optional.empty(), flushed, sink);
        }
    }

    private Path onlySegment() throws IOException {
        try (var files = Files.list(dir)) {
            List<Path> segments = files.filter(f -> CommitLogSegment.idOf(f).isPresent()).toList();
            assertEquals(1, segments.size(), segments.toString());
            return segments.get(0);
        }
    }

    private static void flip(Path file, long offset) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(offset);
            int b = f.read();
            f.seek(offset);
            f.write(b ^ 0x01);
        }
    }
}
