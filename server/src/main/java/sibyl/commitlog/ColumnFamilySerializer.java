package sibyl.commitlog;

import java.io.DataInput;
import java.io.IOException;
import java.nio.ByteBuffer;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.Deletion;
import sibyl.db.SuperColumn;

/**
 * Writes a {@link ColumnFamily} version (one row of one column family) and reads it back,
 * tombstones and shadowed versions included, so a read-back row reconciles exactly as the
 * written one did. Used by the commit log. Writing goes into a {@link ByteBuffer} sized
 * beforehand by {@link #serializedLength}, so a log entry is built in one array of its exact
 * length.
 *
 * <p>Format (big-endian):
 * <pre>
 * ColumnFamily := Deletion                  the row tombstone
 *                 count:int                 cells that follow, in comparator order
 *                 (Column | SuperColumn){count}   Column in a standard CF, SuperColumn in a super CF
 * SuperColumn  := name
 *                 Deletion                  its tombstone
 *                 count:int  Column{count}  subcolumns, in subcomparator order
 * Deletion     := markedForDeleteAt:long    Long.MIN_VALUE = none
 *                 localDeletionTime:int     seconds; Integer.MIN_VALUE = none
 * Column       := name
 *                 flags:byte                0 = live, 1 = tombstone, 2 = expiring, 4 = counter (value: the 8-byte increment);
 *                                           other values are refused
 *                 timestamp:long
 *                 live:      length:int  value:byte[length]
 *                 tombstone: localDeletionTime:int
 *                 expiring:  ttl:int  localExpirationTime:int  length:int  value:byte[length]
 *                            (logs written before expiring columns existed hold no flag 2 and read as before)
 * name         := length:unsigned short  bytes[length]   (names are at most 65535 bytes, as in 0.6)
 * </pre>
 * The column family's name and type are not written: the reader supplies the metadata, which
 * decides whether cells are columns or super columns and how they sort.
 */
public final class ColumnFamilySerializer {
    private static final int LIVE = 0;
    private static final int TOMBSTONE = 1;
    private static final int EXPIRING = 2;
    /** A counter cell: one increment as a client sent it, its value the 8-byte delta (never a sum). */
    private static final int COUNTER = 4;
    private static final int MAX_NAME_LENGTH = 0xFFFF;
    private static final int DELETION_LENGTH = 8 + 4;

    private ColumnFamilySerializer() {
    }

    /** The bytes {@link #serialize} writes for {@code row}. */
    public static int serializedLength(ColumnFamily row) {
        int length = DELETION_LENGTH + 4;
        for (Cell cell : row.cells()) {
            if (cell instanceof SuperColumn sc) {
                length += nameLength(sc.name()) + DELETION_LENGTH + 4;
                for (Column c : sc.subcolumns()) length += columnLength(c);
            } else {
                length += columnLength((Column) cell);
            }
        }
        return length;
    }

    /**
     * Writes {@code row} at {@code out}'s position, which advances by {@link #serializedLength}.
     *
     * @throws java.nio.BufferOverflowException when {@code out} has less room than that
     */
    public static void serialize(ColumnFamily row, ByteBuffer out) {
        writeDeletion(row.deletion(), out);
        out.putInt(row.cellCount());
        for (Cell cell : row.cells()) {
            if (cell instanceof SuperColumn sc) {
                writeSuperColumn(sc, out);
            } else {
                writeColumn((Column) cell, out);
            }
        }
    }

    /** {@code row} serialized, in an array of its own. */
    public static byte[] serialize(ColumnFamily row) {
        ByteBuffer out = ByteBuffer.allocate(serializedLength(row));
        serialize(row, out);
        return out.array();
    }

    /**
     * Reads a row written by {@link #serialize} for the column family {@code metadata} describes.
     *
     * @throws IOException when the input ends early or holds what no writer produces
     */
    public static ColumnFamily deserialize(CFMetaData metadata, DataInput in) throws IOException {
        Deletion deletion = readDeletion(in);
        int count = readCount(in, "cell");
        // Not count itself: a corrupt count must not size an array; the builder grows as cells come.
        ColumnFamily.Builder row = ColumnFamily.builder(metadata, Math.min(count, 1024)).delete(deletion);
        for (int i = 0; i < count; i++) {
            row.add(metadata.isSuper() ? readSuperColumn(metadata, in) : readColumn(in));
        }
        return row.build();
    }

    private static void writeSuperColumn(SuperColumn sc, ByteBuffer out) {
        writeName(sc.name(), out);
        writeDeletion(sc.deletion(), out);
        out.putInt(sc.subcolumnCount());
        for (Column c : sc.subcolumns()) writeColumn(c, out);
    }

    private static SuperColumn readSuperColumn(CFMetaData metadata, DataInput in) throws IOException {
        byte[] name = readName(in);
        Deletion deletion = readDeletion(in);
        int count = readCount(in, "subcolumn");
        SuperColumn.Builder sc = SuperColumn.builder(name, metadata.subcomparator(), Math.min(count, 1024))
                .delete(deletion);
        for (int i = 0; i < count; i++) sc.add(readColumn(in));
        return sc.build();
    }

    private static void writeDeletion(Deletion deletion, ByteBuffer out) {
        out.putLong(deletion.markedForDeleteAt());
        out.putInt(deletion.localDeletionTime());
    }

    /** A tombstone; the shared {@link Deletion#LIVE} when never deleted. */
    private static Deletion readDeletion(DataInput in) throws IOException {
        long markedForDeleteAt = in.readLong();
        return Deletion.of(markedForDeleteAt, in.readInt());
    }

    private static int columnLength(Column c) {
        return nameLength(c.name()) + 1 + 8 + 4 + (c.isTombstone() ? 0 : c.value().length) + (c.isExpiring() ? 8 : 0);
    }

    private static void writeColumn(Column c, ByteBuffer out) {
        writeName(c.name(), out);
        out.put((byte) (c.isTombstone() ? TOMBSTONE : c.isExpiring() ? EXPIRING : c.isCounter() ? COUNTER : LIVE));
        out.putLong(c.timestamp());
        if (c.isTombstone()) {
            out.putInt(c.localDeletionTime());
        } else {
            if (c.isExpiring()) {
                out.putInt(c.ttl());
                out.putInt(c.localExpirationTime());
            }
            out.putInt(c.value().length);
            out.put(c.value());
        }
    }

    private static Column readColumn(DataInput in) throws IOException {
        byte[] name = readName(in);
        int flags = in.readUnsignedByte();
        long timestamp = in.readLong();
        if (flags == TOMBSTONE) return Column.tombstone(name, timestamp, in.readInt());
        if (flags != LIVE && flags != EXPIRING && flags != COUNTER) throw new IOException("unknown column flags " + flags);
        int ttl = flags == EXPIRING ? in.readInt() : Column.NO_TTL;
        int expiresAt = flags == EXPIRING ? in.readInt() : 0;
        if (flags == EXPIRING && ttl <= 0) throw new IOException("expiring column with ttl " + ttl);
        byte[] value = new byte[readCount(in, "value byte")];
        in.readFully(value);
        if (flags == COUNTER) {
            if (value.length != 8) throw new IOException("counter of " + value.length + " bytes");
            return Column.counter(name, ByteBuffer.wrap(value).getLong(), timestamp);
        }
        return flags == EXPIRING ? Column.expiring(name, value, timestamp, ttl, expiresAt) : Column.live(name, value, timestamp);
    }

    private static int nameLength(byte[] name) {
        if (name.length > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException("name of " + name.length + " bytes is longer than " + MAX_NAME_LENGTH);
        }
        return 2 + name.length;
    }

    private static void writeName(byte[] name, ByteBuffer out) {
        out.putShort((short) name.length);
        out.put(name);
    }

    private static byte[] readName(DataInput in) throws IOException {
        byte[] name = new byte[in.readUnsignedShort()];
        in.readFully(name);
        return name;
    }

    private static int readCount(DataInput in, String what) throws IOException {
        int count = in.readInt();
        if (count < 0) throw new IOException("negative " + what + " count " + count);
        return count;
    }
}
