package sibyl.commitlog;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UTFDataFormatException;
import java.util.ArrayList;
import java.util.List;
import sibyl.db.CFMetaData;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.Deletion;
import sibyl.db.SuperColumn;

/**
 * One entry of a Cassandra 0.6 commit log segment: a row mutation as 0.6 serialized it
 * (big-endian, strings in {@code DataOutput.writeUTF} form: u16 length then modified UTF-8):
 * <pre>
 * mutation     := keyspace:utf  key:utf  count:int  (mapKey:utf  columnFamily){count}
 * columnFamily := name:utf                   "" = none, and nothing else follows
 *                 type:utf                   "Standard" or "Super"
 *                 comparator:utf  subcomparator:utf   class names; "" = none
 *                 localDeletionTime:int  markedForDeleteAt:long   Integer/Long.MIN_VALUE = not deleted
 *                 count:int  (column | superColumn){count}
 * superColumn  := name  localDeletionTime:int  markedForDeleteAt:long  count:int  column{count}
 * column       := name  deleted:boolean  timestamp:long  length:int  value:byte[length]
 *                 a deleted column's value is its local deletion time, 4 bytes
 * name         := length:u16  bytes[length]
 * </pre>
 * Nothing is length-prefixed, so every part is read to find the next. The rows are kept as read
 * ({@link Row}) until the configured column family they belong to is known; super columns that hold
 * nothing (no subcolumn, no tombstone), which 0.6's read repair writes, are left out.
 */
record LegacyMutation(String keyspace, String key, List<Row> rows) {
    static final String STANDARD = "Standard";
    static final String SUPER = "Super";

    LegacyMutation {
        rows = List.copyOf(rows);
    }

    /** A super column as read: its name, tombstone and subcolumns. */
    record RawSuperColumn(byte[] name, Deletion deletion, List<Column> subcolumns) {
    }

    /**
     * One column family's part of the mutation, as read.
     *
     * @param columns      the columns of a standard column family; empty for a super one
     * @param superColumns the super columns of a super column family; empty for a standard one
     */
    record Row(String columnFamily, String type, String comparator, String subcomparator, Deletion deletion,
               List<Column> columns, List<RawSuperColumn> superColumns) {
        boolean isSuper() {
            return SUPER.equals(type);
        }

        boolean isEmpty() {
            return columns.isEmpty() && superColumns.isEmpty() && !deletion.isMarkedForDelete();
        }

        /** The row as a delta of the configured column family, which must be of its type. */
        ColumnFamily toColumnFamily(CFMetaData metadata) {
            int cells = Math.max(columns.size(), superColumns.size());
            ColumnFamily.Builder row = ColumnFamily.builder(metadata, cells).delete(deletion);
            for (Column c : columns) row.add(c);
            for (RawSuperColumn sc : superColumns) {
                SuperColumn.Builder built = SuperColumn.builder(sc.name(), metadata.subcomparator(), sc.subcolumns().size())
                        .delete(sc.deletion());
                for (Column c : sc.subcolumns()) built.add(c);
                row.add(built.build());
            }
            return row.build();
        }
    }

    /** The bytes of an entry whose checksum holds are not a mutation 0.6 wrote. */
    static final class UndecodableException extends IOException {
        UndecodableException(String message) {
            super(message);
        }
    }

    /**
     * Reads one entry's mutation bytes.
     *
     * @throws UndecodableException when they are not a whole 0.6 row mutation
     */
    static LegacyMutation decode(byte[] bytes) throws UndecodableException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        try {
            String keyspace = in.readUTF();
            String key = in.readUTF();
            int count = count(in, "column family");
            List<Row> rows = new ArrayList<>(Math.min(count, 16));
            for (int i = 0; i < count; i++) {
                in.readUTF(); // the map key: the column family's name again
                Row row = readRow(in);
                if (row != null) rows.add(row);
            }
            if (in.available() != 0) throw new UndecodableException(in.available() + " bytes after the mutation");
            return new LegacyMutation(keyspace, key, rows);
        } catch (UndecodableException e) {
            throw e;
        } catch (EOFException e) {
            throw new UndecodableException("the mutation ends early");
        } catch (UTFDataFormatException e) {
            throw new UndecodableException("a name is not modified UTF-8");
        } catch (IOException e) {
            throw new UndecodableException(e.toString());
        }
    }

    /** A column family's part; null for the empty name 0.6 wrote for none. */
    private static Row readRow(DataInputStream in) throws IOException {
        String name = in.readUTF();
        if (name.isEmpty()) return null;
        String type = in.readUTF();
        if (!type.equals(STANDARD) && !type.equals(SUPER)) {
            throw new UndecodableException("column family " + name + " has type '" + type + "'");
        }
        String comparator = in.readUTF();
        String subcomparator = in.readUTF();
        Deletion deletion = readDeletion(in);
        int count = count(in, "column");
        List<Column> columns = new ArrayList<>();
        List<RawSuperColumn> superColumns = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (type.equals(SUPER)) {
                byte[] scName = readName(in);
                Deletion scDeletion = readDeletion(in);
                int subcount = count(in, "subcolumn");
                List<Column> subcolumns = new ArrayList<>(Math.min(subcount, 1024));
                for (int j = 0; j < subcount; j++) subcolumns.add(readColumn(in));
                // 0.6's read repair logs a super column with neither subcolumns nor a tombstone for each deleted
                // one it reads: it holds nothing, and is left out rather than kept as an empty super column.
                if (!subcolumns.isEmpty() || scDeletion.isMarkedForDelete()) {
                    superColumns.add(new RawSuperColumn(scName, scDeletion, subcolumns));
                }
            } else {
                columns.add(readColumn(in));
            }
        }
        return new Row(name, type, comparator, subcomparator, deletion, columns, superColumns);
    }

    /** 0.6 writes the local deletion time first, then the client's timestamp. */
    private static Deletion readDeletion(DataInputStream in) throws IOException {
        int localDeletionTime = in.readInt();
        long markedForDeleteAt = in.readLong();
        return Deletion.of(markedForDeleteAt, localDeletionTime);
    }

    private static Column readColumn(DataInputStream in) throws IOException {
        byte[] name = readName(in);
        boolean deleted = in.readBoolean();
        long timestamp = in.readLong();
        int length = in.readInt();
        if (length < 0 || length > in.available()) {
            throw new UndecodableException("a column value of " + length + " bytes where " + in.available() + " are left");
        }
        byte[] value = new byte[length];
        in.readFully(value);
        if (!deleted) return Column.live(name, value, timestamp);
        if (length != Integer.BYTES) throw new UndecodableException("a deleted column with a " + length + "-byte value");
        int localDeletionTime = ((value[0] & 0xFF) << 24) | ((value[1] & 0xFF) << 16) | ((value[2] & 0xFF) << 8)
                | (value[3] & 0xFF);
        return Column.tombstone(name, timestamp, localDeletionTime);
    }

    private static byte[] readName(DataInputStream in) throws IOException {
        byte[] name = new byte[in.readUnsignedShort()];
        in.readFully(name);
        return name;
    }

    private static int count(DataInputStream in, String what) throws IOException {
        int count = in.readInt();
        if (count < 0) throw new UndecodableException("a negative " + what + " count " + count);
        return count;
    }
}
