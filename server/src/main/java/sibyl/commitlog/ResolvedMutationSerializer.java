package sibyl.commitlog;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import sibyl.db.CFMetaData;
import sibyl.db.ColumnFamily;
import sibyl.db.KSMetaData;
import sibyl.db.ResolvedMutation;
import sibyl.dht.BinaryKeys;

/**
 * The write log's payload: one {@link ResolvedMutation}.
 *
 * <p>Format (big-endian):
 * <pre>
 * ResolvedMutation := keyspace:string  key:string  count:int  Delta{count}
 * Delta            := columnFamily:string  type:byte  length:int  row:byte[length]
 *                     type 0 = Standard, 1 = Super; row in {@link ColumnFamilySerializer} form
 * string           := length:int  bytes[length]   UTF-8; a key's bytes as BinaryKeys gives them (UTF-8 but
 *                                                 for the bytes of a 0.7+ key that were not)
 * </pre>
 * Each row is length-prefixed so a reader can step over a column family whose schema changed
 * between runs (dropped, or now of the other type, or with a comparator its names no longer
 * fit) and still read the others.
 */
public final class ResolvedMutationSerializer {
    private static final int STANDARD = 0;
    private static final int SUPER = 1;

    /**
     * Receives the names in a payload as UTF-8 bytes: views into the payload, valid only during
     * the call, so a reader that meets the same few names again and again allocates nothing.
     */
    public interface OutlineVisitor {
        void keyspace(ByteBuffer utf8);

        void columnFamily(ByteBuffer utf8);
    }

    private ResolvedMutationSerializer() {
    }

    /** The bytes {@link #serialize(ResolvedMutation, ByteBuffer)} writes for {@code mutation}. */
    public static int serializedLength(ResolvedMutation mutation) {
        int length = stringLength(mutation.keyspace()) + stringLength(mutation.key()) + 4;
        for (ColumnFamily row : mutation.columnFamilies()) {
            length = Math.addExact(length, stringLength(row.metadata().name()) + 1 + 4
                    + ColumnFamilySerializer.serializedLength(row));
        }
        return length;
    }

    /**
     * Writes {@code mutation} at {@code out}'s position, which advances by exactly
     * {@link #serializedLength}.
     *
     * @throws java.nio.BufferOverflowException when {@code out} has less room than that
     */
    public static void serialize(ResolvedMutation mutation, ByteBuffer out) {
        writeString(mutation.keyspace(), out);
        writeString(mutation.key(), out);
        out.putInt(mutation.columnFamilies().size());
        for (ColumnFamily row : mutation.columnFamilies()) {
            writeString(row.metadata().name(), out);
            out.put((byte) (row.isSuper() ? SUPER : STANDARD));
            // The row's length is known once it is written: one walk over its cells, not two.
            int lengthAt = out.position();
            out.putInt(0);
            ColumnFamilySerializer.serialize(row, out);
            out.putInt(lengthAt, out.position() - lengthAt - 4);
        }
    }

    /** {@code mutation} serialized, in an array of its own. */
    public static byte[] serialize(ResolvedMutation mutation) {
        ByteBuffer out = ByteBuffer.allocate(serializedLength(mutation));
        serialize(mutation, out);
        return out.array();
    }

    /**
     * Reads a payload written by {@link #serialize}.
     *
     * @param schema  the keyspaces known now, by name
     * @param unknown told "keyspace.columnfamily" (and why, when it is still configured) for each
     *                delta skipped because the schema no longer fits it
     * @return the mutation with the deltas of known column families (perhaps none)
     * @throws IOException when the payload is not one {@link #serialize} wrote
     */
    public static ResolvedMutation deserialize(byte[] payload, Function<String, Optional<KSMetaData>> schema,
                                               Consumer<String> unknown) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
        String keyspace = readString(in);
        String key = readString(in);
        int count = in.readInt();
        if (count < 0) throw new IOException("negative column family count " + count);
        Optional<KSMetaData> ks = schema.apply(keyspace);
        List<ColumnFamily> rows = new ArrayList<>(Math.min(count, 16));
        for (int i = 0; i < count; i++) {
            String cfName = readString(in);
            int type = in.readUnsignedByte();
            if (type != STANDARD && type != SUPER) throw new IOException("unknown column family type " + type);
            byte[] row = new byte[checkedLength(in.readInt(), in)];
            in.readFully(row);
            Optional<CFMetaData> cf = ks.flatMap(k -> k.columnFamily(cfName));
            String name = keyspace + "." + cfName;
            if (cf.isEmpty()) {
                unknown.accept(name);
            } else if (cf.get().isSuper() != (type == SUPER)) {
                unknown.accept(name + " (written as " + (type == SUPER ? "Super" : "Standard") + ")");
            } else {
                ColumnFamily decoded = decodeRow(cf.get(), row);
                if (decoded == null) {
                    unknown.accept(name + " (its names do not fit the configured comparator)");
                } else {
                    rows.add(decoded);
                }
            }
        }
        if (in.available() != 0) throw new IOException("trailing bytes after mutation of key " + key);
        return new ResolvedMutation(keyspace, key, rows);
    }

    /**
     * Hands the keyspace and column family names of a payload written by {@link #serialize} to
     * {@code visitor}, stepping over the key and each row by its length: what replay needs to
     * tell whether SSTables hold the entry already, at a fraction of the cost of decoding it.
     *
     * @throws IOException when the payload is not shaped as {@link #serialize} writes
     */
    public static void outline(ByteBuffer payload, OutlineVisitor visitor) throws IOException {
        ByteBuffer in = payload.duplicate();
        try {
            visitor.keyspace(slice(in, in.getInt()));
            skip(in, in.getInt()); // the key
            int count = in.getInt();
            if (count < 0) throw new IOException("negative column family count " + count);
            for (int i = 0; i < count; i++) {
                visitor.columnFamily(slice(in, in.getInt()));
                in.get(); // type
                skip(in, in.getInt());
            }
        } catch (BufferUnderflowException e) {
            throw new IOException("payload ends inside a mutation", e);
        }
    }

    private static ByteBuffer slice(ByteBuffer in, int length) throws IOException {
        int at = in.position();
        skip(in, length);
        return in.slice(at, length);
    }

    private static void skip(ByteBuffer in, int length) throws IOException {
        if (length < 0 || length > in.remaining()) {
            throw new IOException("length " + length + " exceeds the " + in.remaining() + " bytes left");
        }
        in.position(in.position() + length);
    }

    /**
     * A row as the column family is configured now; null when its names no longer fit the
     * comparator. The row's bytes are intact (the log checks them), so a row that does not
     * read back is a schema change, not damage.
     */
    private static ColumnFamily decodeRow(CFMetaData cf, byte[] row) throws IOException {
        DataInputStream rowIn = new DataInputStream(new ByteArrayInputStream(row));
        ColumnFamily decoded;
        try {
            decoded = ColumnFamilySerializer.deserialize(cf, rowIn);
        } catch (RuntimeException e) {
            return null;
        }
        if (rowIn.available() != 0) throw new IOException("trailing bytes after row of " + cf.name());
        return decoded;
    }

    /** Bytes of a string as written: its length, then its bytes ({@link BinaryKeys#encode}). */
    private static int stringLength(String s) {
        int ascii = asciiLength(s);
        return 4 + (ascii >= 0 ? ascii : BinaryKeys.encode(s).length);
    }

    /**
     * Writes the length and bytes of {@code s} ({@link BinaryKeys#encode}: UTF-8 for any name and for every key
     * of the 0.6 dialect). Most keys and every keyspace and column
     * family name are ASCII, whose UTF-8 bytes are its chars: those are written without
     * encoding them into an array first.
     */
    private static void writeString(String s, ByteBuffer out) {
        int ascii = asciiLength(s);
        if (ascii >= 0) {
            out.putInt(ascii);
            for (int i = 0; i < ascii; i++) out.put((byte) s.charAt(i));
        } else {
            byte[] bytes = BinaryKeys.encode(s);
            out.putInt(bytes.length);
            out.put(bytes);
        }
    }

    /** The length of {@code s} when it is all ASCII, else -1. */
    private static int asciiLength(String s) {
        int n = s.length();
        for (int i = 0; i < n; i++) {
            if (s.charAt(i) >= 0x80) return -1;
        }
        return n;
    }

    private static String readString(DataInputStream in) throws IOException {
        byte[] utf8 = new byte[checkedLength(in.readInt(), in)];
        in.readFully(utf8);
        return BinaryKeys.decode(utf8);
    }

    /** A length that fits in what is left, so a bad one fails cleanly instead of allocating wildly. */
    private static int checkedLength(int length, DataInputStream in) throws IOException {
        if (length < 0 || length > in.available()) {
            throw new IOException("length " + length + " exceeds the " + in.available() + " bytes left");
        }
        return length;
    }
}
