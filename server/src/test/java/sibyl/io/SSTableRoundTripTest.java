package sibyl.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.io.SSTableFixtures.render;
import static sibyl.io.SSTableFixtures.renderAll;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.ColumnFamily;
import sibyl.db.ColumnSelection;
import sibyl.db.LogPosition;
import sibyl.db.marshal.AbstractType;
import sibyl.dht.ByteOrderedPartitioner;
import sibyl.dht.CollatingOrderPreservingPartitioner;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Murmur3Partitioner;
import sibyl.dht.OrderPreservingPartitioner;
import sibyl.dht.Partitioner;
import sibyl.dht.RandomPartitioner;
import sibyl.engine.Memtable;

/**
 * Random rows written to an SSTable read back exactly as the memtable they came from holds
 * them, through every read path. Prints its seed; rerun a failure with {@code -Dsibyl.seed=<seed>}.
 */
class SSTableRoundTripTest {
    private static final long SEED = Long.getLong("sibyl.seed", System.nanoTime());
    private static final int INDEX_INTERVAL = 4;

    @TempDir
    Path dir;

    /** Every comparator, standard and super, under each partitioner in turn. */
    static Stream<Arguments> schemas() {
        return schemas(List.of(new RandomPartitioner(), new OrderPreservingPartitioner(),
                new CollatingOrderPreservingPartitioner(), new ByteOrderedPartitioner(), new Murmur3Partitioner()));
    }

    /** The same under the partitioners of Cassandra 0.6, which alone wrote 0.6's tables. */
    static Stream<Arguments> schemasOf06() {
        return schemas(List.of(new RandomPartitioner(), new OrderPreservingPartitioner(),
                new CollatingOrderPreservingPartitioner()));
    }

    private static Stream<Arguments> schemas(List<Partitioner> partitioners) {
        List<Arguments> all = new ArrayList<>();
        int i = 0;
        for (AbstractType comparator : SSTableFixtures.COMPARATORS) {
            Partitioner p = partitioners.get(i++ % partitioners.size());
            all.add(Arguments.of(SSTableFixtures.standard(comparator), p));
            AbstractType sub = SSTableFixtures.COMPARATORS.get(i % SSTableFixtures.COMPARATORS.size());
            all.add(Arguments.of(SSTableFixtures.ofSuper(comparator, sub), p));
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("schemas")
    void everyReadAnswersAsTheMemtable(CFMetaData cf, Partitioner partitioner) throws IOException {
        System.out.println("SSTableRoundTripTest seed " + SEED + " (rerun with -Dsibyl.seed=" + SEED + ")");
        Random random = new Random(SEED);
        Memtable memtable = SSTableFixtures.randomMemtable(cf, partitioner, random, 150, 12);
        // A tiny column index size, so that rows of a dozen cells span several blocks.
        Descriptor descriptor = SSTableFixtures.write(dir, 1, memtable, partitioner, 64);
        // Read through positional reads and through memory mappings alike (DiskAccessMode standard and mmap).
        for (FileAccess access : List.of(FileAccess.STANDARD, FileAccess.MMAP)) {
            checkEveryRead(memtable, descriptor, cf, partitioner, random, access, new KeyCache(0), new LogPosition(7, 42));
        }
    }

    /**
     * The same of a Cassandra 0.6 SSTable of the same rows, read in place: whatever the comparator, the
     * partitioner, the column index blocks (a tiny ColumnIndexSizeInKB) and the tombstones. Read a second time
     * through a key cache, whose entries carry the row lengths worked out from the next entry's position.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("schemasOf06")
    void aCassandra06TableAnswersAsTheMemtable(CFMetaData cf, Partitioner partitioner) throws IOException {
        System.out.println("SSTableRoundTripTest seed " + SEED + " (rerun with -Dsibyl.seed=" + SEED + ")");
        Random random = new Random(SEED);
        Memtable memtable = SSTableFixtures.randomMemtable(cf, partitioner, random, 150, 12);
        DecoratedKey start = DecoratedKey.startOf(partitioner.getMinimumToken());
        Descriptor descriptor = Cassandra06Writer.write(dir, cf.name(), 1, partitioner, 64, () -> memtable.rowsFrom(start));
        for (FileAccess access : List.of(FileAccess.STANDARD, FileAccess.MMAP)) {
            checkEveryRead(memtable, descriptor, cf, partitioner, random, access, new KeyCache(0), LogPosition.NONE);
        }
        KeyCache cache = new KeyCache(1000);
        checkEveryRead(memtable, descriptor, cf, partitioner, random, FileAccess.STANDARD, cache, LogPosition.NONE);
        assertTrue(cache.hits() > memtable.rowCount(), "reads found their keys' entries in the cache: " + cache.hits());
    }

    private void checkEveryRead(Memtable memtable, Descriptor descriptor, CFMetaData cf, Partitioner partitioner,
                                Random random, FileAccess access, KeyCache cache, LogPosition logPosition)
            throws IOException {
        SSTableReader sstable = SSTableReader.open(descriptor, cf, partitioner, INDEX_INTERVAL, cache, access);
        try {
            DecoratedKey start = DecoratedKey.startOf(partitioner.getMinimumToken());
            List<DecoratedKey> keys = new ArrayList<>();
            memtable.rowsFrom(start).forEachRemaining(e -> keys.add(e.getKey()));

            for (DecoratedKey key : keys) {
                assertEquals(render(memtable.getRow(key)), render(sstable.getRow(key)), "seed " + SEED + " " + access + " getRow " + key);
                checkSlices(memtable.getRow(key), sstable, key, random);
            }
            for (int i = 0; i < 200; i++) {
                DecoratedKey absent = partitioner.decorateKey("absent" + random.nextInt(100_000));
                assertNull(sstable.getRow(absent), "seed " + SEED + " " + absent);
                assertNull(sstable.readSlice(absent, ColumnSelection.all()));
                assertNull(sstable.cellsFrom(absent, new byte[0], false));
            }
            assertEquals(renderAll(memtable.rowsFrom(start)), renderAll(sstable.rowsFrom(start)), "seed " + SEED);
            for (int k = 0; k < keys.size(); k += 3) {
                DecoratedKey key = keys.get(k);
                for (DecoratedKey from : List.of(key, DecoratedKey.startOf(key.token()), DecoratedKey.endOf(key.token()))) {
                    assertEquals(renderAll(limit(memtable.rowsFrom(from), 6)), renderAll(limit(sstable.rowsFrom(from), 6)),
                            "seed " + SEED + " rowsFrom " + from);
                }
            }
            for (int interval : List.of(1, 3, INDEX_INTERVAL, 2 * INDEX_INTERVAL, 128)) {
                assertEquals(memtable.sampleKeys(interval), sstable.sampleKeys(interval), "interval " + interval);
            }
            assertEquals(memtable.rowCount(), sstable.statistics().rowCount());
            assertEquals(keys.get(0), sstable.firstKey());
            assertEquals(keys.get(keys.size() - 1), sstable.lastKey());
            assertEquals(logPosition, sstable.statistics().logPosition());
            assertEquals(descriptor.format(), sstable.format());
        } finally {
            sstable.release();
        }
    }

    /** Slices by range (both directions) and by names equal the same filter over the whole row. */
    private static void checkSlices(ColumnFamily row, SSTableReader sstable, DecoratedKey key, Random random) {
        List<byte[]> names = new ArrayList<>();
        for (Cell c : row.cells()) names.add(c.name());
        AbstractType comparator = row.metadata().comparator();
        byte[] extra = SSTableFixtures.randomName(comparator, random);
        names.add(extra);
        for (int i = 0; i < 4; i++) {
            byte[] a = names.get(random.nextInt(names.size()));
            byte[] b = random.nextInt(4) == 0 ? new byte[0] : names.get(random.nextInt(names.size()));
            byte[] low = b.length > 0 && comparator.compare(a, b) > 0 ? b : a;
            byte[] high = low == a ? b : a;
            boolean reversed = random.nextBoolean();
            ColumnSelection.Range range = reversed ? ColumnSelection.range(high, low, true, 10)
                    : ColumnSelection.range(low, high, false, 10);
            assertEquals(render(filter(row, range)), render(sstable.readSlice(key, range)), "seed " + SEED + " " + range);
            List<byte[]> picked = new ArrayList<>();
            for (byte[] n : names) if (random.nextInt(3) == 0) picked.add(n);
            ColumnSelection.Names byName = ColumnSelection.names(picked);
            assertEquals(render(filter(row, byName)), render(sstable.readSlice(key, byName)), "seed " + SEED + " " + byName);

            byte[] from = random.nextInt(4) == 0 ? new byte[0] : a;
            CellCursor cursor = sstable.cellsFrom(key, from, reversed);
            assertEquals(row.deletion(), cursor.deletion());
            List<String> expected = new ArrayList<>();
            row.cellsFrom(from, reversed).forEachRemaining(c -> expected.add(c.toString()));
            List<String> actual = new ArrayList<>();
            cursor.forEachRemaining(c -> actual.add(c.toString()));
            assertEquals(expected, actual, "seed " + SEED + " cellsFrom " + java.util.HexFormat.of().formatHex(from)
                    + (reversed ? " reversed" : ""));
        }
    }

    /** The row with only the cells {@code selection} covers (count aside), built from the whole row. */
    static ColumnFamily filter(ColumnFamily row, ColumnSelection selection) {
        AbstractType comparator = row.metadata().comparator();
        ColumnFamily result = ColumnFamily.empty(row.metadata()).withDeletion(row.deletion());
        for (Cell c : row.cells()) {
            boolean in;
            if (selection instanceof ColumnSelection.Names names) {
                in = names.names().stream().anyMatch(n -> comparator.compare(n, c.name()) == 0);
            } else {
                ColumnSelection.Range r = (ColumnSelection.Range) selection;
                byte[] low = r.reversed() ? r.finish() : r.start();
                byte[] high = r.reversed() ? r.start() : r.finish();
                in = (low.length == 0 || comparator.compare(c.name(), low) >= 0)
                        && (high.length == 0 || comparator.compare(c.name(), high) <= 0);
            }
            if (in) result = result.withCell(c);
        }
        return result;
    }

    private static <T> Iterator<T> limit(Iterator<T> it, int n) {
        List<T> first = new ArrayList<>();
        while (it.hasNext() && first.size() < n) first.add(it.next());
        return first.iterator();
    }
}
