package sibyl.io;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import sibyl.db.LogPosition;
import sibyl.fs.Directories;

/**
 * The truncations of one keyspace's column families, kept in {@value #FILE_NAME} in the keyspace's first data
 * directory (FORMAT.md, "Truncations"). A column family's record says which of its SSTables a truncate took
 * away and up to which commit log position its writes went with them; start-up loads none of those SSTables
 * (it deletes what a crash left of them) and replays none of those writes, so a truncated row never comes back.
 * Immutable; {@link #with} gives the records after one more truncate, which {@link #write} makes durable.
 *
 * <pre>
 * file   := magic i32 ("STRN") | version i32 | count i32 | record * count | fileCrc i32
 * record := columnFamily key | truncatedAtMillis i64 | segmentId i64 | offset i64
 *           | generations i32 | generation i32 * generations
 * </pre>
 */
public final class TruncationRecords {
    public static final String FILE_NAME = "truncated";
    /** The file as it is written, before it is renamed into place; a leftover of Sibyl's when start-up finds it. */
    public static final String TEMPORARY_NAME = FILE_NAME + ".tmp";
    private static final int MAGIC = 0x5354524e; // "STRN"
    private static final int VERSION = 1;
    private static final TruncationRecords NONE = new TruncationRecords(Map.of());

    /**
     * One column family's last truncate: when, the log position its writes were discarded up to, and the
     * generations of the SSTables it discarded (with those of an earlier truncate still on disk then).
     */
    public record Truncation(long truncatedAtMillis, LogPosition position, Set<Integer> generations) {
        public Truncation {
            generations = Collections.unmodifiableSet(new TreeSet<>(generations));
        }
    }

    private final Map<String, Truncation> byColumnFamily;

    private TruncationRecords(Map<String, Truncation> byColumnFamily) {
        this.byColumnFamily = Collections.unmodifiableMap(new LinkedHashMap<>(byColumnFamily));
    }

    public static TruncationRecords none() {
        return NONE;
    }

    /** The column family's last truncate, or null when it was never truncated. */
    public Truncation of(String columnFamily) {
        return byColumnFamily.get(columnFamily);
    }

    /** Every column family's last truncate. */
    public Collection<Truncation> all() {
        return byColumnFamily.values();
    }

    /** These records with the column family's replaced by {@code truncation}. */
    public TruncationRecords with(String columnFamily, Truncation truncation) {
        Map<String, Truncation> next = new LinkedHashMap<>(byColumnFamily);
        next.put(columnFamily, truncation);
        return new TruncationRecords(next);
    }

    /**
     * The records in {@code directory}, none when it holds no {@value #FILE_NAME}.
     *
     * @throws IOException naming the file when its checksum, magic or version is wrong: a start cannot tell then
     *                     which rows were truncated, so it must not go on
     */
    public static TruncationRecords read(Path directory) throws IOException {
        Path file = directory.resolve(FILE_NAME);
        try {
            return ChecksummedFile.read(file, (in, length) -> parse(in));
        } catch (NoSuchFileException e) {
            return NONE;
        } catch (CorruptSSTableException e) {
            throw new IOException("the truncation record " + file + " is damaged (" + e.problem() + "): which of the"
                    + " keyspace's rows were truncated is unknown, so the node does not start. Put back a copy of the"
                    + " file, or move it away, knowing that the rows of its truncates may then come back", e);
        }
    }

    private static TruncationRecords parse(DataInputStream in) throws IOException {
        if (in.readInt() != MAGIC) throw new IOException("not a truncation record file of Sibyl's");
        int version = in.readInt();
        if (version != VERSION) throw new IOException("truncation record version " + version + " is not " + VERSION);
        int count = in.readInt();
        if (count < 0) throw new IOException("negative record count " + count);
        Map<String, Truncation> records = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            String columnFamily = in.readUTF();
            long at = in.readLong();
            LogPosition position = new LogPosition(in.readLong(), in.readLong());
            int n = in.readInt();
            if (n < 0) throw new IOException("negative generation count " + n + " for " + columnFamily);
            Set<Integer> generations = new TreeSet<>();
            for (int g = 0; g < n; g++) generations.add(in.readInt());
            records.put(columnFamily, new Truncation(at, position, generations));
        }
        return new TruncationRecords(records);
    }

    /**
     * Replaces the records in {@code directory} by these, durably: written to {@value #TEMPORARY_NAME}, synced,
     * renamed over the old file, and the directory synced, so a crash leaves the old records or the new ones.
     */
    public void write(Path directory) throws IOException {
        Directories.createDurably(directory);
        Path temporary = directory.resolve(TEMPORARY_NAME);
        Files.deleteIfExists(temporary); // a crashed write's, Sibyl's own
        ChecksummedFile.write(temporary, this::writeBody);
        Files.move(temporary, directory.resolve(FILE_NAME), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
        Directories.sync(directory);
    }

    private void writeBody(DataOutputStream out) throws IOException {
        out.writeInt(MAGIC);
        out.writeInt(VERSION);
        out.writeInt(byColumnFamily.size());
        for (Map.Entry<String, Truncation> e : byColumnFamily.entrySet()) {
            Truncation t = e.getValue();
            out.writeUTF(e.getKey());
            out.writeLong(t.truncatedAtMillis());
            out.writeLong(t.position().segmentId());
            out.writeLong(t.position().offset());
            out.writeInt(t.generations().size());
            for (int g : t.generations()) out.writeInt(g);
        }
    }
}
