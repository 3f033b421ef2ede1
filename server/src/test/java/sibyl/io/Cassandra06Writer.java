package sibyl.io;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.SuperColumn;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;
import sibyl.dht.RandomPartitioner;

/**
 * Writes SSTables as Cassandra 0.6 did, for tests: from the facts of FORMAT.md ("Cassandra 0.6 SSTables"),
 * not from 0.6's code. Data, Index and Filter files under their final names; the Filter and each row's bloom
 * filter hold arbitrary bytes (Sibyl skips them). Rows must come in ring order.
 */
public final class Cassandra06Writer {
    private final Descriptor descriptor;
    private final Partitioner partitioner;
    private final int columnIndexSize;
    private final ByteArrayOutputStream data = new ByteArrayOutputStream();
    private final ByteArrayOutputStream index = new ByteArrayOutputStream();
    private final Random bloomBytes = new Random(6);
    private DecoratedKey last;

    /**
     * @param columnIndexSize bytes after which 0.6 closed a column index block (ColumnIndexSizeInKB × 1024)
     */
    public Cassandra06Writer(Path directory, String columnFamily, int generation, Partitioner partitioner,
                             int columnIndexSize) {
        this.descriptor = new Descriptor(directory, columnFamily, generation, SSTableFormat.CASSANDRA_06);
        this.partitioner = partitioner;
        this.columnIndexSize = columnIndexSize;
    }

    /** Writes {@code rows} (in ring order) as the SSTable of {@code generation}; returns it. */
    public static Descriptor write(Path directory, String columnFamily, int generation, Partitioner partitioner,
                                   int columnIndexSize, Iterable<Map.Entry<DecoratedKey, ColumnFamily>> rows)
            throws IOException {
        Cassandra06Writer writer = new Cassandra06Writer(directory, columnFamily, generation, partitioner, columnIndexSize);
        for (Map.Entry<DecoratedKey, ColumnFamily> row : rows) writer.append(row.getKey(), row.getValue());
        return writer.finish();
    }

    /** The key as 0.6 wrote it into its files under {@code partitioner}. */
    public static String diskKey(Partitioner partitioner, DecoratedKey key) {
        return partitioner instanceof RandomPartitioner ? partitioner.toString(key.token()) + ":" + key.key() : key.key();
    }

    public Cassandra06Writer append(DecoratedKey key, ColumnFamily row) throws IOException {
        if (last != null && key.compareTo(last) <= 0) throw new IllegalArgumentException(key + " after " + last);
        last = key;
        String diskKey = diskKey(partitioner, key);
        DataOutputStream indexOut = new DataOutputStream(index);
        indexOut.writeUTF(diskKey);
        indexOut.writeLong(data.size());
        DataOutputStream dataOut = new DataOutputStream(data);
        dataOut.writeUTF(diskKey);
        byte[] body = rowBody(row);
        dataOut.writeInt(body.length);
        dataOut.write(body);
        return this;
    }

    /** bloom filter | column index | deletion | count | cells, as 0.6 serialized a row after its key and size. */
    private byte[] rowBody(ColumnFamily row) throws IOException {
        ByteArrayOutputStream cells = new ByteArrayOutputStream();
        List<byte[][]> blocks = new ArrayList<>(); // firstName, lastName, offset, width
        int blockStart = 0;
        byte[] first = null;
        byte[] lastName = null;
        int count = 0;
        for (Cell cell : row.cells()) {
            if (first == null) first = cell.name();
            lastName = cell.name();
            writeCell(new DataOutputStream(cells), cell);
            count++;
            if (cells.size() - blockStart >= columnIndexSize) {
                blocks.add(block(first, lastName, blockStart, cells.size() - blockStart));
                blockStart = cells.size();
                first = null;
            }
        }
        if (count > 0 && (blocks.isEmpty() || !Arrays.equals(blocks.get(blocks.size() - 1)[1], lastName))) {
            blocks.add(block(first, lastName, blockStart, cells.size() - blockStart));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        DataOutputStream o = new DataOutputStream(out);
        byte[] bloom = new byte[8 + 2 * count];
        bloomBytes.nextBytes(bloom);
        o.writeInt(bloom.length);
        o.write(bloom);
        ByteArrayOutputStream columnIndex = new ByteArrayOutputStream();
        DataOutputStream ci = new DataOutputStream(columnIndex);
        for (byte[][] b : blocks) {
            writeName(ci, b[0]);
            writeName(ci, b[1]);
            ci.write(b[2]);
            ci.write(b[3]);
        }
        o.writeInt(columnIndex.size());
        o.write(columnIndex.toByteArray());
        o.writeInt(row.deletion().localDeletionTime());
        o.writeLong(row.deletion().markedForDeleteAt());
        o.writeInt(count);
        o.write(cells.toByteArray());
        return out.toByteArray();
    }

    private static byte[][] block(byte[] first, byte[] last, long offset, long width) {
        return new byte[][]{first, last, longBytes(offset), longBytes(width)};
    }

    private static byte[] longBytes(long v) {
        return java.nio.ByteBuffer.allocate(8).putLong(v).array();
    }

    private static void writeCell(DataOutputStream out, Cell cell) throws IOException {
        if (cell instanceof Column c) {
            writeColumn(out, c);
            return;
        }
        SuperColumn sc = (SuperColumn) cell;
        writeName(out, sc.name());
        out.writeInt(sc.deletion().localDeletionTime());
        out.writeLong(sc.deletion().markedForDeleteAt());
        out.writeInt(sc.subcolumnCount());
        for (Column c : sc.subcolumns()) writeColumn(out, c);
    }

    private static void writeColumn(DataOutputStream out, Column c) throws IOException {
        writeName(out, c.name());
        out.writeBoolean(c.isTombstone());
        out.writeLong(c.timestamp());
        out.writeInt(c.value().length);
        out.write(c.value());
    }

    private static void writeName(DataOutputStream out, byte[] name) throws IOException {
        out.writeShort(name.length);
        out.write(name);
    }

    /** Writes the files (Index, Filter, then Data, as 0.6 renamed them into place); returns the SSTable. */
    public Descriptor finish() throws IOException {
        Files.createDirectories(descriptor.directory());
        write(descriptor.path(Component.INDEX), index.toByteArray());
        byte[] filter = new byte[64];
        bloomBytes.nextBytes(filter);
        write(descriptor.path(Component.FILTER), filter);
        write(descriptor.path(Component.DATA), data.toByteArray());
        return descriptor;
    }

    private static void write(Path path, byte[] bytes) throws IOException {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(path))) {
            out.write(bytes);
        }
    }
}
