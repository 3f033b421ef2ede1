package sibyl.commitlog;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.zip.CRC32;
import sibyl.fs.Directories;

/**
 * A small file beside a segment that will get no more entries, {@code Summary-<id>.cfs}: the
 * segment's length then and the column families with entries in it not yet flushed then. Replay
 * skips such a segment unread when each of those column families' SSTables reach past its end;
 * every other column family with entries in it was flushed past them before the file was written.
 * <pre>
 * magic i32 0x53424353 ("SBCS") | segmentId i64 | length i64 | count i32
 * | (keyspace string | columnFamily string){count} | crc i32      (CRC32 of everything before)
 * string := length i32 | UTF-8 bytes
 * </pre>
 * Optional: a segment without one (the active segment at a crash, a segment given up after a
 * failure), or with one that does not check out, is read entry by entry as before.
 */
final class SegmentSummary {
    static final String PREFIX = "Summary-";
    static final String SUFFIX = ".cfs";
    static final int MAGIC = 0x53424353;

    /**
     * @param length        the segment file's length when written; a segment of another length is read
     * @param columnFamilies those with entries in the segment that were not flushed when written
     */
    record Contents(long segmentId, long length, Set<ColumnFamilyId> columnFamilies) {
        Contents {
            columnFamilies = Set.copyOf(columnFamilies);
        }
    }

    private SegmentSummary() {
    }

    /**
     * {@code Summary-<id>.cfs} beside {@code CommitLog-<id>.log}: a name no tool listing
     * {@code CommitLog-*} takes for a segment.
     */
    static Path pathOf(Path segment) {
        long id = CommitLogSegment.idOf(segment).orElseThrow(() -> new IllegalArgumentException("not a segment: " + segment));
        return segment.resolveSibling(PREFIX + id + SUFFIX);
    }

    /** The segment a summary file stands beside, or empty for a file that is not a summary. */
    static Optional<Path> segmentOf(Path summary) {
        String name = summary.getFileName().toString();
        if (!name.startsWith(PREFIX) || !name.endsWith(SUFFIX)) return Optional.empty();
        try {
            long id = Long.parseLong(name.substring(PREFIX.length(), name.length() - SUFFIX.length()));
            return id >= 0 ? Optional.of(summary.resolveSibling(CommitLogSegment.fileName(id))) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Writes the summary beside {@code segment}, durable and whole (written aside, fsynced, renamed). */
    static void write(Path segment, Contents contents) throws IOException {
        Path target = pathOf(segment);
        Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
        byte[] bytes = encode(contents);
        try {
            Files.write(temporary, bytes, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE, StandardOpenOption.SYNC);
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temporary);
        }
        // A summary lost in a crash would only mean reading the segment; the sync (once per segment) is so that
        // no rename in the directory is left to the file system's discretion.
        Directories.sync(segment.getParent());
    }

    /** The summary of {@code segment}; empty when there is none or it does not check out. */
    static Optional<Contents> read(Path segment, long segmentId) {
        Path path = pathOf(segment);
        try {
            if (!Files.exists(path)) return Optional.empty();
            Contents c = decode(ByteBuffer.wrap(Files.readAllBytes(path)));
            return c != null && c.segmentId() == segmentId ? Optional.of(c) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    static void delete(Path segment) throws IOException {
        Files.deleteIfExists(pathOf(segment));
    }

    private static byte[] encode(Contents contents) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(MAGIC);
        out.writeLong(contents.segmentId());
        out.writeLong(contents.length());
        out.writeInt(contents.columnFamilies().size());
        for (ColumnFamilyId cf : contents.columnFamilies()) {
            writeString(out, cf.keyspace());
            writeString(out, cf.name());
        }
        CRC32 crc = new CRC32();
        crc.update(bytes.toByteArray());
        out.writeInt((int) crc.getValue());
        return bytes.toByteArray();
    }

    /** Null when the bytes are not a sound summary. */
    private static Contents decode(ByteBuffer in) {
        try {
            if (in.remaining() < 4) return null;
            CRC32 crc = new CRC32();
            crc.update(in.array(), 0, in.limit() - 4);
            if ((int) crc.getValue() != in.getInt(in.limit() - 4)) return null;
            in.limit(in.limit() - 4);
            if (in.getInt() != MAGIC) return null;
            long id = in.getLong();
            long length = in.getLong();
            int count = in.getInt();
            if (count < 0) return null;
            Set<ColumnFamilyId> cfs = new HashSet<>();
            for (int i = 0; i < count; i++) cfs.add(new ColumnFamilyId(readString(in), readString(in)));
            return in.hasRemaining() ? null : new Contents(id, length, cfs);
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            return null;
        }
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    private static String readString(ByteBuffer in) {
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) throw new IllegalArgumentException("bad string length " + length);
        byte[] utf8 = new byte[length];
        in.get(utf8);
        return new String(utf8, StandardCharsets.UTF_8);
    }
}
