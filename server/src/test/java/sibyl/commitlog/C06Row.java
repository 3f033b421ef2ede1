package sibyl.commitlog;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Test only: one column family's part of a Cassandra 0.6 row mutation, and the mutation's bytes
 * as 0.6 serialized them (see {@link LegacyMutation} for the layout).
 */
final class C06Row {
    static final String BYTES = "org.apache.cassandra.db.marshal.BytesType";
    static final String UTF8 = "org.apache.cassandra.db.marshal.UTF8Type";

    private record C06Column(byte[] name, boolean deleted, long timestamp, byte[] value) {
    }

    private record C06SuperColumn(byte[] name, int localDeletionTime, long markedForDeleteAt, List<C06Column> columns) {
    }

    private final String name;
    private final String type;
    private final String comparator;
    private final String subcomparator;
    private int localDeletionTime = Integer.MIN_VALUE;
    private long markedForDeleteAt = Long.MIN_VALUE;
    private final List<C06Column> columns = new ArrayList<>();
    private final List<C06SuperColumn> superColumns = new ArrayList<>();

    private C06Row(String name, String type, String comparator, String subcomparator) {
        this.name = name;
        this.type = type;
        this.comparator = comparator;
        this.subcomparator = subcomparator;
    }

    static C06Row standard(String name, String comparator) {
        return new C06Row(name, "Standard", comparator, "");
    }

    static C06Row standard(String name) {
        return standard(name, BYTES);
    }

    static C06Row ofSuper(String name, String comparator, String subcomparator) {
        return new C06Row(name, "Super", comparator, subcomparator);
    }

    static C06Row ofSuper(String name) {
        return ofSuper(name, BYTES, BYTES);
    }

    String name() {
        return name;
    }

    C06Row column(String name, String value, long timestamp) {
        columns.add(live(name, value, timestamp));
        return this;
    }

    C06Row tombstone(String name, long timestamp, int localDeletionTime) {
        columns.add(dead(name, timestamp, localDeletionTime));
        return this;
    }

    /** The whole row deleted at {@code markedForDeleteAt}, made at {@code localDeletionTime}. */
    C06Row deleted(long markedForDeleteAt, int localDeletionTime) {
        this.markedForDeleteAt = markedForDeleteAt;
        this.localDeletionTime = localDeletionTime;
        return this;
    }

    /** A super column with live subcolumns {@code name=value} pairs at {@code timestamp}. */
    C06Row superColumn(String name, long timestamp, String... namesAndValues) {
        return superColumn(name, Long.MIN_VALUE, Integer.MIN_VALUE, timestamp, namesAndValues);
    }

    /** A super column with a tombstone, and live subcolumns {@code name=value} pairs at {@code timestamp}. */
    C06Row superColumn(String name, long markedForDeleteAt, int localDeletionTime, long timestamp,
                       String... namesAndValues) {
        List<C06Column> subs = new ArrayList<>();
        for (int i = 0; i < namesAndValues.length; i += 2) subs.add(live(namesAndValues[i], namesAndValues[i + 1], timestamp));
        superColumns.add(new C06SuperColumn(utf8(name), localDeletionTime, markedForDeleteAt, subs));
        return this;
    }

    /** A super column holding one subcolumn tombstone. */
    C06Row superColumnTombstone(String name, String subcolumn, long timestamp, int localDeletionTime) {
        superColumns.add(new C06SuperColumn(utf8(name), Integer.MIN_VALUE, Long.MIN_VALUE,
                List.of(dead(subcolumn, timestamp, localDeletionTime))));
        return this;
    }

    /** A row mutation's bytes as 0.6 wrote them into an entry. */
    static byte[] mutation(String keyspace, String key, C06Row... rows) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        try {
            out.writeUTF(keyspace);
            out.writeUTF(key);
            out.writeInt(rows.length);
            for (C06Row row : rows) {
                out.writeUTF(row.name);
                row.writeTo(out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private void writeTo(DataOutputStream out) throws IOException {
        out.writeUTF(name);
        out.writeUTF(type);
        out.writeUTF(comparator);
        out.writeUTF(subcomparator);
        out.writeInt(localDeletionTime);
        out.writeLong(markedForDeleteAt);
        if (type.equals("Super")) {
            out.writeInt(superColumns.size());
            for (C06SuperColumn sc : superColumns) {
                writeName(sc.name(), out);
                out.writeInt(sc.localDeletionTime());
                out.writeLong(sc.markedForDeleteAt());
                out.writeInt(sc.columns().size());
                for (C06Column c : sc.columns()) writeColumn(c, out);
            }
        } else {
            out.writeInt(columns.size());
            for (C06Column c : columns) writeColumn(c, out);
        }
    }

    private static void writeColumn(C06Column c, DataOutputStream out) throws IOException {
        writeName(c.name(), out);
        out.writeBoolean(c.deleted());
        out.writeLong(c.timestamp());
        out.writeInt(c.value().length);
        out.write(c.value());
    }

    private static void writeName(byte[] name, DataOutputStream out) throws IOException {
        out.writeShort(name.length);
        out.write(name);
    }

    private static C06Column live(String name, String value, long timestamp) {
        return new C06Column(utf8(name), false, timestamp, utf8(value));
    }

    private static C06Column dead(String name, long timestamp, int localDeletionTime) {
        byte[] v = {(byte) (localDeletionTime >>> 24), (byte) (localDeletionTime >>> 16),
                (byte) (localDeletionTime >>> 8), (byte) localDeletionTime};
        return new C06Column(utf8(name), true, timestamp, v);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
