package sibyl.commitlog;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.db.ColumnFamily;
import sibyl.db.KSMetaData;
import sibyl.db.LogPosition;
import sibyl.db.ResolvedMutation;
import sibyl.db.SystemKeyspace;
import sibyl.db.WriteFailedException;
import sibyl.db.WriteLog;
import sibyl.fs.Directories;

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
 * Only Sibyl's own files are ever deleted: its segments (known by their magic), summaries and
 * temporary files.
 *
 * <h2>A Cassandra 0.6 node's directory</h2>
 * Sibyl starts on the CommitLogDirectory of a Cassandra 0.6 node as it stands. 0.6 named its
 * segments as Sibyl does, so {@link #open} tells every file apart by its content first
 * ({@link CommitLogDirectoryScan}) and refuses to start, changing nothing, when any is neither
 * Sibyl's nor 0.6's (a later Cassandra's segments among them), with one message naming each file,
 * what it looks like and what to do. A 0.6 segment ({@link LegacySegmentHeader}, {@link
 * LegacyEntryReader}, {@link LegacyMutation}) is replayed by {@link #recover} before Sibyl's own,
 * as 0.6 would have replayed it ({@link LegacyReplayer}), and is never written, truncated or
 * deleted, so that the node can roll back to 0.6. It is replayed exactly once: the engine flushes
 * what the replay gave and then calls {@link #confirmLegacyReplay}, which lists the segment in
 * {@code .replayed-0.6-segments} beside it; a later start passes over a segment listed there with
 * the same length and CRC32, and replays one not listed or changed. That file:
 * <pre>
 * magic:int 0x5342524C ("SBRL")  version:int 1  count:int
 * (name:utf  length:long  crc:int){count}      name in DataOutput.writeUTF form; crc = CRC32 of the segment file
 * crc:int                                      CRC32 of every byte before it
 * </pre>
 * is written aside, fsynced, renamed into place and its directory synced ({@link LegacyReplayManifest}).
 * A crash before the confirmation replays the 0.6 segments again at the next start, which is harmless.
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
    /** Cassandra 0.6 segments and what is known of their replay; its own lock, as confirming reads files. */
    private final LegacySegments legacy;

    private CommitLog(Path directory, DirectoryLock directoryLock, long segmentSizeBytes, SyncMode sync,
                      CommitLogDirectoryScan.Result found, LegacySegments legacy) {
        this.directory = directory;
        this.directoryLock = directoryLock;
        this.segmentSizeBytes = segmentSizeBytes;
        this.unreplayed = found.sibylSegments();
        this.legacy = legacy;
        // New ids go past every segment name in the directory, whoever wrote it, so none is ever reused.
        this.lastId = found.highestSegmentId();
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
     * Opens the log in {@code directory} (created if missing, durably), tells apart what is there
     * ({@link CommitLogDirectoryScan}), notes the segments for {@link #recover}, and begins a new
     * segment after them. Only Sibyl's own leftovers are removed, and only once the whole
     * directory is known to hold nothing Sibyl does not recognise.
     *
     * @throws IOException when the directory cannot be listed or a segment cannot be created, or when it
     *                     holds files Sibyl did not write and cannot read: the message names each and what to do
     */
    public static CommitLog open(Path directory, SyncMode sync, long segmentSizeBytes) throws IOException {
        if (segmentSizeBytes <= 0) throw new IllegalArgumentException("segment size must be positive: " + segmentSizeBytes);
        // A directory holding files Sibyl cannot take is refused before the lock file is created in it, so that a
        // refused start leaves it exactly as it was; the scan is taken again under the lock.
        if (Files.isDirectory(directory)) CommitLogDirectoryScan.scan(directory);
        Directories.createDurably(directory);
        DirectoryLock directoryLock = DirectoryLock.acquire(directory);
        try {
            CommitLogDirectoryScan.Result found = CommitLogDirectoryScan.scan(directory);
            removeLeftovers(found.leftovers());
            if (!found.nothingToRead().isEmpty()) {
                log.warn("Commit log directory {} holds files named like segments that hold nothing (empty, only"
                        + " zeros, or a Cassandra 0.6 segment whose header was never finished): {}. Left as they are,"
                        + " since whose they are cannot be told", directory, names(found.nothingToRead()));
            }
            LegacySegments legacy = LegacySegments.of(directory, found.legacySegments());
            CommitLog commitLog = new CommitLog(directory, directoryLock, segmentSizeBytes, sync, found, legacy);
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
     * entry goes to {@code sink}. Sibyl's segments that held nothing still configured are deleted;
     * the others are kept until their column families are {@link #flushed}. Cassandra 0.6's
     * segments are replayed first, as when 0.6's column family numbers cannot be told (this form
     * does not give the configuration's file order; see {@link #recover(List, FlushedPositions, Consumer)}).
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
     * family's delta in a Sibyl entry ending at or before {@code flushed.upTo(ks, cf)} is not
     * replayed, and does not keep its segment alive.
     */
    public ReplaySummary recover(Function<String, Optional<KSMetaData>> schema,
                                 FlushedPositions flushed, Consumer<ResolvedMutation> sink)
            throws IOException {
        return recover(Optional.empty(), schema, flushed, sink);
    }

    /**
     * Replays what {@link #open} found, once, before the first write, through {@code sink}:
     * <ol>
     * <li>Cassandra 0.6's segments not replayed and confirmed before, oldest first, as 0.6 would have
     *     replayed them (its headers' column family numbers read with the configuration's file
     *     order, see {@link LegacyColumnFamilyIds}). They are never changed or deleted. Once the
     *     column families in {@link ReplaySummary#legacyColumnFamilies} are flushed, call
     *     {@link #confirmLegacyReplay()} so that the next start does not replay them again;</li>
     * <li>Sibyl's own segments, oldest first, skipping what {@code flushed} says SSTables hold (a
     *     column family's delta in an entry ending at or before {@code flushed.upTo(ks, cf)}). Those
     *     that held nothing still configured are deleted; the others are kept until their column
     *     families are {@link #flushed}.</li>
     * </ol>
     *
     * @param keyspaces the keyspaces configured now, in configuration file order ({@code system} is added
     *                  when absent, as 0.6 added it); deltas of other column families are skipped and named
     * @throws IOException when a segment cannot be read at all or is of a newer format, or when a 0.6
     *                     segment holds a write that does not fit the configuration (then nothing was replayed)
     */
    public ReplaySummary recover(List<KSMetaData> keyspaces, FlushedPositions flushed, Consumer<ResolvedMutation> sink)
            throws IOException {
        List<KSMetaData> all = new ArrayList<>(keyspaces);
        if (all.stream().noneMatch(ks -> ks.name().equals(SystemKeyspace.NAME))) all.add(SystemKeyspace.metadata());
        Map<String, KSMetaData> byName = new HashMap<>();
        for (KSMetaData ks : all) byName.put(ks.name(), ks);
        return recover(Optional.of(List.copyOf(all)), name -> Optional.ofNullable(byName.get(name)), flushed, sink);
    }

    private ReplaySummary recover(Optional<List<KSMetaData>> keyspacesInOrder,
                                  Function<String, Optional<KSMetaData>> schema,
                                  FlushedPositions flushed, Consumer<ResolvedMutation> sink) throws IOException {
        long started = System.nanoTime();
        List<CommitLogReplayer.SegmentFile> toReplay;
        lock.lock();
        try {
            toReplay = unreplayed;
            unreplayed = List.of();
        } finally {
            lock.unlock();
        }
        LegacyReplayer.Result fromLegacy = legacy.replay(keyspacesInOrder, schema, sink);
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
                    // Only Sibyl's own segments get here: the scan at open told them by their magic.
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
        ReplaySummary own = result.summary();
        return new ReplaySummary(own.segments() + fromLegacy.segments(), own.entries() + fromLegacy.entries(),
                own.damagedSegments() + fromLegacy.damaged(), Duration.ofNanos(System.nanoTime() - started),
                fromLegacy.segments(), fromLegacy.entries(), legacy.replayedBefore(), fromLegacy.columnFamilies());
    }

    /**
     * Records that the Cassandra 0.6 segments {@link #recover} replayed need not be replayed again:
     * lists them (name, length, checksum) in {@link LegacyReplayManifest}, durably, leaving the
     * segments themselves as they are. Call it once everything their replay applied is in SSTables
     * (the column families in {@link ReplaySummary#legacyColumnFamilies} flushed): a crash before
     * that replays them again at the next start, which is harmless. A segment changed since it was
     * replayed is left out, so that it is replayed again. Does nothing when none was replayed.
     *
     * @return the 0.6 segments newly listed
     * @throws IOException when the list cannot be written (then the next start replays them again)
     */
    public int confirmLegacyReplay() throws IOException {
        return legacy.confirm();
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

    /** Sibyl's own files a crash left behind, which the scan at open told apart by name and content. */
    private static void removeLeftovers(List<Path> leftovers) throws IOException {
        for (Path f : leftovers) {
            Files.deleteIfExists(f);
            log.debug("Removed {}, left over by a crash", f);
        }
    }

    private static List<String> names(List<Path> files) {
        return files.stream().map(f -> f.getFileName().toString()).toList();
    }

    @Override
    public String toString() {
        return "CommitLog(" + directory + ")";
    }
}
