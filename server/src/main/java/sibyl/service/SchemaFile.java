package sibyl.service;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.zip.CRC32C;
import sibyl.config.StorageConf;
import sibyl.db.CFMetaData;
import sibyl.db.CacheConfig;
import sibyl.db.ColumnIndexes;
import sibyl.db.KSMetaData;
import sibyl.db.LogPosition;
import sibyl.db.SystemKeyspace;
import sibyl.db.Validators;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.MarshalTypes;
import sibyl.fs.Directories;

/**
 * The keyspaces made by API (system_add_keyspace and the like), kept in {@code system/schema} of the first data
 * directory so that they survive a restart (docs/configuration.md §Keyspaces made by API). Only this class writes
 * the file; storage-conf.xml's keyspaces are never in it.
 *
 * <p>Format (FORMAT.md beside sibyl.io, "Schema file"), all integers big-endian:
 * <pre>
 *   magic      8 bytes  "SIBYLSCH"
 *   version    int      2 (1: written before indexes; read the same, without the index list)
 *   length     int      bytes of the body
 *   body       length bytes:
 *     keyspaces  int, then per keyspace: name (string), replication factor (int), column families (int), then per
 *                column family: name (string), super (byte 0/1), comparator class (string), subcomparator class
 *                (string, empty for a standard one), comment (byte 0/1, then string when 1), gc_grace_seconds
 *                (int, -1 for the node's GCGraceSeconds), key validation class (string), default validation
 *                class (string), validated columns (int), then per column: name (int length and bytes),
 *                validation class (string); default time to live (int, seconds, 0 for none); from version 2 on, indexed
 *                columns (int), then per column: name (int length and bytes), index name (string)
 *     dropped    int, then per column family dropped by API: keyspace (string), name (string), log position when
 *                it was dropped (segment long, offset long)
 *   checksum   int      CRC32C of the body
 * </pre>
 * A string is its length in bytes (int) and its UTF-8 bytes. The file is written whole to {@code schema.tmp},
 * synced, renamed over {@code schema}, and the directory synced: a crash leaves the old file or the new. A file
 * that is short, has another magic or version, or whose checksum does not match stops the start, naming it.
 */
public final class SchemaFile {
    static final String FILE_NAME = "schema";
    private static final byte[] MAGIC = "SIBYLSCH".getBytes(StandardCharsets.US_ASCII);
    private static final int VERSION = 2;
    /** The first version, whose column families carry no index list; still read. */
    private static final int VERSION_WITHOUT_INDEXES = 1;
    /** A body larger than this is damage, not a schema: no deployment defines a million column families. */
    private static final int MAX_BODY = 256 << 20;

    /**
     * A column family dropped by API, and where the log stood then: a column family made again with its name
     * replays nothing the log held before that position (docs/configuration.md §Keyspaces made by API).
     */
    public record Dropped(String keyspace, String name, LogPosition at) {
    }

    /** What the file holds: the keyspaces made by API, in the order they were made, and the drops. */
    public record Contents(List<KSMetaData> keyspaces, List<Dropped> dropped) {
        public static final Contents EMPTY = new Contents(List.of(), List.of());

        public Contents {
            keyspaces = List.copyOf(keyspaces);
            dropped = List.copyOf(dropped);
        }

        /** Where the log stood when {@code keyspace.name} was last dropped; {@link LogPosition#NONE} if never. */
        public LogPosition droppedAt(String keyspace, String name) {
            LogPosition at = LogPosition.NONE;
            for (Dropped d : dropped) {
                if (d.keyspace().equals(keyspace) && d.name().equals(name) && d.at().compareTo(at) > 0) at = d.at();
            }
            return at;
        }
    }

    private final Path file;

    /** @param directory where the file is: the {@code system} directory of the first data directory */
    public SchemaFile(Path directory) {
        this.file = directory.resolve(FILE_NAME);
    }

    /** The schema file of a node of {@code conf}: in the {@code system} directory of its first data directory. */
    public static SchemaFile of(StorageConf conf) {
        return new SchemaFile(conf.dataFileDirectories().get(0).resolve(SystemKeyspace.NAME));
    }

    public Path path() {
        return file;
    }

    /**
     * @return what the file holds; {@link Contents#EMPTY} when there is none yet
     * @throws IOException naming the file when it cannot be read or is damaged
     */
    public Contents read() throws IOException {
        if (!Files.exists(file)) return Contents.EMPTY;
        byte[] all = Files.readAllBytes(file);
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(all));
            byte[] magic = new byte[MAGIC.length];
            in.readFully(magic);
            if (!Arrays.equals(magic, MAGIC)) throw damaged("it is not a schema file of Sibyl's (no SIBYLSCH at its start)");
            int version = in.readInt();
            if (version != VERSION && version != VERSION_WITHOUT_INDEXES) {
                throw damaged("format version " + version + " is not one this Sibyl reads (" + VERSION_WITHOUT_INDEXES
                        + " or " + VERSION + ")");
            }
            int length = in.readInt();
            if (length < 0 || length > MAX_BODY || length + 4 > in.available()) {
                throw damaged("its body of " + length + " bytes does not fit in the file's " + all.length + " bytes");
            }
            byte[] body = new byte[length];
            in.readFully(body);
            int stored = in.readInt();
            CRC32C crc = new CRC32C();
            crc.update(body);
            if ((int) crc.getValue() != stored) throw damaged("its checksum does not match its contents");
            return parse(new DataInputStream(new ByteArrayInputStream(body)), version);
        } catch (EOFException e) {
            throw damaged("it ends early (" + all.length + " bytes)");
        } catch (IllegalArgumentException e) {
            throw damaged("it holds a definition Sibyl cannot use: " + e.getMessage());
        }
    }

    private IOException damaged(String why) {
        return new IOException("the schema file " + file + " is damaged: " + why + "; it holds the keyspaces made by"
                + " API: restore it from a backup, or move it away to start without them (their data stays in the data"
                + " directories)");
    }

    private static Contents parse(DataInputStream in, int version) throws IOException {
        int keyspaces = in.readInt();
        List<KSMetaData> all = new ArrayList<>();
        for (int k = 0; k < keyspaces; k++) {
            String name = string(in);
            int replicationFactor = in.readInt();
            int families = in.readInt();
            List<CFMetaData> cfs = new ArrayList<>();
            for (int c = 0; c < families; c++) {
                String cf = string(in);
                boolean isSuper = in.readBoolean();
                String comparator = string(in);
                String subcomparator = string(in);
                String comment = in.readBoolean() ? string(in) : null;
                int gcGrace = in.readInt();
                AbstractType keyValidator = MarshalTypes.forName(string(in));
                AbstractType defaultValidator = MarshalTypes.forName(string(in));
                int columns = in.readInt();
                Map<ByteBuffer, AbstractType> validated = new LinkedHashMap<>();
                for (int v = 0; v < columns; v++) {
                    validated.put(bytes(in), MarshalTypes.forName(string(in)));
                }
                int defaultTimeToLive = in.readInt();
                Map<ByteBuffer, String> indexed = new LinkedHashMap<>();
                int indexes = version == VERSION_WITHOUT_INDEXES ? 0 : in.readInt();
                for (int i = 0; i < indexes; i++) indexed.put(bytes(in), string(in));
                cfs.add(new CFMetaData(name, cf, isSuper, MarshalTypes.forName(comparator),
                        subcomparator.isEmpty() ? null : MarshalTypes.forName(subcomparator), comment, CacheConfig.NONE,
                        gcGrace < 0 ? OptionalInt.empty() : OptionalInt.of(gcGrace),
                        new Validators(keyValidator, defaultValidator, validated), defaultTimeToLive,
                        new ColumnIndexes(indexed)));
            }
            all.add(new KSMetaData(name, replicationFactor, cfs));
        }
        int drops = in.readInt();
        List<Dropped> dropped = new ArrayList<>();
        for (int d = 0; d < drops; d++) {
            dropped.add(new Dropped(string(in), string(in), new LogPosition(in.readLong(), in.readLong())));
        }
        return new Contents(all, dropped);
    }

    private static ByteBuffer bytes(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > in.available()) throw new EOFException();
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return ByteBuffer.wrap(bytes);
    }

    private static String string(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > in.available()) throw new EOFException();
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Replaces the file's contents by {@code contents}, durably (see the class comment). */
    public void write(Contents contents) throws IOException {
        ByteArrayOutputStream bodyBytes = new ByteArrayOutputStream();
        DataOutputStream body = new DataOutputStream(bodyBytes);
        body.writeInt(contents.keyspaces().size());
        for (KSMetaData ks : contents.keyspaces()) {
            string(body, ks.name());
            body.writeInt(ks.replicationFactor());
            body.writeInt(ks.columnFamilies().size());
            for (CFMetaData cf : ks.columnFamilies()) {
                string(body, cf.name());
                body.writeBoolean(cf.isSuper());
                string(body, cf.comparator().className());
                string(body, cf.isSuper() ? cf.subcomparator().className() : "");
                body.writeBoolean(cf.comment() != null);
                if (cf.comment() != null) string(body, cf.comment());
                body.writeInt(cf.gcGraceSeconds().orElse(-1));
                Validators validators = cf.validators();
                string(body, validators.key().className());
                string(body, validators.defaultValue().className());
                body.writeInt(validators.columns().size());
                for (Map.Entry<ByteBuffer, AbstractType> c : validators.columns().entrySet()) {
                    bytes(body, c.getKey());
                    string(body, c.getValue().className());
                }
                body.writeInt(cf.defaultTimeToLive());
                body.writeInt(cf.indexes().byColumn().size());
                for (Map.Entry<ByteBuffer, String> index : cf.indexes().byColumn().entrySet()) {
                    bytes(body, index.getKey());
                    string(body, index.getValue());
                }
            }
        }
        body.writeInt(contents.dropped().size());
        for (Dropped d : contents.dropped()) {
            string(body, d.keyspace());
            string(body, d.name());
            body.writeLong(d.at().segmentId());
            body.writeLong(d.at().offset());
        }
        body.flush();
        byte[] bytes = bodyBytes.toByteArray();
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        ByteBuffer whole = ByteBuffer.allocate(MAGIC.length + 12 + bytes.length);
        whole.put(MAGIC).putInt(VERSION).putInt(bytes.length).put(bytes).putInt((int) crc.getValue()).flip();

        Path dir = file.getParent();
        Directories.createDurably(dir);
        Path tmp = file.resolveSibling(FILE_NAME + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (whole.hasRemaining()) ch.write(whole);
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Directories.sync(dir);
    }

    private static void string(DataOutputStream out, String s) throws IOException {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static void bytes(DataOutputStream out, ByteBuffer b) throws IOException {
        ByteBuffer bytes = b.duplicate();
        out.writeInt(bytes.remaining());
        while (bytes.hasRemaining()) out.writeByte(bytes.get());
    }
}
