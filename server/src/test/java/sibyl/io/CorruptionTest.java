package sibyl.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CFMetaData;
import sibyl.db.marshal.BytesType;
import sibyl.dht.DecoratedKey;
import sibyl.dht.RandomPartitioner;
import sibyl.engine.Memtable;

/** A damaged byte anywhere is reported, naming the file and the offset of the damaged unit. */
class CorruptionTest {
    @TempDir
    Path dir;

    private final RandomPartitioner partitioner = new RandomPartitioner();
    private final CFMetaData cf = SSTableFixtures.standard(BytesType.instance);
    private Memtable memtable;

    private Descriptor write() throws IOException {
        memtable = SSTableFixtures.randomMemtable(cf, partitioner, new Random(1), 50, 30);
        return SSTableFixtures.write(dir, 1, memtable, partitioner, 256);
    }

    private static void flip(Path file, long position) throws IOException {
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            c.read(one, position);
            one.put(0, (byte) (one.get(0) ^ 0x5a));
            c.write(one.flip(), position);
        }
    }

    private List<DecoratedKey> keys() {
        List<DecoratedKey> keys = new ArrayList<>();
        memtable.rowsFrom(DecoratedKey.startOf(partitioner.getMinimumToken())).forEachRemaining(e -> keys.add(e.getKey()));
        return keys;
    }

    @Test
    void aDamagedBlockFailsTheReadOfItsRowOnly() throws IOException {
        Descriptor d = write();
        Path data = d.path(Component.DATA);
        long damaged = data.toFile().length() / 2;
        flip(data, damaged);
        SSTableReader sstable = SSTableReader.open(d, cf, partitioner, 4);
        try {
            List<CorruptSSTableException> failures = new ArrayList<>();
            for (DecoratedKey key : keys()) {
                try {
                    sstable.getRow(key);
                } catch (CorruptSSTableException e) {
                    failures.add(e);
                }
            }
            assertEquals(1, failures.size(), "only the row holding the damaged byte fails");
            CorruptSSTableException e = failures.get(0);
            assertEquals(data, e.file());
            assertTrue(e.offset() <= damaged && e.offset() > damaged - 4096, "offset " + e.offset() + " for damage at " + damaged);
            assertTrue(e.getMessage().contains(data.toString()) && e.getMessage().contains("offset " + e.offset()), e.getMessage());
            assertThrows(CorruptSSTableException.class,
                    () -> sstable.rowsFrom(DecoratedKey.startOf(partitioner.getMinimumToken())).forEachRemaining(r -> { }));
        } finally {
            sstable.release();
        }
    }

    @Test
    void aDamagedRowHeaderIsReportedAtTheRowStart() throws IOException {
        Descriptor d = write();
        flip(d.path(Component.DATA), 6);
        SSTableReader sstable = SSTableReader.open(d, cf, partitioner, 4);
        try {
            CorruptSSTableException e = assertThrows(CorruptSSTableException.class, () -> sstable.getRow(keys().get(0)));
            assertEquals(0, e.offset());
            assertTrue(e.getMessage().contains("checksum"), e.getMessage());
        } finally {
            sstable.release();
        }
    }

    @Test
    void aDamagedIndexEntryIsFoundWhenOpening() throws IOException {
        Descriptor d = write();
        Path index = d.path(Component.INDEX);
        flip(index, index.toFile().length() / 2);
        CorruptSSTableException e = assertThrows(CorruptSSTableException.class, () -> SSTableReader.open(d, cf, partitioner, 4));
        assertEquals(index, e.file());
        assertTrue(e.offset() <= index.toFile().length() / 2);
    }

    @Test
    void aDamagedFilterOrStatisticsFileIsRefused() throws IOException {
        Descriptor d = write();
        flip(d.path(Component.FILTER), 20);
        CorruptSSTableException e = assertThrows(CorruptSSTableException.class, () -> SSTableReader.open(d, cf, partitioner, 4));
        assertEquals(d.path(Component.FILTER), e.file());
        flip(d.path(Component.FILTER), 20);
        SSTableReader.open(d, cf, partitioner, 4).release();
        flip(d.path(Component.STATISTICS), 9);
        e = assertThrows(CorruptSSTableException.class, () -> SSTableReader.open(d, cf, partitioner, 4));
        assertEquals(d.path(Component.STATISTICS), e.file());
    }

    @Test
    void aTruncatedDataFileIsRefused() throws IOException {
        Descriptor d = write();
        Path data = d.path(Component.DATA);
        long length = data.toFile().length();
        try (FileChannel c = FileChannel.open(data, StandardOpenOption.WRITE)) {
            c.truncate(length - 10);
        }
        CorruptSSTableException e = assertThrows(CorruptSSTableException.class, () -> SSTableReader.open(d, cf, partitioner, 4));
        assertEquals(data, e.file());
        assertTrue(e.getMessage().contains("statistics say " + length), e.getMessage());
    }

    @Test
    void anotherPartitionersSSTableIsRefused() throws IOException {
        Descriptor d = write();
        CorruptSSTableException e = assertThrows(CorruptSSTableException.class,
                () -> SSTableReader.open(d, cf, new sibyl.dht.OrderPreservingPartitioner(), 4));
        assertTrue(e.getMessage().contains("RandomPartitioner"), e.getMessage());
    }
}
