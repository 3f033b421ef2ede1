package sibyl.commitlog;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
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
 * <h2>Writing through a mapping</h2>
 * Entries are copied into the file through memory-mapped windows of {@value #WINDOW_BYTES} bytes
 * (smaller for small rotation thresholds), each written with zeros and mapped past the last as the
 * log reaches it, which grows the file. A copy into a mapped page lands in the page cache as the
 * bytes of a write system call would, so an entry survives the process being killed as soon as it
 * is copied; a sync forces the mapped ranges written since the last one. In periodic mode this
 * takes the system call off every write, and the time the log's lock is held down to a memory copy.
 *
 * <p>So the file of a segment that was not closed (the process was killed) ends in zeros up to its
 * last window's end; {@link SegmentReader} reads zeros where the next entry's framing would be as
 * the end. Closing a segment cuts the file back to its last entry.
 *
 * <p>Windows are mapped through a channel of their own, opened with the file; should an interrupt
 * close it anyway, the segment's next window fails like a failed write: the log goes on in a new
 * segment, and the {@link RandomAccessFile} that syncs and cuts the file back is untouched.
 * Writes, {@link #markDirty} and {@link #markClean} are called under the {@link CommitLog}'s lock;
 * {@link #sync} and {@link #close} may race with each other and with writes, and take this
 * segment's monitor, as does the list of windows.
 */
final class CommitLogSegment {
    private static final String PREFIX = "CommitLog-";
    private static final String SUFFIX = ".log";
    /** Bytes mapped at a time once a segment is large; one mapping per this many bytes of entries. */
    static final int WINDOW_BYTES = 1 << 20;
    /** The smallest window, for tests' tiny rotation thresholds. */
    private static final int MIN_WINDOW_BYTES = 64 << 10;
    /** What a window is filled with before it is mapped; never written to. */
    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(MIN_WINDOW_BYTES).asReadOnlyBuffer();

    /** A mapped range of the file, from {@code start}. */
    private record Window(long start, MappedByteBuffer bytes) {
        long end() {
            return start + bytes.capacity();
        }
    }

    private final long id;
    private final Path file;
    private final int windowBytes;
    private RandomAccessFile out; // null once closed, and for segments found at start-up
    private FileChannel mapper; // likewise
    private volatile long end;
    /** The window written to now; only the writer (under the log's lock) reads it. */
    private Window current;
    /** Windows that hold bytes not yet synced, the current one last; guarded by this. */
    private final ArrayDeque<Window> unsynced = new ArrayDeque<>();
    private long syncedEnd;
    /** Column family to the end offset of its last entry here. */
    private final Map<ColumnFamilyId, Long> dirty = new HashMap<>();

    private CommitLogSegment(long id, Path file, RandomAccessFile out, FileChannel mapper, long end, int windowBytes) {
        this.id = id;
        this.file = file;
        this.out = out;
        this.mapper = mapper;
        this.end = end;
        this.syncedEnd = end;
        this.windowBytes = windowBytes;
    }

    /**
     * Creates the file with its header, durable (file and directory entry) before returning.
     *
     * @param rotationBytes the size at which the log moves on to a new segment, which bounds the window
     */
    static CommitLogSegment create(Path directory, long id, long rotationBytes) throws IOException {
        Path file = directory.resolve(fileName(id));
        // Ids pass every segment name found at open, so the name is new. Created exclusively all the same: a
        // file of that name made since (by anyone) is never written over, and the file deleted below is ours.
        try {
            Files.createFile(file);
        } catch (FileAlreadyExistsException e) {
            throw new IOException("commit log segment " + file + " already exists", e);
        }
        RandomAccessFile out;
        try {
            out = new RandomAccessFile(file.toFile(), "rw");
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
        FileChannel mapper = null;
        try {
            out.write(SegmentHeader.encode(id));
            out.getFD().sync();
            syncDirectory(directory);
            mapper = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException | RuntimeException e) {
            out.close();
            Files.deleteIfExists(file);
            throw e;
        }
        int window = (int) Math.max(MIN_WINDOW_BYTES, Math.min(WINDOW_BYTES, rotationBytes + MIN_WINDOW_BYTES));
        return new CommitLogSegment(id, file, out, mapper, SegmentHeader.SIZE, window);
    }

    /** A segment found at start-up and replayed: read-only, dirty for the column families it held. */
    static CommitLogSegment recovered(Path file, long id, long end, Set<ColumnFamilyId> dirty) {
        CommitLogSegment s = new CommitLogSegment(id, file, null, null, end, MIN_WINDOW_BYTES);
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
            long at = start;
            int done = 0;
            while (done < length) {
                if (current == null || at >= current.end()) current = mapWindow(at, length - done);
                int n = (int) Math.min(length - done, current.end() - at);
                current.bytes().put((int) (at - current.start()), bytes, done, n);
                done += n;
                at += n;
            }
        } catch (IOException e) {
            current = null;
            truncateQuietly(f, start, e);
            throw e;
        } catch (InternalError e) {
            current = null;
            // A fault while copying into a mapped page: the disk is full or failing.
            IOException failed = new IOException("could not write through the mapping: " + e.getMessage(), e);
            truncateQuietly(f, start, failed);
            throw failed;
        }
        end = start + length;
    }

    /**
     * Maps the window from {@code at}, large enough for {@code needed} bytes. Zeros are written over its range
     * first: they claim the disk space, so that a full disk fails this write with the file system's own message
     * instead of faulting later on a copy into a page that has no block behind it.
     */
    private Window mapWindow(long at, int needed) throws IOException {
        int size = Math.max(windowBytes, needed);
        FileChannel channel = mapper;
        if (channel == null) throw new IOException("segment " + file + " is closed");
        // A channel is closed by an interrupt that comes while it works; the writer's flag waits until after.
        boolean interrupted = Thread.interrupted();
        Window window;
        try {
            for (long p = at; p < at + size; ) {
                ByteBuffer zeros = ZEROS.duplicate();
                zeros.limit((int) Math.min(zeros.capacity(), at + size - p));
                p += channel.write(zeros, p);
            }
            window = new Window(at, channel.map(FileChannel.MapMode.READ_WRITE, at, size));
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
        synchronized (this) {
            unsynced.add(window);
        }
        return window;
    }

    /** Cuts off everything from {@code offset} on (entries written but then refused). */
    void truncate(long offset) throws IOException {
        RandomAccessFile f = out;
        if (f == null) throw new IOException("segment " + file + " is closed");
        current = null; // the segment is given up next: nothing is written through its windows again
        f.setLength(offset);
        end = offset;
        syncedEnd = Math.min(syncedEnd, offset);
    }

    /** Forces what was written to disk; false when there was nothing new (or the segment is closed). */
    synchronized boolean sync() throws IOException {
        long target = end;
        if (out == null || target <= syncedEnd) return false;
        for (Window w : unsynced) {
            long from = Math.max(syncedEnd, w.start());
            long to = Math.min(target, w.end());
            if (from < to) forceRange(w, from, to);
        }
        while (unsynced.size() > 1 && unsynced.peekFirst().end() <= target) unsynced.removeFirst();
        syncedEnd = target;
        return true;
    }

    private static void forceRange(Window w, long from, long to) throws IOException {
        try {
            w.bytes().force((int) (from - w.start()), (int) (to - from));
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** Syncs, cuts the file back to its last entry and closes it; idempotent. */
    synchronized void close() throws IOException {
        if (out == null) return;
        try {
            sync();
            out.setLength(end);
        } finally {
            RandomAccessFile f = out;
            out = null;
            current = null;
            unsynced.clear(); // the mappings go with the garbage collector
            closeQuietly(mapper);
            mapper = null;
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
        current = null;
        unsynced.clear();
        closeQuietly(mapper);
        mapper = null;
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

    private static void closeQuietly(FileChannel channel) {
        try {
            if (channel != null) channel.close();
        } catch (IOException ignored) {
            // only the mapping channel; the file's own closing reports what matters
        }
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
