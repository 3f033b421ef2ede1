package sibyl.db;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Writes a {@link ColumnFamily} version (one row of one column family) to a {@link DataOutput}
 * and reads it back, tombstones and shadowed versions included, so a read-back row reconciles
 * exactly as the written one did. Used by the commit log; meant for SSTable rows too.
 *
 * <p>Format (big-endian, as {@link DataOutput} writes):
 * <pre>
 * ColumnFamily := markedForDeleteAt:long   row tombstone; Long.MIN_VALUE = none
 *                 localDeletionTime:int     seconds; Integer.MIN_VALUE = none
 *                 count:int                 cells that follow, in comparator order
 *                 (Column | SuperColumn){count}   Column in a standard CF, SuperColumn in a super CF
 * SuperColumn  := name
 *                 markedForDeleteAt:long  localDeletionTime:int   its tombstone, as above
 *                 count:int  Column{count}                       subcolumns, in subcomparator order
 * Column       := name
 *                 flags:byte                0 = live, 1 = tombstone; other values are refused
 *                 timestamp:long
 *                 live:      length:int  value:byte[length]
 *                 tombstone: localDeletionTime:int
 * name         := length:unsigned short  bytes[length]   (names are at most 65535 bytes, as in 0.6)
 * </pre>
 * The column family's name and type are not written: the reader supplies the metadata, which
 * decides whether cells are columns or super columns and how they sort.
 */
public final class ColumnFamilySerializer {
    private static final int LIVE = 0;
    private static final int TOMBSTONE = 1;
    private static final int MAX_NAME_LENGTH = 0xFFFF;

    private ColumnFamilySerializer() {
    }

    public static void serialize(ColumnFamily row, DataOutput out) throws IOException {
        out.writeLong(row.markedForDeleteAt());
        out.writeInt(row.localDeletionTime());
        out.writeInt(row.cellCount());
        for (Cell cell : row.cells()) {
            if (cell instanceof SuperColumn sc) {
                writeSuperColumn(sc, out);
            } else {
                writeColumn((Column) cell, out);
            }
        }
    }

    /**
     * Reads a row written by {@link #serialize} for the column family {@code metadata} describes.
     *
     * @throws IOException when the input ends early or holds what no writer produces
     */
    public static ColumnFamily deserialize(CFMetaData metadata, DataInput in) throws IOException {
        long markedForDeleteAt = in.readLong();
        int localDeletionTime = in.readInt();
        ColumnFamily row = ColumnFamily.empty(metadata).withDeletion(markedForDeleteAt, localDeletionTime);
        int count = readCount(in, "cell");
        for (int i = 0; i < count; i++) {
            row = row.withCell(metadata.isSuper() ? readSuperColumn(metadata, in) : readColumn(in));
        }
        return row;
    }

    private static void writeSuperColumn(SuperColumn sc, DataOutput out) throws IOException {
        writeName(sc.name(), out);
        out.writeLong(sc.markedForDeleteAt());
        out.writeInt(sc.localDeletionTime());
        out.writeInt(sc.subcolumnCount());
        for (Column c : sc.subcolumns()) writeColumn(c, out);
    }

    private static SuperColumn readSuperColumn(CFMetaData metadata, DataInput in) throws IOException {
        byte[] name = readName(in);
        long markedForDeleteAt = in.readLong();
        int localDeletionTime = in.readInt();
        SuperColumn sc = SuperColumn.empty(name, metadata.subcomparator())
                .withDeletion(markedForDeleteAt, localDeletionTime);
        int count = readCount(in, "subcolumn");
        for (int i = 0; i < count; i++) sc = sc.withColumn(readColumn(in));
        return sc;
    }

    private static void writeColumn(Column c, DataOutput out) throws IOException {
        writeName(c.name(), out);
        out.writeByte(c.isTombstone() ? TOMBSTONE : LIVE);
        out.writeLong(c.timestamp());
        if (c.isTombstone()) {
            out.writeInt(c.localDeletionTime());
        } else {
            out.writeInt(c.value().length);
            out.write(c.value());
        }
    }

    private static Column readColumn(DataInput in) throws IOException {
        byte[] name = readName(in);
        int flags = in.readUnsignedByte();
        long timestamp = in.readLong();
        if (flags == TOMBSTONE) return Column.tombstone(name, timestamp, in.readInt());
        if (flags != LIVE) throw new IOException("unknown column flags " + flags);
        byte[] value = new byte[readCount(in, "value byte")];
        in.readFully(value);
        return Column.live(name, value, timestamp);
    }

    private static void writeName(byte[] name, DataOutput out) throws IOException {
        if (name.length > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException("name of " + name.length + " bytes is longer than " + MAX_NAME_LENGTH);
        }
        out.writeShort(name.length);
        out.write(name);
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
