package sibyl.io;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import sibyl.fs.Directories;

/**
 * A saved cache: the keys one column family's key cache or row cache held, so that a restart
 * can fill the cache again before it serves. Named as in Cassandra 0.6.6,
 * {@code <SavedCachesDirectory>/<Keyspace>-<ColumnFamily>-KeyCache} and {@code ...-RowCache};
 * the layout is Sibyl's own (0.6.6's files cannot be read, nor ours by it):
 * <pre>
 * file := magic i32 ("SCCH") | version i32 | kind u8 ('K' or 'R') | keyspace | columnFamily
 *         | count i32 | key * count | fileCrc i32
 * </pre>
 * Integers are big-endian; names and keys are modified UTF-8 with a u16 length, as
 * {@code DataOutput.writeUTF} writes them (the form SSTables keep keys in); {@code fileCrc} is
 * the CRC32 of every byte before it. The version is 1. A key cache lists each key once, however
 * many SSTables it was cached for; a row cache lists its keys least recently used first.
 *
 * <p>The file is written under a temporary name ({@code <name>.tmp}), fsynced, renamed over the
 * old one and the directory fsynced, so a crash leaves the old file or the new one. Reading
 * believes nothing before the checksum matched and the names in the file are the ones asked
 * for: a torn file, a file of another format, version, cache kind or column family is refused
 * with the reason, which the caller logs before starting cold.
 */
public final class SavedCacheFile {
    static final int MAGIC = 0x53434348; // "SCCH"
    static final int VERSION = 1;
    private static final String TEMPORARY_SUFFIX = ".tmp";

    /** The two caches saved, with the suffix of their file names and their tag in the file. */
    public enum Kind {
        KEYS("KeyCache", 'K'), ROWS("RowCache", 'R');

        private final String suffix;
        private final char tag;

        Kind(String suffix, char tag) {
            this.suffix = suffix;
            this.tag = tag;
        }

        /** How logs name it: "key cache", "row cache". */
        public String description() {
            return this == KEYS ? "key cache" : "row cache";
        }
    }

    private SavedCacheFile() {
    }

    public static Path path(Path directory, String keyspace, String columnFamily, Kind kind) {
        return directory.resolve(keyspace + "-" + columnFamily + "-" + kind.suffix);
    }

    /**
     * Replaces the saved cache with {@code keys}, creating the directory when needed. A file under the
     * cache's name that Sibyl did not write (Cassandra 0.6.6 saved its caches under the same names) is
     * never replaced: the save fails saying so.
     */
    public static void write(Path directory, String keyspace, String columnFamily, Kind kind, Collection<String> keys)
            throws IOException {
        Directories.createDurably(directory);
        Path target = path(directory, keyspace, columnFamily, kind);
        if (Files.exists(target) && !isSibyls(target)) {
            throw new IOException(target + " is not a saved cache of Sibyl's (Cassandra 0.6.6 saved its caches under"
                    + " the same names), so it is not saved over; move that file away to let the node save its "
                    + kind.description() + " there");
        }
        Path temporary = target.resolveSibling(target.getFileName() + TEMPORARY_SUFFIX);
        Files.deleteIfExists(temporary); // left by a save a crash interrupted
        try {
            ChecksummedFile.write(temporary, out -> {
                out.writeInt(MAGIC);
                out.writeInt(VERSION);
                out.writeByte(kind.tag);
                out.writeUTF(keyspace);
                out.writeUTF(columnFamily);
                out.writeInt(keys.size());
                for (String key : keys) out.writeUTF(key);
            });
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temporary);
            throw e;
        }
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        SSTableWriter.syncDirectory(directory);
    }

    /** Whether {@code file} begins as every saved cache Sibyl writes does. */
    private static boolean isSibyls(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(4);
            return head.length == 4 && ByteBuffer.wrap(head).getInt() == MAGIC;
        }
    }

    /**
     * The keys of the saved cache, at most {@code maxKeys} of them (the first ones); empty when
     * there is no saved cache.
     *
     * @throws IOException saying why the file cannot be believed, or that it cannot be read
     */
    public static Optional<List<String>> read(Path directory, String keyspace, String columnFamily, Kind kind,
                                              int maxKeys) throws IOException {
        Path file = path(directory, keyspace, columnFamily, kind);
        InputStream raw;
        try {
            raw = Files.newInputStream(file);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        try (raw) {
            CRC32 crc = new CRC32();
            DataInputStream in = new DataInputStream(new CheckedInputStream(new BufferedInputStream(raw, 64 * 1024), crc));
            int magic = in.readInt();
            if (magic != MAGIC) throw new IOException("not a saved cache (magic " + Integer.toHexString(magic) + ")");
            int version = in.readInt();
            if (version != VERSION) throw new IOException("saved cache version " + version + ", this node reads " + VERSION);
            int tag = in.readUnsignedByte();
            String savedKeyspace = in.readUTF();
            String savedColumnFamily = in.readUTF();
            if (tag != kind.tag || !savedKeyspace.equals(keyspace) || !savedColumnFamily.equals(columnFamily)) {
                throw new IOException("holds the " + (tag == 'K' ? "key cache" : tag == 'R' ? "row cache" : "cache '" + tag + "'")
                        + " of " + savedKeyspace + "." + savedColumnFamily);
            }
            int count = in.readInt();
            if (count < 0) throw new IOException("negative key count " + count);
            List<String> keys = new ArrayList<>(Math.min(count, Math.min(maxKeys, 1 << 16)));
            for (int i = 0; i < count; i++) {
                String key = in.readUTF();
                if (keys.size() < maxKeys) keys.add(key);
            }
            int computed = (int) crc.getValue();
            if (in.readInt() != computed) throw new IOException("checksum mismatch");
            if (in.read() >= 0) throw new IOException("bytes after the checksum");
            return Optional.of(keys);
        } catch (EOFException e) {
            throw new IOException("truncated", e);
        }
    }
}
