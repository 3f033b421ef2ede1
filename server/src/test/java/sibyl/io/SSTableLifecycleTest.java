package sibyl.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CFMetaData;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.LogPosition;
import sibyl.db.marshal.BytesType;
import sibyl.dht.DecoratedKey;
import sibyl.dht.RandomPartitioner;
import sibyl.engine.Memtable;

/** Files appear complete or not at all, leftovers are removed, and readers delete only after the last release. */
class SSTableLifecycleTest {
    @TempDir
    Path dir;

    private final RandomPartitioner partitioner = new RandomPartitioner();
    private final CFMetaData cf = SSTableFixtures.standard(BytesType.instance);

    private Memtable memtable() {
        return SSTableFixtures.randomMemtable(cf, partitioner, new Random(3), 20, 5);
    }

    private List<String> files() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aFinishedSSTableHasItsFinalNamesOnly() throws IOException {
        SSTableFixtures.write(dir, 3, memtable(), partitioner, 1024);
        assertEquals(List.of("Standard1-3-Data.db", "Standard1-3-Filter.db", "Standard1-3-Index.db",
                "Standard1-3-Statistics.db", "Standard1-3-Summary.db"), files());
        assertEquals(List.of(new Descriptor(dir, "Standard1", 3)), SSTableDirectory.list(dir, "Standard1"));
        assertEquals(3, SSTableDirectory.highestGeneration(dir));
    }

    @Test
    void whileWritingOnlyTemporaryNamesExist() throws IOException {
        Descriptor d = new Descriptor(dir, "Standard1", 1);
        try (SSTableWriter writer = SSTableWriter.create(d, cf, partitioner, 1024, 1)) {
            writer.append(partitioner.decorateKey("k"), ColumnFamily.empty(cf).withCell(Column.live(SSTableFixtures.b("c"), new byte[1], 1)));
            assertEquals(List.of("tmp-Standard1-1-Data.db", "tmp-Standard1-1-Index.db"), files());
            assertEquals(List.of(), SSTableDirectory.list(dir, "Standard1"));
        }
        assertEquals(List.of(), files(), "closing an unfinished writer removes its files");
    }

    @Test
    void aFinishThatFailsHalfWayLeavesNoFiles() throws IOException {
        Descriptor d = new Descriptor(dir, "Standard1", 1);
        try (SSTableWriter writer = SSTableWriter.create(d, cf, partitioner, 1024, 1)) {
            writer.append(partitioner.decorateKey("k"), ColumnFamily.empty(cf).withCell(Column.live(SSTableFixtures.b("c"), new byte[1], 1)));
            // A directory where the summary belongs: its rename fails after data, index and filter have theirs.
            Files.createDirectory(d.path(Component.SUMMARY));
            assertThrows(IOException.class, () -> writer.finish(LogPosition.NONE));
            assertTrue(Files.exists(d.path(Component.DATA)), "the failure came after some renames: " + files());
        }
        assertEquals(List.of(), files(), "closing a writer whose finish failed removes what it renamed too");
    }

    @Test
    void startUpRemovesTemporaryFilesAndIncompleteSSTablesOfItsOwn() throws IOException {
        SSTableFixtures.write(dir, 1, memtable(), partitioner, 1024);
        SSTableFixtures.write(dir, 2, memtable(), partitioner, 1024);
        Files.writeString(dir.resolve("tmp-Standard1-3-Data.db"), "left by a crash");
        Files.delete(dir.resolve("Standard1-2-Statistics.db"));

        DataFileInventory inventory = DataFileInventory.take(List.of(dir, dir.resolve("absent")), Set.of("Standard1"),
                Set.of());
        assertEquals(List.of(new Descriptor(dir, "Standard1", 1)), inventory.sstables("Standard1"));
        assertEquals(5, inventory.leftovers().size(), inventory.leftovers().toString());
        assertEquals(10, files().size(), "nothing is deleted before the clean-up");
        inventory.cleanUp();

        assertEquals(List.of("Standard1-1-Data.db", "Standard1-1-Filter.db", "Standard1-1-Index.db",
                "Standard1-1-Statistics.db", "Standard1-1-Summary.db"), files());
    }

    @Test
    void fileNamesParseBackWhateverTheColumnFamilyIsCalled() {
        for (String cf : List.of("Standard1", "tmp", "t")) {
            Descriptor d = new Descriptor(dir, cf, 12);
            for (Component c : Component.values()) {
                assertEquals(new Descriptor.FileName(d, c, false), Descriptor.parse(dir, d.path(c).getFileName().toString()));
                assertEquals(new Descriptor.FileName(d, c, true),
                        Descriptor.parse(dir, d.temporaryPath(c).getFileName().toString()));
            }
        }
        for (String other : List.of("notes.txt", "Standard1-x-Data.db", "Standard1--1-Data.db", "-1-Data.db",
                "Standard1-1-Other.db", "tmp-Standard1-1-Data", "a-b-1-Data.db")) {
            assertEquals(null, Descriptor.parse(dir, other), other);
        }
    }

    @Test
    void anEmptySSTableIsRefused() throws IOException {
        Descriptor d = new Descriptor(dir, "Standard1", 1);
        try (SSTableWriter writer = SSTableWriter.create(d, cf, partitioner, 1024, 0)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> writer.finish(LogPosition.NONE));
            assertTrue(e.getMessage().contains("empty"), e.getMessage());
        }
        assertEquals(List.of(), files());
    }

    @Test
    void rowsOutOfRingOrderAreRefused() throws IOException {
        Descriptor d = new Descriptor(dir, "Standard1", 1);
        DecoratedKey a = partitioner.decorateKey("a");
        DecoratedKey b = partitioner.decorateKey("b");
        DecoratedKey first = a.compareTo(b) < 0 ? a : b;
        DecoratedKey second = first == a ? b : a;
        ColumnFamily row = ColumnFamily.empty(cf).withDeletion(1, 1);
        try (SSTableWriter writer = SSTableWriter.create(d, cf, partitioner, 1024, 2)) {
            writer.append(second, row);
            assertThrows(IllegalArgumentException.class, () -> writer.append(first, row));
            assertThrows(IllegalArgumentException.class, () -> writer.append(second, row));
        }
    }

    @Test
    void anExistingSSTableIsNotOverwritten() throws IOException {
        Descriptor d = SSTableFixtures.write(dir, 1, memtable(), partitioner, 1024);
        assertThrows(IOException.class, () -> SSTableWriter.create(d, cf, partitioner, 1024, 1));
    }

    @Test
    void anObsoleteSSTableIsDeletedWhenTheLastReaderReleases() throws IOException {
        Memtable memtable = memtable();
        Descriptor d = SSTableFixtures.write(dir, 1, memtable, partitioner, 1024);
        SSTableReader sstable = SSTableReader.open(d, cf, partitioner, 4);
        DecoratedKey key = memtable.rowsFrom(DecoratedKey.startOf(partitioner.getMinimumToken())).next().getKey();

        assertTrue(sstable.acquire(), "a reader takes a reference");
        sstable.markObsolete();
        sstable.release(); // the owner's reference: a compaction replaced the sstable
        assertEquals(1, sstable.referenceCount());
        assertTrue(Files.exists(d.path(Component.DATA)));
        assertNotNull(sstable.getRow(key), "the reader still reads");

        sstable.release();
        assertEquals(List.of(), files());
        assertFalse(sstable.acquire(), "no reference once closed");
        assertThrows(IllegalStateException.class, sstable::release);
    }

    @Test
    void aJustWrittenSSTableThatCannotBeOpenedIsDeleted() throws IOException {
        Descriptor d = SSTableFixtures.write(dir, 1, memtable(), partitioner, 1024);
        Files.write(d.path(Component.DATA), new byte[1], java.nio.file.StandardOpenOption.APPEND);
        assertThrows(CorruptSSTableException.class, () -> SSTableReader.openWritten(d, cf, partitioner, 4, new KeyCache(0),
                FileAccess.STANDARD));
        assertEquals(List.of(), files(), "no file outlives the failure to be loaded beside its inputs at restart");
    }

    @Test
    void aReleasedSSTableThatIsNotObsoleteKeepsItsFiles() throws IOException {
        Descriptor d = SSTableFixtures.write(dir, 1, memtable(), partitioner, 1024);
        SSTableReader.open(d, cf, partitioner, 4).release();
        assertEquals(5, files().size());
    }
}
