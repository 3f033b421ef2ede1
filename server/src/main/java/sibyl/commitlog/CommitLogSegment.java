package sibyl.commitlog;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import sibyl.db.LogPosition;

/**
 * One commit log file, {@code CommitLog-<id>.log}: a {@link SegmentHeader} then framed
 * {@link LogEntry}s, appended only. Also remembers which column families have entries here
 * that are not yet flushed ("dirty"), and where the last of them ends.
 *
 * <p>Writes go through a {@link RandomAccessFile}, not an NIO channel: an interrupted thread must
 * not be able to close the log under everyone else. Writes, {@link #markDirty} and
 * {@link #markClean} are called under the {@link CommitLog}'s lock; {@link #sync} and
 * {@link #close} may race with each other and are synchronized here.
 */
final class CommitLogSegment {
    private static final String PREFIX = "CommitLog-";
    private static final String SUFFIX = ".log";

    private final long id;
    private final Path file;
    private RandomAccessFile out; // null once closed, and for segments found at start-up
    private volatile long end;
    /** Whether the file's own position is {@link #end}, as it is after every successful write (so no seek). */
    private boolean positioned = true;
    private long syncedEnd;
    /** Column family to the end offset of its last entry here. */
    private final Map<ColumnFamilyId, Long> dirty = new HashMap<>();

    private CommitLogSegment(long id, Path file, RandomAccessFile out, long end) {
        this.id = id;
        this.file = file;
        this.out = out;
        this.end = end;
        this.syncedEnd = end;
    }

    /** Creates the file with its header, durable (file and directory entry) before returning. */
    static CommitLogSegment create(Path directory, long id) throws IOException {
        Path file = directory.resolve(fileName(id));
        // Ids only grow, so the name is new; never truncate a segment that may hold entries.
        if (Files.exists(file)) throw new IOException("commit log segment " + file + " already exists");
        RandomAccessFile out = new RandomAccessFile(file.toFile(), "rw");
        try {
            out.write(SegmentHeader.encode(id));
            out.getFD().sync();
            syncDirectory(directory);
        } catch (IOException | RuntimeException e) {
            out.close();
            Files.deleteIfExists(file);
            throw e;
        }
        return new CommitLogSegment(id, file, out, SegmentHeader.SIZE);
    }

    /** A segment found at start-up and replayed: read-only, dirty for the column families it held. */
    static CommitLogSegment recovered(Path file, long id, long end, Set<ColumnFamilyId> dirty) {
        CommitLogSegment s = new CommitLogSegment(id, file, null, end);
        for (ColumnFamilyId cf : dirty) s.dirty.put(cf, end);
        return s;
    }

    static String fileName(long id) {
        return PREFIX + id + SUFFIX;
    }

    /** The id in a segment file's name, or empty for a file that is not a segment. */
    static OptionalLong idOf(Path file) {
        String name = file.getFileName().toString();
        if (!name.startsWith(PREFIX) || !name.endsWith(SUFFIX)) return OptionalLong.empty();
        try {
            long id = Long.parseLong(name.substring(PREFIX.length(), name.length() - SUFFIX.length()));
            return id >= 0 ? OptionalLong.of(id) : OptionalLong.empty();
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    long id() {
        return id;
    }

    Path file() {
        return file;
    }

    /** Offset just past the last entry written. */
    long end() {
        return end;
    }

    LogPosition endPosition() {
        return new LogPosition(id, end);
    }

    boolean hasEntries() {
        return end > SegmentHeader.SIZE;
    }

    /**
     * Appends {@code length} bytes of whole entries. On failure the file is cut back to where it
     * was (best effort), so what was written before stays readable, and the exception is thrown.
     */
    void write(byte[] bytes, int length) throws IOException {
        RandomAccessFile f = out;
        if (f == null) throw new IOException("segment " + file + " is closed");
        long start = end;
        try {
            if (!positioned) {
                f.seek(start);
                positioned = true;
            }
            f.write(bytes, 0, length);
        } catch (IOException e) {
            positioned = false;
            truncateQuietly(f, start, e);
            throw e;
        }
        end = start + length;
    }

    /** Cuts off everything from {@code offset} on (entries written but then refused). */
    void truncate(long offset) throws IOException {
        RandomAccessFile f = out;
        if (f == null) throw new IOException("segment " + file + " is closed");
        positioned = false;
        f.setLength(offset);
        end = offset;
        syncedEnd = Math.min(syncedEnd, offset);
    }

    /** fsyncs what was written; false when there was nothing new (or the segment is closed). */
    synchronized boolean sync() throws IOException {
        long target = end;
        if (out == null || target <= syncedEnd) return false;
        out.getFD().sync();
        syncedEnd = target;
        return true;
    }

    /** Syncs and closes the file; idempotent. */
    synchronized void close() throws IOException {
        if (out == null) return;
        try {
            sync();
        } finally {
            RandomAccessFile f = out;
            out = null;
            f.close();
        }
    }

    /** Closes without syncing, after a failure; errors are moot by then. */
    synchronized void abandon() {
        if (out == null) return;
        try {
            out.close();
        } catch (IOException ignored) {
            // the segment is being given up because it failed already
        }
        out = null;
    }

    void markDirty(ColumnFamilyId cf, long entryEnd) {
        dirty.merge(cf, entryEnd, Math::max);
    }

    /**
     * {@code cf} is flushed up to {@code upTo}: it is clean here if this segment lies wholly
     * before that position, or if its last entry here ends at or before it.
     */
    void markClean(ColumnFamilyId cf, LogPosition upTo) {
        Long last = dirty.get(cf);
        if (last == null) return;
        if (id < upTo.segmentId() || (id == upTo.segmentId() && last <= upTo.offset())) dirty.remove(cf);
    }

    boolean isClean() {
        return dirty.isEmpty();
    }

    Set<ColumnFamilyId> dirtyColumnFamilies() {
        return Set.copyOf(dirty.keySet());
    }

    /** Deletes the file, its {@link SegmentSummary} first: a summary never outlives its segment's deletion. */
    void delete() throws IOException {
        abandon();
        SegmentSummary.delete(file);
        Files.deleteIfExists(file);
    }

    /** Leaves a {@link SegmentSummary} for replay, once no more entries will be written here. */
    void writeSummary() throws IOException {
        SegmentSummary.write(file, new SegmentSummary.Contents(id, end, dirty.keySet()));
    }

    private static void truncateQuietly(RandomAccessFile f, long offset, IOException cause) {
        try {
            f.setLength(offset);
        } catch (IOException | RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    /** Makes a new file's directory entry durable, so a crash cannot lose a segment that holds synced entries. */
    private static void syncDirectory(Path directory) throws IOException {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            // Some file systems refuse to open or sync a directory; the file itself is synced.
            if (!Files.isDirectory(directory)) throw e;
        }
    }

    @Override
    public String toString() {
        return file.getFileName().toString();
    }
}
