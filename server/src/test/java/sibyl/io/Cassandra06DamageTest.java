package sibyl.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CFMetaData;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.marshal.BytesType;
import sibyl.dht.BigIntegerToken;
import sibyl.dht.CollatingOrderPreservingPartitioner;
import sibyl.dht.DecoratedKey;
import sibyl.dht.OrderPreservingPartitioner;
import sibyl.dht.Partitioner;
import sibyl.dht.RandomPartitioner;
import sibyl.engine.Memtable;

/**
 * A Cassandra 0.6 SSTable carries no checksum, so what opening checks is what stands between a damaged or
 * foreign file and wrong answers: keys and their tokens, their order under this node's partitioner, the
 * positions of the rows; and a row that does not decode is reported with its file and offset, as a damaged
 * row of Sibyl's is, and left behind by a scrub.
 */
class Cassandra06DamageTest {
    private static final int INTERVAL = 4;

    @TempDir
    Path dir;

    private final CFMetaData cf = CFMetaData.standard(SSTableFixtures.KS, "Standard1", BytesType.instance);

    private Descriptor write(Partitioner partitioner, List<DecoratedKey> keys) throws IOException {
        List<Map.Entry<DecoratedKey, ColumnFamily>> rows = new ArrayList<>();
        for (DecoratedKey k : keys) {
            rows.add(Map.entry(k, ColumnFamily.empty(cf).withCell(Column.live(SSTableFixtures.b("c"), SSTableFixtures.b(k.key()), 1))));
        }
        return Cassandra06Writer.write(dir, "Standard1", 1, partitioner, 1024, rows);
    }

    private CorruptSSTableException openFails(Descriptor d, Partitioner partitioner) {
        return assertThrows(CorruptSSTableException.class, () -> SSTableReader.open(d, cf, partitioner, INTERVAL).release());
    }

    @Test
    void aTableOfAnotherPartitionerIsRefusedAtOpen() throws IOException {
        RandomPartitioner random = new RandomPartitioner();
        Descriptor d = write(random, List.of(random.decorateKey("a"), random.decorateKey("b")).stream().sorted().toList());
        CorruptSSTableException e = openFails(d, new OrderPreservingPartitioner());
        assertTrue(e.getMessage().contains("written under RandomPartitioner, but this node runs"
                + " org.apache.cassandra.dht.OrderPreservingPartitioner"), e.getMessage());
        assertEquals(d.path(Component.INDEX), e.file());

        Files.delete(d.path(Component.DATA));
        Files.delete(d.path(Component.INDEX));
        OrderPreservingPartitioner ordered = new OrderPreservingPartitioner();
        d = write(ordered, List.of(ordered.decorateKey("a"), ordered.decorateKey("b")));
        e = openFails(d, random);
        assertTrue(e.getMessage().contains("key 'a' lacks its token"), e.getMessage());
    }

    @Test
    void aKeyStoredWithAnotherTokenIsRefused() throws IOException {
        RandomPartitioner random = new RandomPartitioner();
        DecoratedKey good = random.decorateKey("good");
        DecoratedKey forged = new DecoratedKey(new BigIntegerToken(java.math.BigInteger.ONE), "forged");
        Descriptor d = write(random, List.of(forged, good).stream().sorted().toList());
        CorruptSSTableException e = openFails(d, random);
        assertTrue(e.getMessage().contains("the key 'forged' is stored with token 1, but its RandomPartitioner token is "
                + random.toString(random.getToken("forged"))), e.getMessage());
    }

    @Test
    void keysOutOfThisNodesOrderAreRefused() throws IOException {
        // String order puts "B" before "a"; an English collation puts "a" first.
        OrderPreservingPartitioner ordered = new OrderPreservingPartitioner();
        Descriptor d = write(ordered, List.of(ordered.decorateKey("B"), ordered.decorateKey("a")));
        CorruptSSTableException e = openFails(d, new CollatingOrderPreservingPartitioner());
        assertTrue(e.getMessage().contains("key 'a' comes after 'B', which this node's partitioner sorts after it"),
                e.getMessage());
    }

    @Test
    void aDataFileCutShortOrOfAnotherTableIsRefused() throws IOException {
        RandomPartitioner random = new RandomPartitioner();
        List<DecoratedKey> keys = new ArrayList<>();
        for (int i = 0; i < 20; i++) keys.add(random.decorateKey("k" + i));
        keys.sort(null);
        Descriptor d = write(random, keys);
        byte[] data = Files.readAllBytes(d.path(Component.DATA));
        Files.write(d.path(Component.DATA), java.util.Arrays.copyOf(data, data.length - 3));
        CorruptSSTableException e = openFails(d, random);
        assertEquals(d.path(Component.DATA), e.file(), e.getMessage());

        Files.write(d.path(Component.DATA), java.util.Arrays.copyOfRange(data, 40, data.length));
        openFails(d, random);
    }

    @Test
    void aRowThatDoesNotDecodeNamesItsFileAndOffsetAndScrubDropsOnlyIt() throws IOException {
        RandomPartitioner partitioner = new RandomPartitioner();
        Memtable memtable = SSTableFixtures.randomMemtable(cf, partitioner, new Random(5), 50, 20);
        Descriptor d = Cassandra06Writer.write(dir, "Standard1", 1, partitioner, 128,
                () -> memtable.rowsFrom(DecoratedKey.startOf(partitioner.getMinimumToken())));
        List<Cassandra06Index.Raw> entries = new ArrayList<>();
        try (PositionalFile index = new PositionalFile(d.path(Component.INDEX))) {
            Cassandra06Index.RawReader reader = new Cassandra06Index.RawReader(index, 0);
            for (Cassandra06Index.Raw e = reader.next(); e != null; e = reader.next()) entries.add(e);
        }
        Cassandra06Index.Raw victim = entries.get(entries.size() / 2);
        String key = victim.diskKey().substring(victim.diskKey().indexOf(':') + 1);
        // The row's size field, right after its key: the row no longer adds up.
        flip(d.path(Component.DATA), victim.dataPosition() + 2 + victim.keyBytes() + 3);

        SSTableReader r = SSTableReader.open(d, cf, partitioner, INTERVAL);
        Map<String, String> expected = new LinkedHashMap<>();
        try {
            CorruptSSTableException e = assertThrows(CorruptSSTableException.class, () -> r.getRow(partitioner.decorateKey(key)));
            assertEquals(d.path(Component.DATA), e.file());
            assertEquals(victim.dataPosition(), e.offset());
            int damaged = 0;
            var rows = r.rowsFrom(DecoratedKey.startOf(partitioner.getMinimumToken()));
            while (rows.hasNext()) {
                var row = rows.next();
                try {
                    expected.put(row.getKey().key(), SSTableFixtures.render(row.getValue()));
                } catch (CorruptSSTableException c) {
                    damaged++;
                }
            }
            assertEquals(1, damaged, "a scan meets the damaged row only");
            Scrubber.Result result = Scrubber.scrub(r, new Descriptor(dir, "Standard1", 2), partitioner, 128, INTERVAL);
            assertEquals(1, result.rowsDropped());
            assertEquals(entries.size() - 1, result.rowsKept());
            SSTableReader scrubbed = SSTableReader.open(result.output().orElseThrow(), cf, partitioner, INTERVAL);
            try {
                assertEquals(SSTableFormat.SIBYL, scrubbed.format());
                Map<String, String> kept = new LinkedHashMap<>();
                scrubbed.rowsFrom(DecoratedKey.startOf(partitioner.getMinimumToken()))
                        .forEachRemaining(row -> kept.put(row.getKey().key(), SSTableFixtures.render(row.getValue())));
                assertEquals(expected, kept);
            } finally {
                scrubbed.release();
            }
        } finally {
            r.release();
        }
    }

    private static void flip(Path file, long position) throws IOException {
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            c.read(one, position);
            one.put(0, (byte) (one.get(0) ^ 0x5a));
            c.write(one.flip(), position);
        }
    }
}
