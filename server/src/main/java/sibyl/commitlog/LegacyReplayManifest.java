package sibyl.commitlog;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32;
import sibyl.fs.Directories;

/**
 * The list of Cassandra 0.6 commit log segments whose replay is done: their entries reached
 * Sibyl's SSTables. Sibyl never changes a 0.6 segment (the operator may want to roll back to
 * 0.6, which replays it again), so this file, {@value #FILE_NAME} in the commit log directory,
 * is what keeps a segment from being replayed at every start. A segment is known by its name,
 * length and checksum: one that 0.6 changed since (a rollback that wrote to it) is replayed again.
 * <pre>
 * magic:int 0x5342524C ("SBRL")  version:int 1  count:int
 * (name:utf  length:long  crc:int){count}      name in DataOutput.writeUTF form; crc = CRC32 of the whole file
 * crc:int                                      CRC32 of every byte before it
 * </pre>
 * The name begins with a dot, as 0.6 passes over such files: after a rollback it does not try to
 * replay this one. Written aside ({@value #TEMPORARY_NAME}), fsynced, renamed over the old one and
 * the directory synced, so it is whole and durable once {@link #write} returns. A file that does
 * not check out lists nothing: every 0.6 segment is replayed again, which is safe.
 */
final class LegacyReplayManifest {
    static final String FILE_NAME = ".replayed-0.6-segments";
    static final String TEMPORARY_NAME = FILE_NAME + ".tmp";
    static final int MAGIC = 0x5342524C;
    private static final int VERSION = 1;

    /** A 0.6 segment as it was replayed: a changed file is another segment. */
    record Entry(String name, long length, int crc) {
    }

    private LegacyReplayManifest() {
    }

    /** The name, length and content checksum of a file, read whole. */
    static Entry fingerprint(Path file) throws IOException {
        CRC32 crc = new CRC32();
        long length = 0;
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buffer)) > 0; ) {
                crc.update(buffer, 0, n);
                length += n;
            }
        }
        return new Entry(file.getFileName().toString(), length, (int) crc.getValue());
    }

    /**
     * The entries listed in {@code directory}; empty when there is no list. A list that does not
     * check out is reported through the exception, for the caller to log and then treat as empty.
     *
     * @throws IOException when the file exists but cannot be read, or is not a sound list
     */
    static List<Entry> read(Path directory) throws IOException {
        Path file = directory.resolve(FILE_NAME);
        if (!Files.exists(file)) return List.of();
        ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(file));
        try {
            if (in.remaining() < 4 * Integer.BYTES) throw new IOException("only " + in.remaining() + " bytes");
            CRC32 crc = new CRC32();
            crc.update(in.array(), 0, in.limit() - Integer.BYTES);
            if ((int) crc.getValue() != in.getInt(in.limit() - Integer.BYTES)) throw new IOException("checksum mismatch");
            in.limit(in.limit() - Integer.BYTES);
            if (in.getInt() != MAGIC) throw new IOException("bad magic");
            int version = in.getInt();
            if (version != VERSION) throw new IOException("format version " + version + " (this build reads " + VERSION + ")");
            int count = in.getInt();
            if (count < 0) throw new IOException("negative count " + count);
            List<Entry> entries = new ArrayList<>(Math.min(count, 1024));
            for (int i = 0; i < count; i++) entries.add(new Entry(readUtf(in), in.getLong(), in.getInt()));
            if (in.hasRemaining()) throw new IOException(in.remaining() + " bytes after the entries");
            return entries;
        } catch (BufferUnderflowException e) {
            throw new IOException("ends early", e);
        }
    }

    /** Replaces the list in {@code directory} with {@code entries}, durably. */
    static void write(Path directory, List<Entry> entries) throws IOException {
        Path target = directory.resolve(FILE_NAME);
        Path temporary = directory.resolve(TEMPORARY_NAME);
        byte[] bytes = encode(entries);
        try {
            try (FileChannel out = FileChannel.open(temporary, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                ByteBuffer b = ByteBuffer.wrap(bytes);
                while (b.hasRemaining()) out.write(b);
                out.force(true);
            }
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temporary);
        }
        Directories.sync(directory);
    }

    /** Whether {@code start} (the first bytes of a file) may be a list or the beginning of one: for leftovers. */
    static boolean mayBeOne(byte[] start) {
        byte[] magic = ByteBuffer.allocate(4).putInt(MAGIC).array();
        for (int i = 0; i < Math.min(start.length, magic.length); i++) if (start[i] != magic[i]) return false;
        return true;
    }

    private static byte[] encode(List<Entry> entries) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(MAGIC);
        out.writeInt(VERSION);
        out.writeInt(entries.size());
        for (Entry e : entries) {
            out.writeUTF(e.name());
            out.writeLong(e.length());
            out.writeInt(e.crc());
        }
        CRC32 crc = new CRC32();
        crc.update(bytes.toByteArray());
        out.writeInt((int) crc.getValue());
        return bytes.toByteArray();
    }

    private static String readUtf(ByteBuffer in) throws IOException {
        int length = Short.toUnsignedInt(in.getShort());
        byte[] utf = new byte[length];
        in.get(utf);
        // Names are ASCII (CommitLog-<digits>.log), where modified UTF-8 and UTF-8 agree.
        return new String(utf, StandardCharsets.UTF_8);
    }

    /** The entry of {@code name} in {@code entries}. */
    static Optional<Entry> find(List<Entry> entries, String name) {
        return entries.stream().filter(e -> e.name().equals(name)).findFirst();
    }
}
