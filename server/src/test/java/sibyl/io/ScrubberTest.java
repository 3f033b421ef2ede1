package sibyl.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CFMetaData;
import sibyl.db.marshal.BytesType;
import sibyl.dht.DecoratedKey;
import sibyl.dht.RandomPartitioner;
import sibyl.engine.Memtable;

/**
 * Scrub keeps exactly the rows whose checksums hold, row for row as they were stored, and counts
 * exactly the rows it drops: which rows a damaged byte belongs to is read from the index here,
 * independently of the scrubber.
 */
class ScrubberTest {
    private static final int COLUMN_INDEX_SIZE = 256;
    /** The interval the fixtures' SSTables are written with: readers open them from their summary. */
    private static final int INTERVAL = IndexSummaryFile.DEFAULT_INTERVAL;

    @TempDir
    Path dir;

    private final RandomPartitioner partitioner = new RandomPartitioner();

    /** A row of an SSTable as the index lists it: key, data offset, length and where its entry is. */
    private record Row(String key, long dataOffset, int rowLength, long indexPosition) {
    }

    private List<Row> rows(Descriptor d) throws IOException {
        List<Row> rows = new ArrayList<>();
        try (PositionalFile index = new PositionalFile(d.path(Component.INDEX))) {
            IndexEntry.Reader entries = IndexEntry.Reader.scan(index, 0);
            for (IndexEntry e = entries.next(); e != null; e = entries.next()) {
                rows.add(new Row(e.key(), e.dataOffset(), e.rowLength(), e.position()));
            }
        }
        return rows;
    }

    private static void flip(Path file, long position) throws IOException {
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            c.read(one, position);
            one.put(0, (byte) (one.get(0) ^ 0x5a));
            c.write(one.flip(), position);
        }
    }

    /** Every row of an SSTable, rendered, by key. */
    private Map<String, String> contents(Descriptor d, CFMetaData cf) throws IOException {
        SSTableReader r = SSTableReader.open(d, cf, partitioner, INTERVAL);
        try {
            Map<String, String> all = new LinkedHashMap<>();
            r.rowsFrom(DecoratedKey.startOf(partitioner.getMinimumToken()))
                    .forEachRemaining(e -> all.put(e.getKey().key(), SSTableFixtures.render(e.getValue())));
            return all;
        } finally {
            r.release();
        }
    }

    private Scrubber.Result scrub(Descriptor input, CFMetaData cf, int outputGeneration) throws IOException {
        SSTableReader r = SSTableReader.open(input, cf, partitioner, INTERVAL);
        try {
            return Scrubber.scrub(r, new Descriptor(dir, cf.name(), outputGeneration), partitioner, COLUMN_INDEX_SIZE, INTERVAL);
        } finally {
            r.release();
        }
    }

    @Test
    void damagedBytesInDataDropExactlyTheRowsHoldingThemAndKeepTheRestAsTheyWere() throws IOException {
        for (CFMetaData cf : List.of(SSTableFixtures.standard(BytesType.instance),
                SSTableFixtures.ofSuper(BytesType.instance, BytesType.instance))) {
            long seed = new Random().nextLong();
            Random random = new Random(seed);
            Path sub = Files.createDirectories(dir.resolve(cf.name()));
            Memtable memtable = SSTableFixtures.randomMemtable(cf, partitioner, random, 200, 60);
            Descriptor input = SSTableFixtures.write(sub, 1, memtable, partitioner, COLUMN_INDEX_SIZE);
            Map<String, String> before = contents(input, cf);
            List<Row> rows = rows(input);
            assertEquals(before.size(), rows.size());

            // Damage about one row in ten, at a random byte of it: header, any block, any checksum.
            Set<String> damaged = new TreeSet<>();
            for (Row row : rows) {
                if (random.nextInt(10) != 0) continue;
                // Distinct bytes: flipping one byte twice would put it back.
                Set<Integer> flips = new TreeSet<>();
                int count = 1 + random.nextInt(3);
                while (flips.size() < Math.min(count, row.rowLength())) flips.add(random.nextInt(row.rowLength()));
                for (int at : flips) flip(input.path(Component.DATA), row.dataOffset() + at);
                damaged.add(row.key());
            }
            assertFalse(damaged.isEmpty(), "seed " + seed);

            Descriptor output = new Descriptor(sub, cf.name(), 2);
            SSTableReader r = SSTableReader.open(input, cf, partitioner, INTERVAL);
            Scrubber.Result result;
            try {
                result = Scrubber.scrub(r, output, partitioner, COLUMN_INDEX_SIZE, INTERVAL);
            } finally {
                r.release();
            }
            assertEquals(damaged.size(), result.rowsDropped(), "rows dropped, seed " + seed);
            assertEquals(rows.size() - damaged.size(), result.rowsKept(), "rows kept, seed " + seed);
            Map<String, String> expected = new LinkedHashMap<>(before);
            expected.keySet().removeAll(damaged);
            assertEquals(expected, contents(result.output().orElseThrow(), cf), "the undamaged rows, seed " + seed);
        }
    }

    @Test
    void aDamagedBlockOfAWideRowDropsTheWholeRow() throws IOException {
        CFMetaData cf = SSTableFixtures.standard(BytesType.instance);
        Memtable memtable = SSTableFixtures.randomMemtable(cf, partitioner, new Random(3), 20, 400);
        Descriptor input = SSTableFixtures.write(dir, 1, memtable, partitioner, COLUMN_INDEX_SIZE);
        Map<String, String> expected = contents(input, cf);
        Row widest = rows(input).stream().max((a, b) -> Integer.compare(a.rowLength(), b.rowLength())).orElseThrow();
        assertTrue(widest.rowLength() > 4 * COLUMN_INDEX_SIZE, "a row of several blocks: " + widest);
        flip(input.path(Component.DATA), widest.dataOffset() + widest.rowLength() - 10); // its last block

        Scrubber.Result result = scrub(input, cf, 2);
        assertEquals(1, result.rowsDropped());
        assertEquals(expected.size() - 1, result.rowsKept());
        expected.remove(widest.key());
        assertEquals(expected, contents(result.output().orElseThrow(), cf));
    }

    @Test
    void aDamagedIndexEntryDropsItsRowAndTheWalkGoesOn() throws IOException {
        CFMetaData cf = SSTableFixtures.standard(BytesType.instance);
        Memtable memtable = SSTableFixtures.randomMemtable(cf, partitioner, new Random(5), 100, 10);
        Descriptor input = SSTableFixtures.write(dir, 1, memtable, partitioner, COLUMN_INDEX_SIZE);
        List<Row> rows = rows(input);
        Row victim = rows.get(rows.size() / 2);
        // The entry's data offset: the key length prefix stays intact, so the entries after it still line up.
        flip(input.path(Component.INDEX), victim.indexPosition() + 2 + victim.key().length() + 3);
        // Opening reads the summary, not the index, so the damage is found by the scrub.
        Scrubber.Result result = scrub(input, cf, 2);
        assertEquals(1, result.rowsDropped());
        assertEquals(rows.size() - 1, result.rowsKept());
        assertFalse(contents(result.output().orElseThrow(), cf).containsKey(victim.key()));
    }

    @Test
    void anIndexCutShortDropsTheRowsPastTheCutAndCountsThem() throws IOException {
        CFMetaData cf = SSTableFixtures.standard(BytesType.instance);
        Memtable memtable = SSTableFixtures.randomMemtable(cf, partitioner, new Random(7), 100, 10);
        Descriptor input = SSTableFixtures.write(dir, 1, memtable, partitioner, COLUMN_INDEX_SIZE);
        List<Row> rows = rows(input);
        SSTableReader r = SSTableReader.open(input, cf, partitioner, INTERVAL);
        try {
            // The key length of the 61st entry says 65535: the rest of the index cannot hold it.
            Row cut = rows.get(60);
            try (FileChannel c = FileChannel.open(input.path(Component.INDEX), StandardOpenOption.WRITE)) {
                c.write(ByteBuffer.wrap(new byte[] {(byte) 0xff, (byte) 0xff}), cut.indexPosition());
            }
            Scrubber.Result result = Scrubber.scrub(r, new Descriptor(dir, cf.name(), 2), partitioner, COLUMN_INDEX_SIZE, INTERVAL);
            assertEquals(60, result.rowsKept());
            assertEquals(rows.size() - 60, result.rowsDropped());
        } finally {
            r.release();
        }
    }

    @Test
    void anSSTableOfDamagedRowsOnlyLeavesNoOutput() throws IOException {
        CFMetaData cf = SSTableFixtures.standard(BytesType.instance);
        Memtable memtable = SSTableFixtures.randomMemtable(cf, partitioner, new Random(9), 5, 10);
        Descriptor input = SSTableFixtures.write(dir, 1, memtable, partitioner, COLUMN_INDEX_SIZE);
        List<Row> rows = rows(input);
        for (Row row : rows) flip(input.path(Component.DATA), row.dataOffset() + row.rowLength() - 1);
        Scrubber.Result result = scrub(input, cf, 2);
        assertTrue(result.output().isEmpty());
        assertEquals(0, result.rowsKept());
        assertEquals(rows.size(), result.rowsDropped());
        try (var files = Files.list(dir)) {
            assertEquals(List.of(), files.filter(f -> f.getFileName().toString().contains("-2-")).toList(),
                    "no file of the empty output is left");
        }
    }

    @Test
    void anUndamagedSSTableIsRewrittenWhole() throws IOException {
        CFMetaData cf = SSTableFixtures.standard(BytesType.instance);
        Memtable memtable = SSTableFixtures.randomMemtable(cf, partitioner, new Random(11), 80, 30);
        Descriptor input = SSTableFixtures.write(dir, 1, memtable, partitioner, COLUMN_INDEX_SIZE);
        Scrubber.Result result = scrub(input, cf, 2);
        assertEquals(0, result.rowsDropped());
        assertEquals(contents(input, cf), contents(result.output().orElseThrow(), cf));
        SSTableReader out = SSTableReader.open(result.output().orElseThrow(), cf, partitioner, INTERVAL);
        try {
            SSTableReader in = SSTableReader.open(input, cf, partitioner, INTERVAL);
            try {
                assertEquals(in.statistics().logPosition(), out.statistics().logPosition(),
                        "the scrubbed SSTable owes the commit log what its input did");
            } finally {
                in.release();
            }
        } finally {
            out.release();
        }
    }
}
