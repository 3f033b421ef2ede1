package sibyl.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.Deletion;
import sibyl.db.LogPosition;
import sibyl.db.SuperColumn;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.AsciiType;
import sibyl.db.marshal.BytesType;
import sibyl.db.marshal.LexicalUUIDType;
import sibyl.db.marshal.LongType;
import sibyl.db.marshal.TimeUUIDType;
import sibyl.db.marshal.UTF8Type;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;
import sibyl.engine.Memtable;

/** Random rows, memtables and SSTables for the tests of this package; no shared state. */
final class SSTableFixtures {
    static final String KS = "Keyspace1";
    static final List<AbstractType> COMPARATORS = List.of(BytesType.instance, AsciiType.instance, UTF8Type.instance,
            LongType.instance, LexicalUUIDType.instance, TimeUUIDType.instance);

    private SSTableFixtures() {
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A valid, non-empty name for {@code comparator}. */
    static byte[] randomName(AbstractType comparator, Random random) {
        if (comparator == LongType.instance || comparator == LexicalUUIDType.instance || comparator == TimeUUIDType.instance) {
            byte[] name = new byte[comparator == LongType.instance ? 8 : 16];
            random.nextBytes(name);
            if (comparator == TimeUUIDType.instance) name[6] = (byte) (0x10 | (name[6] & 0x0f));
            return name;
        }
        int length = 1 + random.nextInt(6);
        if (comparator == BytesType.instance) {
            byte[] name = new byte[length];
            random.nextBytes(name);
            return name;
        }
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < length; i++) {
            boolean ascii = comparator == AsciiType.instance || random.nextInt(4) > 0;
            s.append(ascii ? (char) ('a' + random.nextInt(26)) : (char) (0xE0 + random.nextInt(200)));
        }
        return b(s.toString());
    }

    static Column randomColumn(AbstractType comparator, Random random) {
        byte[] name = randomName(comparator, random);
        long timestamp = random.nextInt(1000);
        if (random.nextInt(5) == 0) return Column.tombstone(name, timestamp, 1_000_000 + random.nextInt(1000));
        byte[] value = new byte[random.nextInt(20)];
        random.nextBytes(value);
        return Column.live(name, value, timestamp);
    }

    /** A row version with tombstones at every level now and then. */
    static ColumnFamily randomRow(CFMetaData cf, Random random, int maxCells) {
        ColumnFamily row = ColumnFamily.empty(cf);
        if (random.nextInt(6) == 0) row = row.withDeletion(random.nextInt(1000), 1_000_000 + random.nextInt(1000));
        int cells = random.nextInt(maxCells + 1);
        for (int i = 0; i < cells; i++) {
            if (!cf.isSuper()) {
                row = row.withCell(randomColumn(cf.comparator(), random));
                continue;
            }
            SuperColumn sc = SuperColumn.empty(randomName(cf.comparator(), random), cf.subcomparator());
            if (random.nextInt(4) == 0) sc = sc.withDeletion(random.nextInt(1000), 1_000_000 + random.nextInt(1000));
            int subs = random.nextInt(5);
            for (int j = 0; j < subs; j++) sc = sc.withColumn(randomColumn(cf.subcomparator(), random));
            row = row.withCell(sc);
        }
        return row;
    }

    /** A memtable of {@code keys} random keys, each written by one to three random deltas. */
    static Memtable randomMemtable(CFMetaData cf, Partitioner partitioner, Random random, int keys, int maxCells) {
        Memtable memtable = new Memtable(cf, Runnable::run);
        for (int i = 0; i < keys; i++) {
            DecoratedKey key = partitioner.decorateKey("key" + random.nextInt(keys * 10));
            int deltas = 1 + random.nextInt(3);
            for (int d = 0; d < deltas; d++) {
                ColumnFamily delta = randomRow(cf, random, maxCells);
                if (delta.isEmpty()) delta = delta.withDeletion(random.nextInt(1000), 1_000_000);
                memtable.apply(key, delta, 1);
            }
        }
        return memtable;
    }

    /** Writes every row of {@code source} from the start of the ring. */
    static Descriptor write(Path directory, int generation, Memtable source, Partitioner partitioner,
                            int columnIndexSize) throws IOException {
        Descriptor descriptor = new Descriptor(directory, source.metadata().name(), generation);
        try (SSTableWriter writer = SSTableWriter.create(descriptor, source.metadata(), partitioner, columnIndexSize,
                source.rowCount())) {
            Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rows = source.rowsFrom(DecoratedKey.startOf(partitioner.getMinimumToken()));
            while (rows.hasNext()) {
                Map.Entry<DecoratedKey, ColumnFamily> row = rows.next();
                writer.append(row.getKey(), row.getValue());
            }
            return writer.finish(new LogPosition(7, 42));
        }
    }

    /**
     * Everything stored in a row, tombstones and deletion times included, as text: rows have no
     * equals, and a readable difference beats a boolean.
     */
    static String render(ColumnFamily row) {
        if (row == null) return "null";
        StringBuilder s = new StringBuilder("row(").append(render(row.deletion()));
        for (Cell c : row.cells()) {
            s.append(", ");
            if (c instanceof SuperColumn sc) {
                s.append(sc).append('/').append(render(sc.deletion()));
            } else {
                s.append(c);
            }
        }
        return s.append(')').toString();
    }

    /** Both fields, whether or not it is a tombstone at all. */
    private static String render(Deletion deletion) {
        return deletion.markedForDeleteAt() + "/" + deletion.localDeletionTime();
    }

    static List<String> renderAll(Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rows) {
        List<String> all = new ArrayList<>();
        while (rows.hasNext()) {
            Map.Entry<DecoratedKey, ColumnFamily> row = rows.next();
            all.add(row.getKey() + " " + render(row.getValue()));
        }
        return all;
    }

    static CFMetaData standard(AbstractType comparator) {
        return CFMetaData.standard(KS, "Standard1", comparator);
    }

    static CFMetaData ofSuper(AbstractType comparator, AbstractType subcomparator) {
        return CFMetaData.ofSuper(KS, "Super1", comparator, subcomparator);
    }
}
