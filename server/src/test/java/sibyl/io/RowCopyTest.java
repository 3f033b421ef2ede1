package sibyl.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CFMetaData;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.SuperColumn;
import sibyl.db.Validators;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.BytesType;
import sibyl.db.marshal.CounterColumnType;
import sibyl.db.marshal.UTF8Type;
import sibyl.dht.DecoratedKey;
import sibyl.dht.RandomPartitioner;
import sibyl.engine.Memtable;

/**
 * Compaction writing rows as their inputs store them ({@link RowCopy}) writes exactly the files it writes decoding and
 * encoding every row, and reports damage as that does. Prints its seed; rerun with {@code -Dsibyl.seed=<seed>}.
 */
class RowCopyTest {
    private static final long SEED = Long.getLong("sibyl.seed", System.nanoTime());
    /** Tombstones are deleted at 1_000_000..1_000_999 s and expiring columns expire around it: this splits both. */
    private static final int GC_BEFORE = 1_000_500;
    private static final int NOW = 1_000_500;
    private static final int OUTPUT_GENERATION = 100;

    @TempDir
    Path dir;

    private final RandomPartitioner partitioner = new RandomPartitioner();

    /** What a run's rows hold besides live columns. */
    private enum Kind { LIVE, TOMBSTONES, COUNTERS, SUPER }

    private static CFMetaData columnFamily(Kind kind, Random random) {
        if (kind == Kind.SUPER) return SSTableFixtures.ofSuper(BytesType.instance, UTF8Type.instance);
        if (kind == Kind.COUNTERS) {
            return SSTableFixtures.standard(BytesType.instance)
                    .withValidators(new Validators(BytesType.instance, CounterColumnType.instance, Map.of()));
        }
        List<AbstractType> comparators = SSTableFixtures.COMPARATORS;
        return SSTableFixtures.standard(comparators.get(random.nextInt(comparators.size())));
    }

    private static Column randomColumn(Kind kind, AbstractType comparator, Random random) {
        byte[] name = SSTableFixtures.randomName(comparator, random);
        // Long.MIN_VALUE: a column even a row never deleted hides (Deletion.LIVE.shadows it), so compaction drops it
        long timestamp = kind != Kind.LIVE && random.nextInt(50) == 0 ? Long.MIN_VALUE : random.nextInt(1000);
        boolean odd = kind != Kind.LIVE && random.nextInt(3) == 0;
        if (odd && random.nextBoolean()) return Column.tombstone(name, timestamp, 1_000_000 + random.nextInt(1000));
        if (kind == Kind.COUNTERS) return Column.counter(name, random.nextLong(), timestamp);
        byte[] value = new byte[random.nextInt(40)];
        random.nextBytes(value);
        if (odd) return Column.expiring(name, value, timestamp, 1 + random.nextInt(1000), NOW - 500 + random.nextInt(1000));
        return Column.live(name, value, timestamp);
    }

    private static ColumnFamily randomRow(Kind kind, CFMetaData cf, Random random) {
        ColumnFamily row = ColumnFamily.empty(cf);
        if (kind != Kind.LIVE && random.nextInt(8) == 0) row = row.withDeletion(random.nextInt(1000), 1_000_000 + random.nextInt(1000));
        int cells = 1 + random.nextInt(30);
        for (int i = 0; i < cells; i++) {
            if (!cf.isSuper()) {
                row = row.withCell(randomColumn(kind, cf.comparator(), random));
                continue;
            }
            SuperColumn sc = SuperColumn.empty(SSTableFixtures.randomName(cf.comparator(), random), cf.subcomparator());
            if (random.nextInt(4) == 0) sc = sc.withDeletion(random.nextInt(1000), 1_000_000 + random.nextInt(1000));
            for (int j = random.nextInt(5); j > 0; j--) sc = sc.withColumn(randomColumn(Kind.TOMBSTONES, cf.subcomparator(), random));
            row = row.withCell(sc);
        }
        return row;
    }

    /** An SSTable of random keys drawn from {@code keySpace}, so that inputs share some and not others. */
    private SSTableReader randomInput(Path directory, int generation, Kind kind, CFMetaData cf, Random random, int keySpace,
                                      KeyCache cache) throws IOException {
        return open(randomSSTable(directory, generation, kind, cf, random, keySpace), cf, random, cache);
    }

    private Descriptor randomSSTable(Path directory, int generation, Kind kind, CFMetaData cf, Random random, int keySpace)
            throws IOException {
        Memtable memtable = new Memtable(cf, Runnable::run);
        for (int i = 0; i < 40; i++) {
            int n = random.nextInt(keySpace);
            // A key outside ASCII is stored in more than one byte per character, and never copied.
            DecoratedKey key = partitioner.decorateKey(n % 7 == 0 ? "clé" + n : "key" + n);
            memtable.apply(key, randomRow(kind, cf, random), 1);
        }
        int columnIndexSize = random.nextBoolean() ? 64 : 256;
        return SSTableFixtures.write(directory, generation, memtable, partitioner, columnIndexSize);
    }

    private SSTableReader open(Descriptor descriptor, CFMetaData cf, Random random, KeyCache cache) throws IOException {
        SSTableReader reader = SSTableReader.open(descriptor, cf, partitioner, 4, cache);
        // Some keys in the key cache, whose entries compaction carries over to its output.
        Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rows = reader.rowsFrom(DecoratedKey.startOf(partitioner.getMinimumToken()));
        while (rows.hasNext()) {
            DecoratedKey key = rows.next().getKey();
            if (random.nextInt(3) == 0) reader.getRow(key);
        }
        return reader;
    }

    @Test
    void copiedRowsWriteTheFilesDecodingWrites() throws IOException {
        System.out.println("RowCopyTest seed " + SEED + " (rerun with -Dsibyl.seed=" + SEED + ")");
        Random random = new Random(SEED);
        long copiedLive = 0;
        long copiedOdd = 0;
        for (int run = 0; run < 24; run++) {
            Kind kind = Kind.values()[run % Kind.values().length];
            CFMetaData cf = columnFamily(kind, random);
            Path inputs = dir.resolve("run" + run);
            KeyCache cache = new KeyCache(10_000);
            List<SSTableReader> readers = new ArrayList<>();
            int count = 1 + random.nextInt(4);
            for (int i = 0; i < count; i++) readers.add(randomInput(inputs, i + 1, kind, cf, random, 40 * count * 3, cache));
            int columnIndexSize = random.nextBoolean() ? 64 : 256;
            boolean major = random.nextBoolean();
            String context = "seed " + SEED + " run " + run + " " + kind + " " + cf.comparator() + (major ? " major" : " minor")
                    + " index size " + columnIndexSize;
            try {
                Descriptor copied = new Descriptor(inputs.resolve("copied"), cf.name(), OUTPUT_GENERATION);
                Compaction.Result withCopy = Compaction.compact(readers, copied, partitioner, columnIndexSize, 4, GC_BEFORE,
                        NOW, major, true);
                List<String> cachedWithCopy = cachedEntries(cache, withCopy, cf);
                cache.invalidate(OUTPUT_GENERATION);
                Descriptor decoded = new Descriptor(inputs.resolve("decoded"), cf.name(), OUTPUT_GENERATION);
                Compaction.Result decoding = Compaction.compact(readers, decoded, partitioner, columnIndexSize, 4, GC_BEFORE,
                        NOW, major, false);

                assertEquals(0, decoding.rowsCopied(), context);
                assertEquals(decoding.rowsOut(), withCopy.rowsOut(), context);
                assertEquals(decoding.bytesOut(), withCopy.bytesOut(), context);
                assertEquals(decoding.output().isPresent(), withCopy.output().isPresent(), context);
                if (withCopy.output().isEmpty()) continue;
                for (Component c : Component.values()) {
                    assertEquals(-1, Files.mismatch(copied.path(c), decoded.path(c)), context + ": " + c + " differs");
                }
                assertEquals(cachedWithCopy, cachedEntries(cache, decoding, cf), context);
                assertFalse(cachedWithCopy.isEmpty(), context + ": some keys stay cached");
                if (kind == Kind.LIVE) copiedLive += withCopy.rowsCopied();
                if (kind == Kind.TOMBSTONES || kind == Kind.COUNTERS) copiedOdd += withCopy.rowsCopied();
                if (kind == Kind.SUPER) assertEquals(0, withCopy.rowsCopied(), context + ": super rows are decoded");
            } finally {
                for (SSTableReader r : readers) r.release();
            }
        }
        System.out.println("RowCopyTest rows copied: " + copiedLive + " of live columns, " + copiedOdd + " with others");
        assertTrue(copiedLive > 0, "rows of live columns copied: " + copiedLive);
        assertTrue(copiedOdd > 0, "rows of tombstones, expiring columns or counters copied: " + copiedOdd);
    }

    /** The key cache's entries of the output, as text. */
    private List<String> cachedEntries(KeyCache cache, Compaction.Result result, CFMetaData cf) throws IOException {
        List<String> entries = new ArrayList<>();
        if (result.output().isEmpty()) return entries;
        SSTableReader output = SSTableReader.open(result.output().get(), cf, partitioner, 4);
        try {
            Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rows = output.rowsFrom(DecoratedKey.startOf(partitioner.getMinimumToken()));
            while (rows.hasNext()) {
                IndexEntry cached = cache.get(OUTPUT_GENERATION, rows.next().getKey());
                if (cached != null) entries.add(cached.toString());
            }
        } finally {
            output.release();
        }
        return entries;
    }

    /**
     * Cells out of comparator order with checksums that hold (no writer of Sibyl's makes them, but the decode path puts
     * them in order): decoded, and the output is what decoding writes.
     */
    @Test
    void cellsOutOfOrderAreDecoded() throws IOException {
        CFMetaData cf = SSTableFixtures.standard(BytesType.instance);
        Memtable memtable = new Memtable(cf, Runnable::run);
        memtable.apply(partitioner.decorateKey("k"), ColumnFamily.empty(cf).withCell(Column.live(SSTableFixtures.b("a"),
                SSTableFixtures.b("1"), 1)).withCell(Column.live(SSTableFixtures.b("b"), SSTableFixtures.b("2"), 2)), 1);
        Path inputs = dir.resolve("unordered");
        Descriptor input = SSTableFixtures.write(inputs, 1, memtable, partitioner, 256);
        Path data = input.path(Component.DATA);
        byte[] bytes = Files.readAllBytes(data);
        int blocks = RowHeader.span(bytes, bytes.length, data, 0);
        int second = blocks + 2 + 1 + 1 + 8 + 4 + 1;
        assertEquals('a', bytes[blocks + 2]);
        assertEquals('b', bytes[second + 2]);
        bytes[blocks + 2] = 'b';
        bytes[second + 2] = 'a';
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(bytes, blocks, bytes.length - blocks - ColumnIndexBlock.CRC_LENGTH);
        java.nio.ByteBuffer.wrap(bytes).putInt(bytes.length - ColumnIndexBlock.CRC_LENGTH, (int) crc.getValue());
        Files.write(data, bytes);
        SSTableReader reader = SSTableReader.open(input, cf, partitioner, 4);
        try {
            Descriptor copied = new Descriptor(inputs.resolve("copied"), cf.name(), OUTPUT_GENERATION);
            Descriptor decoded = new Descriptor(inputs.resolve("decoded"), cf.name(), OUTPUT_GENERATION);
            assertEquals(0, Compaction.compact(List.of(reader), copied, partitioner, 256, 4, GC_BEFORE, NOW, false, true)
                    .rowsCopied());
            Compaction.compact(List.of(reader), decoded, partitioner, 256, 4, GC_BEFORE, NOW, false, false);
            for (Component c : Component.values()) assertEquals(-1, Files.mismatch(copied.path(c), decoded.path(c)), c.toString());
        } finally {
            reader.release();
        }
    }

    @Test
    void aDamagedBlockOfARowOneInputHoldsIsReportedAsDecodingReportsIt() throws IOException {
        CFMetaData cf = SSTableFixtures.standard(BytesType.instance);
        Random random = new Random(SEED);
        KeyCache cache = new KeyCache(0);
        Path inputs = dir.resolve("damaged");
        SSTableReader intact = randomInput(inputs, 1, Kind.LIVE, cf, random, 1000, cache);
        Descriptor damagedDescriptor = randomSSTable(inputs, 2, Kind.LIVE, cf, random, 1000);
        // The last row's last block, whose checksum ends the file: a byte of its cells flipped.
        Path data = damagedDescriptor.path(Component.DATA);
        byte[] bytes = Files.readAllBytes(data);
        bytes[bytes.length - ColumnIndexBlock.CRC_LENGTH - 2] ^= 0x10;
        Files.write(data, bytes);
        SSTableReader damaged = SSTableReader.open(damagedDescriptor, cf, partitioner, 4, cache);
        List<String> reports = new ArrayList<>();
        try {
            for (boolean copyRows : List.of(true, false)) {
                Descriptor output = new Descriptor(inputs.resolve("out-" + copyRows), cf.name(), OUTPUT_GENERATION);
                CorruptSSTableException e = assertThrows(CorruptSSTableException.class, () -> Compaction.compact(
                        List.of(intact, damaged), output, partitioner, 256, 4, GC_BEFORE, NOW, false, copyRows));
                reports.add(e.getMessage());
                try (var left = Files.list(output.directory())) {
                    assertEquals(List.of(), left.toList(), "the failed compaction left nothing");
                }
            }
        } finally {
            intact.release();
            damaged.release();
        }
        assertEquals(reports.get(1), reports.get(0));
        assertTrue(reports.get(0).contains("data block checksum mismatch"), reports.get(0));
    }
}
