package sibyl.commitlog;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.db.ColumnFamily;
import sibyl.db.KSMetaData;
import sibyl.db.LogPosition;
import sibyl.db.ResolvedMutation;
import sibyl.db.WriteFailedException;
import sibyl.db.WriteLog;

/**
 * The commit log: every resolved mutation is appended here before it is applied, so the
 * memtables can be rebuilt after a crash.
 *
 * <h2>On disk</h2>
 * A directory (CommitLogDirectory) of segment files {@code CommitLog-<id>.log}. Ids only grow:
 * each new segment takes {@code max(now in ms, previous id + 1)}, previous ids including those
 * found at start-up, so file names sort by age. A segment is:
 * <pre>
 * header   magic:int 0x5342434C ("SBCL")  version:int 1  segmentId:long  crc:int   (CRC32 of the 16 bytes before)
 * entry*   length:int  crc:int  payload:byte[length]
 *          crc is CRC32 of the 4 length bytes followed by the payload, so a torn length is caught
 *          payload is a {@link ResolvedMutationSerializer} mutation
 * </pre>
 * A segment that will get no more entries (moved past, or closed while holding unflushed
 * entries) gets a {@link SegmentSummary} beside it, {@code Summary-<id>.cfs}: its length
 * and the column families it holds unflushed entries of, so replay can pass it over unread.
 * A file {@code .lock} in the directory is held locked while a log is open, so two nodes
 * configured with the same directory cannot write over each other.
 * A new segment is begun when the active one has reached CommitLogRotationThresholdInMB (it
 * may overshoot by one write). Files are created with their header fsynced and their directory
 * entry synced. Entries are only ever appended, through memory-mapped windows that grow the file
 * ahead of them ({@link CommitLogSegment}): the file of a segment not closed cleanly ends in zeros,
 * which replay takes for the end; closing cuts the file back to its last entry. A write that fails
 * is cut off again, so what is on disk is always whole entries, perhaps followed by zeros or by a
 * torn tail from a crash.
 *
 * <h2>Replay</h2>
 * {@link #open} lists the segments already there and begins a new one after them;
 * {@link #recover} then reads the old ones oldest first (see {@link CommitLogReplayer}): a torn
 * or corrupt entry ends that segment's replay with one logged line. Entries every column family
 * of which its SSTables already hold are stepped over by their length, neither checksummed nor
 * decoded: a restart after many flushed writes costs a sequential read of the kept segments.
 * A segment whose summary shows every column family it holds flushed past its end is not read
 * at all.
 *
 * <h2>Forgetting</h2>
 * Each segment remembers which column families have entries in it not yet flushed. When flush
 * reports {@link #flushed} a column family up to a position, the segments before it are clean
 * for that column family; a segment clean for all of them, other than the active one, is deleted.
 */
public final class CommitLog implements WriteLog {
    private static final Logger log = LoggerFactory.getLogger(CommitLog.class);

    /** An entry framed for the file, and the column families it holds. */
    record Pending(byte[] frame, Set<ColumnFamilyId> columnFamilies) {
    }

    /** Where a group of entries went: the segment, where the group began, where each entry ends. */
    record Written(CommitLogSegment segment, long start, List<LogPosition> ends) {
    }

    private final Path directory;
    private final DirectoryLock directoryLock;
    private final long segmentSizeBytes;
    private final Syncer syncer;
    private final boolean syncsBeforeAcknowledging;
    private final AtomicLong syncs = new AtomicLong();
    private final AtomicLong syncNanos = new AtomicLong();
    private final AtomicLong entries = new AtomicLong();
    private final AtomicLong bytesWritten = new AtomicLong();
    private final ReentrantLock lock = new ReentrantLock();
    // Guarded by lock:
    private final WriteFailureReport failures = new WriteFailureReport(log);
    private final TreeMap<Long, CommitLogSegment> segments = new TreeMap<>();
    private CommitLogSegment active; // null after a failure, until the next write begins a new segment
    private long lastId;
    private boolean closed;
    private List<CommitLogReplayer.SegmentFile> unreplayed;

    private CommitLog(Path directory, DirectoryLock directoryLock, long segmentSizeBytes, SyncMode sync,
                      List<CommitLogReplayer.SegmentFile> found) {
        this.directory = directory;
        this.directoryLock = directoryLock;
        this.segmentSizeBytes = segmentSizeBytes;
        this.unreplayed = List.copyOf(found);
        this.lastId = found.isEmpty() ? 0 : found.get(found.size() - 1).id();
        this.syncer = Syncer.forMode(sync, this);
        this.syncsBeforeAcknowledging = sync instanceof SyncMode.Batch;
    }

    /** Whether {@link #append} waits for its entry to be synced to disk (batch mode) rather than returning at once. */
    public boolean syncsBeforeAcknowledging() {
        return syncsBeforeAcknowledging;
    }

    /** Opens the log its settings describe; see {@link #open(Path, SyncMode, long)}. */
    public static CommitLog open(CommitLogSettings settings) throws IOException {
        return open(settings.directory(), settings.sync(), settings.segmentSizeBytes());
    }

    /**
     * Opens the log in {@code directory} (created if missing), notes the segments already there
     * for {@link #recover}, and begins a new segment after them.
     *
     * @throws IOException when the directory cannot be listed or a segment cannot be created
     */
    public static CommitLog open(Path directory, SyncMode sync, long segmentSizeBytes) throws IOException {
        if (segmentSizeBytes <= 0) throw new IllegalArgumentException("segment size must be positive: " + segmentSizeBytes);
        Files.createDirectories(directory);
        DirectoryLock directoryLock = DirectoryLock.acquire(directory);
        try {
            CommitLog commitLog = new CommitLog(directory, directoryLock, segmentSizeBytes, sync, list(directory));
            commitLog.lock.lock();
            try {
                commitLog.beginSegment();
            } catch (IOException e) {
                throw new IOException("could not create a commit log segment in " + directory + ": " + e.getMessage(), e);
            } finally {
                commitLog.lock.unlock();
            }
            commitLog.syncer.start();
            return commitLog;
        } catch (IOException | RuntimeException e) {
            directoryLock.close();
            throw e;
        }
    }

    /**
     * Replays the segments found at {@link #open}, once, before the first write: each sound
     * entry goes to {@code sink}. Segments that held nothing still configured are deleted; the
     * others are kept until their column families are {@link #flushed}.
     *
     * @param schema the keyspaces configured now, by name; deltas of other column families are skipped
     * @throws IOException when a segment cannot be read at all, or is of a newer format
     */
    public ReplaySummary recover(Function<String, Optional<KSMetaData>> schema, Consumer<ResolvedMutation> sink)
            throws IOException {
        return recover(schema, FlushedPositions.NONE, sink);
    }

    /**
     * As {@link #recover(Function, Consumer)}, skipping what SSTables already hold: a column
     * family's delta in an entry ending at or before {@code flushed.upTo(ks, cf)} is not
     * replayed, and does not keep its segment alive.
     */
    public ReplaySummary recover(Function<String, Optional<KSMetaData>> schema,
                                 FlushedPositions flushed, Consumer<ResolvedMutation> sink)
            throws IOException {
        List<CommitLogReplayer.SegmentFile> toReplay;
        lock.lock();
        try {
            toReplay = unreplayed;
            unreplayed = List.of();
        } finally {
            lock.unlock();
        }
        CommitLogReplayer.Result result;
        try {
            result = CommitLogReplayer.replay(toReplay, schema, flushed, sink);
        } catch (SegmentHeader.UnsupportedVersionException e) {
            throw new IOException(e.getMessage() + "; in " + directory, e);
        }
        lock.lock();
        try {
            for (CommitLogReplayer.Replayed r : result.segments()) {
                if (r.dirty().isEmpty()) {
                    SegmentSummary.delete(r.segment().file());
                    Files.deleteIfExists(r.segment().file());
                } else {
                    segments.put(r.segment().id(),
                            CommitLogSegment.recovered(r.segment().file(), r.segment().id(), r.end(), r.dirty()));
                }
            }
        } finally {
            lock.unlock();
        }
        return result.summary();
    }

    @Override
    public LogPosition append(ResolvedMutation mutation) {
        List<ColumnFamily> rows = mutation.columnFamilies();
        Set<ColumnFamilyId> cfs;
        if (rows.size() == 1) {
            cfs = Set.of(new ColumnFamilyId(mutation.keyspace(), rows.get(0).metadata().name()));
        } else {
            cfs = new HashSet<>();
            for (ColumnFamily cf : rows) cfs.add(new ColumnFamilyId(mutation.keyspace(), cf.metadata().name()));
        }
        return syncer.append(new Pending(LogEntry.frame(mutation), cfs));
    }

    /**
     * The end of the log. When a failure left no active segment, the end of the last one: the
     * next write goes to a new segment, after it.
     */
    @Override
    public LogPosition position() {
        lock.lock();
        try {
            return active != null ? active.endPosition() : new LogPosition(lastId, Long.MAX_VALUE);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void flushed(String keyspace, String columnFamily, LogPosition upTo) {
        ColumnFamilyId cf = new ColumnFamilyId(keyspace, columnFamily);
        lock.lock();
        try {
            Iterator<CommitLogSegment> it = segments.headMap(upTo.segmentId(), true).values().iterator();
            while (it.hasNext()) {
                CommitLogSegment segment = it.next();
                segment.markClean(cf, upTo);
                if (segment != active && segment.isClean()) {
                    try {
                        segment.delete();
                        it.remove();
                        log.debug("Deleted commit log segment {}: all its entries are flushed", segment.file());
                    } catch (IOException e) {
                        log.warn("Could not delete flushed commit log segment {}: {}", segment.file(), e.toString());
                    }
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Entries written since open. */
    public long entryCount() {
        return entries.get();
    }

    /** fsyncs performed so far (by sync threads, rotations and close). */
    public long syncCount() {
        return syncs.get();
    }

    /** Time spent in those fsyncs, in nanoseconds. */
    public long syncNanos() {
        return syncNanos.get();
    }

    /** Bytes of entries written since open (what reached the files; a write cut off again is not counted). */
    public long bytesWritten() {
        return bytesWritten.get();
    }

    /** Bytes of the segment files the log holds now. */
    public long diskBytes() {
        lock.lock();
        try {
            long bytes = 0;
            for (CommitLogSegment s : segments.values()) bytes += s.end();
            return bytes;
        } finally {
            lock.unlock();
        }
    }

    /** The segment files the log holds now, oldest first (the active one last). */
    public List<Path> segmentFiles() {
        lock.lock();
        try {
            List<Path> files = new ArrayList<>();
            for (CommitLogSegment s : segments.values()) files.add(s.file());
            return files;
        } finally {
            lock.unlock();
        }
    }

    public Path directory() {
        return directory;
    }

    /** The segment written to now, or null after a failure; for tests that break it. */
    CommitLogSegment activeSegment() {
        lock.lock();
        try {
            return active;
        } finally {
            lock.unlock();
        }
    }

    /** Writes what was accepted, syncs and closes the files; later appends fail. Idempotent. */
    @Override
    public void close() {
        syncer.close();
        lock.lock();
        try {
            if (closed) return;
            closed = true;
            log.info("Commit log closed: {} entries written with {} fsyncs since start", entries.get(), syncs.get());
            CommitLogSegment last = active;
            active = null;
            if (last != null) closeLast(last);
            directoryLock.close();
        } finally {
            lock.unlock();
        }
    }

    private void closeLast(CommitLogSegment last) {
        try {
            timedSync(last);
            last.close();
            // Empty, or every entry flushed (after a drain): nothing for the next start to replay.
            if (!last.hasEntries() || last.isClean()) {
                last.delete();
                segments.remove(last.id());
            } else {
                writeSummary(last);
            }
        } catch (IOException e) {
            log.error("Could not sync and close commit log segment {}", last.file(), e);
            last.abandon();
        }
    }

    // ---- for the syncers

    /**
     * Appends whole entries to the active segment, beginning a new one first when it is full.
     * Does not sync.
     *
     * @throws WriteFailedException when the log is closed or the segment could not be written
     *                              (then it was cut back and given up; the next write begins a new one)
     */
    Written write(List<Pending> entries) {
        byte[] bytes;
        int length;
        if (entries.size() == 1) {
            bytes = entries.get(0).frame();
            length = bytes.length;
        } else {
            length = 0;
            for (Pending p : entries) length = Math.addExact(length, p.frame().length);
            bytes = new byte[length];
            int at = 0;
            for (Pending p : entries) {
                System.arraycopy(p.frame(), 0, bytes, at, p.frame().length);
                at += p.frame().length;
            }
        }
        lock.lock();
        try {
            if (closed) throw new WriteFailedException("write failed: the commit log is closed");
            CommitLogSegment segment;
            try {
                segment = segmentForWrite();
            } catch (WriteFailedException e) {
                failures.failed(e);
                throw e;
            }
            long start = segment.end();
            try {
                segment.write(bytes, length);
            } catch (IOException e) {
                giveUp(segment);
                WriteFailedException f = failure("write", segment, e);
                failures.failed(f);
                throw f;
            }
            failures.succeeded();
            List<LogPosition> ends = new ArrayList<>(entries.size());
            long end = start;
            for (Pending p : entries) {
                end += p.frame().length;
                ends.add(new LogPosition(segment.id(), end));
                for (ColumnFamilyId cf : p.columnFamilies()) segment.markDirty(cf, end);
            }
            this.entries.addAndGet(entries.size());
            bytesWritten.addAndGet(length);
            return new Written(segment, start, ends);
        } finally {
            lock.unlock();
        }
    }

    /**
     * fsyncs a group {@link #write} just wrote (batch mode, where only the sync thread writes).
     * On failure the group is cut off again and the segment given up.
     */
    void sync(Written written) {
        CommitLogSegment segment = written.segment();
        try {
            timedSync(segment);
        } catch (IOException e) {
            lock.lock();
            try {
                try {
                    segment.truncate(written.start());
                } catch (IOException | RuntimeException again) {
                    e.addSuppressed(again);
                }
                giveUp(segment);
                WriteFailedException f = failure("sync", segment, e);
                failures.failed(f);
                throw f;
            } finally {
                lock.unlock();
            }
        }
    }

    /** fsyncs the active segment if it has unsynced entries (periodic mode). */
    void syncActive() {
        CommitLogSegment segment;
        lock.lock();
        try {
            segment = active;
        } finally {
            lock.unlock();
        }
        if (segment == null) return;
        try {
            timedSync(segment);
        } catch (IOException e) {
            log.error("Commit log sync of {} failed; writes acknowledged since its last sync may be lost."
                    + " Continuing in a new segment", segment.file(), e);
            lock.lock();
            try {
                if (active == segment) giveUp(segment);
            } finally {
                lock.unlock();
            }
        }
    }

    /** fsyncs a segment if it has unsynced entries, counting the sync and its time. */
    private void timedSync(CommitLogSegment segment) throws IOException {
        long start = System.nanoTime();
        if (segment.sync()) {
            syncNanos.addAndGet(System.nanoTime() - start);
            syncs.incrementAndGet();
        }
    }

    // ---- segments (under lock)

    private CommitLogSegment segmentForWrite() {
        if (active != null && active.end() >= segmentSizeBytes) {
            CommitLogSegment full = active;
            active = null;
            try {
                timedSync(full);
                full.close();
                writeSummary(full);
            } catch (IOException e) {
                log.error("Could not sync commit log segment {} when moving past it", full.file(), e);
                full.abandon();
            }
        }
        if (active == null) {
            try {
                beginSegment();
            } catch (IOException e) {
                throw new WriteFailedException("write failed: could not create a commit log segment in " + directory
                        + ": " + e, e);
            }
        }
        return active;
    }

    private void beginSegment() throws IOException {
        long id = Math.max(System.currentTimeMillis(), lastId + 1);
        CommitLogSegment segment = CommitLogSegment.create(directory, id, segmentSizeBytes);
        lastId = id;
        segments.put(id, segment);
        active = segment;
    }

    /**
     * Stops writing to a segment that failed. Its entries stay (and it stays until flushed);
     * an empty one is deleted.
     */
    private void giveUp(CommitLogSegment segment) {
        if (active == segment) active = null;
        segment.abandon();
        if (segment.isClean()) {
            try {
                segment.delete();
                segments.remove(segment.id());
            } catch (IOException e) {
                log.debug("Could not delete failed empty segment {}", segment.file(), e);
            }
        }
    }

    /** Best effort: without a summary the next start reads the segment entry by entry. */
    private static void writeSummary(CommitLogSegment segment) {
        try {
            segment.writeSummary();
        } catch (IOException e) {
            log.warn("Could not write the summary of commit log segment {}: {}", segment.file(), e.toString());
        }
    }

    private static WriteFailedException failure(String what, CommitLogSegment segment, IOException e) {
        String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new WriteFailedException("write failed: could not " + what + " commit log segment " + segment.file()
                + ": " + why, e);
    }

    private static List<CommitLogReplayer.SegmentFile> list(Path directory) throws IOException {
        List<CommitLogReplayer.SegmentFile> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                OptionalLong id = CommitLogSegment.idOf(f);
                if (id.isPresent() && Files.isRegularFile(f)) found.add(new CommitLogReplayer.SegmentFile(id.getAsLong(), f));
                removeIfOrphanSummary(f);
            }
        }
        found.sort(Comparator.comparingLong(CommitLogReplayer.SegmentFile::id));
        return found;
    }

    /** A summary whose segment is gone (a crash while deleting both), or a summary half written. */
    private static void removeIfOrphanSummary(Path f) throws IOException {
        String name = f.getFileName().toString();
        if (name.startsWith(SegmentSummary.PREFIX) && name.endsWith(SegmentSummary.SUFFIX + ".tmp")) {
            Files.deleteIfExists(f);
        } else {
            Optional<Path> segment = SegmentSummary.segmentOf(f);
            if (segment.isPresent() && !Files.exists(segment.get())) Files.deleteIfExists(f);
        }
    }

    @Override
    public String toString() {
        return "CommitLog(" + directory + ")";
    }
}
