package sibyl.commitlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.commitlog.LogFixture.A;
import static sibyl.commitlog.LogFixture.B;
import static sibyl.commitlog.LogFixture.BATCH;
import static sibyl.commitlog.LogFixture.KS;
import static sibyl.commitlog.LogFixture.PERIODIC;
import static sibyl.commitlog.LogFixture.SCHEMA;
import static sibyl.commitlog.LogFixture.keys;
import static sibyl.commitlog.LogFixture.replayKeys;
import static sibyl.commitlog.LogFixture.write;

import ch.qos.logback.classic.Level;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.LogPosition;
import sibyl.db.ResolvedMutation;
import sibyl.db.WriteFailedException;
import sibyl.testing.LogCapture;

class CommitLogTest {
    @TempDir
    Path dir;

    @Test
    void entriesComeBackInOrderAcrossRotatedSegments() throws IOException {
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 1024)) {
            for (String k : keys("k", 0, 200)) log.append(write(k));
            assertTrue(log.segmentFiles().size() > 5, "rotated: " + log.segmentFiles());
        }
        for (Path f : segmentsOnDisk()) {
            assertTrue(Files.size(f) < 1024 + 200, f + " stays near the threshold: " + Files.size(f));
        }
        assertEquals(keys("k", 0, 200), replayKeys(dir));
    }

    @Test
    void segmentIdsGrowAcrossRestartsAndNamesCarryThem() throws IOException {
        long first;
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 1 << 20)) {
            log.append(write("a"));
            first = log.position().segmentId();
            assertEquals(CommitLogSegment.fileName(first), log.segmentFiles().get(0).getFileName().toString());
        }
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 1 << 20)) {
            assertTrue(log.position().segmentId() > first);
            LogPosition before = log.position();
            LogPosition after = log.append(write("b"));
            assertTrue(after.compareTo(before) > 0);
            assertEquals(after, log.position());
        }
    }

    @Test
    void tornTailYieldsEverythingBeforeItAndOneLine() throws IOException {
        Path segment = writeKeys(20);
        long size = Files.size(segment);
        truncate(segment, size - 5); // inside the last entry
        try (LogCapture logs = new LogCapture(CommitLogReplayer.class)) {
            assertEquals(keys("k", 0, 19), replayKeys(dir));
            assertOneDamageLine(logs, segment);
        }
    }

    @Test
    void tornEntryHeaderIsDetected() throws IOException {
        Path segment = writeKeys(3);
        long size = Files.size(segment);
        try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
            f.seek(size);
            f.write(new byte[]{0, 0, 1}); // three bytes of a length that was never finished
        }
        try (LogCapture logs = new LogCapture(CommitLogReplayer.class)) {
            assertEquals(keys("k", 0, 3), replayKeys(dir));
            assertOneDamageLine(logs, segment);
        }
    }

    @Test
    void aSegmentNotClosedEndsInZerosThatReplayTakesForItsEnd() throws IOException {
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 1 << 20)) {
            for (String k : keys("k", 0, 20)) log.append(write(k));
            Path active = log.segmentFiles().get(0);
            assertTrue(Files.size(active) > log.position().offset(), "the mapped window grew the file ahead of the entries");
            try (LogCapture logs = new LogCapture(CommitLogReplayer.class)) {
                assertEquals(keys("k", 0, 20), replayOnly(log)); // as a restart after kill -9 sees the files
                assertEquals(List.of(), logs.messages(Level.WARN));
            }
        }
        Path segment = segmentsOnDisk().get(0);
        assertEquals(entryStarts(segment).get(20), Files.size(segment), "closing cut the file back to its last entry");
    }

    @Test
    void zerosFollowedByEntriesAreDamageNotTheEnd() throws IOException {
        Path segment = writeKeys(20);
        long tenth = entryStarts(segment).get(10);
        try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
            f.seek(tenth);
            f.write(new byte[LogEntry.OVERHEAD]); // a framing lost to zeros, entries after it intact
        }
        try (LogCapture logs = new LogCapture(CommitLogReplayer.class)) {
            assertEquals(keys("k", 0, 10), replayKeys(dir));
            assertOneDamageLine(logs, segment);
        }
    }

    @Test
    void entriesLargerThanAWindowCrossIntoTheNextAndSyncWhole() throws IOException {
        byte[] big = new byte[300_000]; // several of the smallest windows
        for (int i = 0; i < big.length; i++) big[i] = (byte) (i * 31 + 7);
        List<byte[]> values = new ArrayList<>();
        for (SyncMode mode : List.of(BATCH, PERIODIC)) {
            Path at = Files.createDirectories(dir.resolve(mode.getClass().getSimpleName()));
            try (CommitLog log = CommitLog.open(at, mode, 100_000)) {
                log.append(write("small"));
                log.append(new ResolvedMutation(KS, "big", List.of(ColumnFamily.empty(A)
                        .withCell(Column.live(new byte[]{'c'}, big, 1)))));
                log.append(write("after"));
                assertEquals(2, log.segmentFiles().size(), "the big entry passed the threshold: a new segment after it");
            }
            values.clear();
            try (CommitLog log = CommitLog.open(at, PERIODIC, 1 << 20)) {
                log.recover(ks -> ks.equals(KS) ? Optional.of(SCHEMA) : Optional.empty(),
                        m -> values.add(((Column) m.columnFamilies().get(0).cells().iterator().next()).value()));
            }
            assertEquals(3, values.size(), mode.toString());
            assertArrayEquals(big, values.get(1), mode.toString());
        }
    }

    @Test
    void flippedPayloadByteStopsTheSegmentThere() throws IOException {
        Path segment = writeKeys(20);
        long tenth = entryStarts(segment).get(10);
        flip(segment, tenth + LogEntry.OVERHEAD + 3);
        try (LogCapture logs = new LogCapture(CommitLogReplayer.class)) {
            assertEquals(keys("k", 0, 10), replayKeys(dir));
            assertOneDamageLine(logs, segment);
            assertTrue(logs.messages(Level.WARN).get(0).contains("offset " + tenth), logs.messages(Level.WARN).get(0));
        }
    }

    @Test
    void flippedLengthByteIsCaughtByTheChecksum() throws IOException {
        Path segment = writeKeys(20);
        flip(segment, entryStarts(segment).get(5) + 3); // lowest byte of entry 5's length: still fits the file
        try (LogCapture logs = new LogCapture(CommitLogReplayer.class)) {
            assertEquals(keys("k", 0, 5), replayKeys(dir));
            assertOneDamageLine(logs, segment);
        }
    }

    @Test
    void damageInOneSegmentDoesNotStopTheNext() throws IOException {
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 256)) {
            for (String k : keys("k", 0, 30)) log.append(write(k));
        }
        List<Path> files = segmentsOnDisk();
        assertTrue(files.size() >= 3, files.toString());
        Path first = files.get(0);
        int inFirst = countEntries(first);
        flip(first, Files.size(first) - 1); // last byte of its last entry
        try (LogCapture logs = new LogCapture(CommitLogReplayer.class)) {
            List<String> expected = new ArrayList<>(keys("k", 0, inFirst - 1));
            expected.addAll(keys("k", inFirst, 30));
            assertEquals(expected, replayKeys(dir));
            assertOneDamageLine(logs, first);
        }
    }

    @Test
    void tornSegmentHeaderSkipsThatSegmentOnly() throws IOException {
        writeKeys(4);
        Path torn = dir.resolve(CommitLogSegment.fileName(1));
        Files.write(torn, new byte[]{0x53, 0x42}); // a crash right after creating a segment
        try (LogCapture logs = new LogCapture(CommitLogReplayer.class)) {
            assertEquals(keys("k", 0, 4), replayKeys(dir));
            assertOneDamageLine(logs, torn);
        }
    }

    @Test
    void aNewerSegmentFormatRefusesToStart() throws IOException {
        writeKeys(1);
        Path segment = segmentsOnDisk().get(0);
        long id = CommitLogSegment.idOf(segment).orElseThrow();
        byte[] header = SegmentHeader.encode(id);
        header[7] = 2; // version 2, checksum fixed up below
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(header, 0, 16);
        java.nio.ByteBuffer.wrap(header).putInt(16, (int) crc.getValue());
        try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
            f.write(header);
        }
        IOException e = assertThrows(IOException.class, () -> replayKeys(dir));
        assertTrue(e.getMessage().contains("version 2"), e.getMessage());
    }

    @Test
    void flushedDeletesCleanSegmentsButNeverTheActiveOne() throws IOException {
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 512)) {
            for (int i = 0; i < 40; i++) log.append(write(i % 2 == 0 ? A : B, "k" + i));
            int segments = log.segmentFiles().size();
            assertTrue(segments >= 3, "rotated: " + segments);
            LogPosition end = log.position();

            log.flushed(KS, "A", end);
            assertEquals(segments, log.segmentFiles().size(), "B still dirty everywhere");

            log.flushed(KS, "B", end);
            assertEquals(1, log.segmentFiles().size(), "only the active segment is left");
            assertEquals(end.segmentId(), log.position().segmentId());
            assertTrue(Files.exists(log.segmentFiles().get(0)));

            log.append(write(A, "after"));
            log.flushed(KS, "A", end); // a position before "after": must not forget it
            List<String> replayed = replayOnly(log);
            assertEquals("after", replayed.get(replayed.size() - 1), replayed.toString());
        }
    }

    @Test
    void flushedUpToAnEarlierPositionKeepsLaterSegments() throws IOException {
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 512)) {
            for (int i = 0; i < 20; i++) log.append(write("k" + i));
            LogPosition middle = log.position();
            for (int i = 20; i < 40; i++) log.append(write("k" + i));
            log.flushed(KS, "A", middle);
            List<Path> left = log.segmentFiles();
            assertTrue(left.stream().allMatch(f -> CommitLogSegment.idOf(f).orElseThrow() >= middle.segmentId()), left.toString());
        }
        List<String> replayed = replayKeys(dir);
        assertTrue(replayed.containsAll(keys("k", 20, 40)), replayed.toString());
    }

    @Test
    void replayedSegmentsAreDeletedOnceFlushed() throws IOException {
        writeKeys(10);
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 1 << 20)) {
            log.recover(ks -> java.util.Optional.of(LogFixture.SCHEMA), m -> { });
            assertEquals(2, log.segmentFiles().size(), "the replayed one and the new one");
            log.flushed(KS, "A", log.position());
            assertEquals(1, log.segmentFiles().size());
        }
        assertEquals(List.of(), replayKeys(dir));
    }

    @Test
    void aFailedWriteSurfacesAndLeavesWhatWasWrittenIntact() throws IOException {
        failedWriteSurfaces(PERIODIC);
    }

    @Test
    void aFailedBatchWriteSurfacesAndLeavesWhatWasWrittenIntact() throws IOException {
        failedWriteSurfaces(BATCH);
    }

    private void failedWriteSurfaces(SyncMode mode) throws IOException {
        try (CommitLog log = CommitLog.open(dir, mode, 1 << 20)) {
            for (String k : keys("k", 0, 5)) log.append(write(k));
            log.activeSegment().abandon(); // the file is closed under the log, as a failing disk would
            WriteFailedException e = assertThrows(WriteFailedException.class, () -> log.append(write("lost")));
            assertTrue(e.getMessage().startsWith("write failed: could not write commit log segment"), e.getMessage());
            for (String k : keys("k", 5, 10)) log.append(write(k)); // goes on in a new segment
        }
        assertEquals(keys("k", 0, 10), replayKeys(dir));
    }

    @Test
    void appendAfterCloseFails() throws IOException {
        for (SyncMode mode : List.of(PERIODIC, BATCH)) {
            CommitLog log = CommitLog.open(dir, mode, 1 << 20);
            log.close();
            log.close();
            WriteFailedException e = assertThrows(WriteFailedException.class, () -> log.append(write("x")));
            assertTrue(e.getMessage().contains("closed"), e.getMessage());
        }
    }

    @Test
    void aDirectoryServesOneLogAtATime() throws IOException {
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 1 << 20)) {
            IOException e = assertThrows(IOException.class, () -> CommitLog.open(dir, BATCH, 1 << 20));
            assertTrue(e.getMessage().contains("in use"), e.getMessage());
            log.append(write("still mine"));
        }
        assertEquals(List.of("still mine"), replayKeys(dir));
    }

    @Test
    void anUnusedSegmentIsRemovedOnClose() throws IOException {
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 1 << 20)) {
            assertEquals(1, log.segmentFiles().size());
        }
        assertEquals(List.of(), segmentsOnDisk());
    }

    @Test
    void periodicModeSyncsInTheBackground() throws Exception {
        try (CommitLog log = CommitLog.open(dir, new SyncMode.Periodic(Duration.ofMillis(20)), 1 << 20)) {
            log.append(write("a"));
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (log.syncCount() == 0) {
                assertTrue(System.nanoTime() < deadline, "a periodic sync within 10 s");
                Thread.sleep(5);
            }
            long synced = log.syncCount();
            Thread.sleep(100); // nothing new written: no more fsyncs
            assertEquals(synced, log.syncCount());
        }
    }

    @Test
    void positionsOrderBySegmentThenOffset() {
        assertTrue(new LogPosition(1, 900).compareTo(new LogPosition(2, 20)) < 0);
        assertTrue(new LogPosition(2, 20).compareTo(new LogPosition(2, 21)) < 0);
        assertEquals(0, new LogPosition(2, 20).compareTo(new LogPosition(2, 20)));
        assertTrue(LogPosition.NONE.compareTo(new LogPosition(0, 0)) < 0);
    }

    // ---- helpers

    /** Writes k0..k{n-1} into one segment and closes the log: that segment. */
    private Path writeKeys(int n) throws IOException {
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 1 << 20)) {
            for (String k : keys("k", 0, n)) log.append(write(k));
            assertEquals(1, log.segmentFiles().size());
            return log.segmentFiles().get(0);
        }
    }

    private List<String> replayOnly(CommitLog log) throws IOException {
        // Replays a copy of the files the log holds, as a restart would see them.
        Path copy = Files.createDirectories(dir.resolve("copy"));
        for (Path f : log.segmentFiles()) Files.copy(f, copy.resolve(f.getFileName()));
        return replayKeys(copy);
    }

    private List<Path> segmentsOnDisk() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> CommitLogSegment.idOf(f).isPresent())
                    .sorted((a, b) -> Long.compare(CommitLogSegment.idOf(a).orElseThrow(), CommitLogSegment.idOf(b).orElseThrow()))
                    .toList();
        }
    }

    /** Where each entry of a sound segment begins. */
    private static List<Long> entryStarts(Path segment) throws IOException {
        List<Long> starts = new ArrayList<>(List.of((long) SegmentHeader.SIZE));
        SegmentReader.read(segment, CommitLogSegment.idOf(segment).orElseThrow(), e -> starts.add(e.end()));
        return starts;
    }

    private static int countEntries(Path segment) throws IOException {
        return (int) SegmentReader.read(segment, CommitLogSegment.idOf(segment).orElseThrow(), e -> { }).entries();
    }

    private static void assertOneDamageLine(LogCapture logs, Path segment) {
        List<String> warnings = logs.messages(Level.WARN);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains(segment.toString()) && warnings.get(0).contains("offset"), warnings.get(0));
        assertFalse(warnings.get(0).contains("\n"));
    }

    private static void truncate(Path file, long size) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(size);
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
