package sibyl.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CFMetaData;
import sibyl.db.marshal.BytesType;
import sibyl.dht.DecoratedKey;
import sibyl.dht.RandomPartitioner;
import sibyl.engine.Memtable;

/**
 * Start-up recognises every entry of a keyspace directory by name and content: what it opens, what of its own
 * it deletes (and only then, and only what it wrote), what of Cassandra 0.6's it leaves, and what refuses the
 * start, named file by file, with nothing changed.
 */
class DataFileInventoryTest {
    private static final Set<String> CONFIGURED = Set.of("Standard1");

    @TempDir
    Path dir;

    private final RandomPartitioner partitioner = new RandomPartitioner();
    private final CFMetaData cf = CFMetaData.standard(SSTableFixtures.KS, "Standard1", BytesType.instance);

    private Memtable memtable(long seed) {
        return SSTableFixtures.randomMemtable(cf, partitioner, new Random(seed), 40, 6);
    }

    private Descriptor sibyl(int generation) throws IOException {
        return SSTableFixtures.write(dir, generation, memtable(generation), partitioner, 256);
    }

    private Descriptor c06(int generation) throws IOException {
        Memtable m = memtable(generation);
        return Cassandra06Writer.write(dir, "Standard1", generation, partitioner, 256,
                () -> m.rowsFrom(DecoratedKey.startOf(partitioner.getMinimumToken())));
    }

    private List<String> names(List<DataFileInventory.Finding> findings) {
        List<String> names = new ArrayList<>();
        for (DataFileInventory.Finding f : findings) names.add(dir.relativize(f.file()).toString());
        names.sort(null);
        return names;
    }

    @Test
    void everyKindOfEntryIsRecognisedAndOnlySibylsLeftoversAreDeletedAtCleanUp() throws IOException {
        Descriptor own = sibyl(1);
        Descriptor legacy = c06(2);
        Files.writeString(dir.resolve("tmp-Standard1-3-Data.db"), "Sibyl was writing this");
        Descriptor interrupted = sibyl(4);
        Files.delete(interrupted.path(Component.STATISTICS)); // a rename (or a deletion) cut short
        Files.writeString(dir.resolve("Standard1-tmp-5-Data.db"), "0.6 was writing this");
        Descriptor marked = c06(6);
        Files.createFile(dir.resolve("Standard1-6-Compacted"));
        Descriptor orphan = c06(7);
        Files.delete(orphan.path(Component.DATA));
        Files.createFile(dir.resolve("Standard1-8-Data.db"));
        Files.createDirectories(dir.resolve("snapshots/1234-x"));
        Files.writeString(dir.resolve("Other1-1-Data.db"), "of a column family not configured");
        Files.writeString(dir.resolve("Other1-e-1-Data.db"), "of a column family not configured");
        Map<String, byte[]> before = contents(dir);

        DataFileInventory inventory = DataFileInventory.take(List.of(dir), CONFIGURED, Set.of());
        assertEquals(List.of(own, legacy), inventory.sstables("Standard1"));
        assertEquals(SSTableFormat.CASSANDRA_06, inventory.sstables("Standard1").get(1).format());
        assertEquals(List.of(), inventory.unrecognised());
        assertEquals(List.of("Standard1-4-Data.db", "Standard1-4-Filter.db", "Standard1-4-Index.db",
                "Standard1-4-Summary.db", "tmp-Standard1-3-Data.db"), names(inventory.leftovers()));
        assertEquals(List.of("Standard1-6-Compacted", "Standard1-6-Data.db", "Standard1-6-Filter.db",
                "Standard1-6-Index.db", "Standard1-7-Filter.db", "Standard1-7-Index.db", "Standard1-8-Data.db",
                "Standard1-tmp-5-Data.db"), names(inventory.ignored()));
        assertEquals(8, inventory.highestGeneration());
        inventory.refuseUnrecognised("keyspace Keyspace1");
        assertMapEquals(before, contents(dir));

        inventory.cleanUp();
        Map<String, byte[]> after = contents(dir);
        for (String gone : names(inventory.leftovers())) assertFalse(after.containsKey(gone), gone);
        for (String kept : before.keySet()) {
            if (!names(inventory.leftovers()).contains(kept)) assertArrayEquals(before.get(kept), after.get(kept), kept);
        }
    }

    @Test
    void laterCassandrasAndUnknownFilesRefuseTheStartEachNamedAndNothingIsDeleted() throws IOException {
        sibyl(1);
        c06(2);
        Files.writeString(dir.resolve("tmp-Standard1-3-Data.db"), "Sibyl's own leftover stays too");
        for (String name : List.of("Standard1-e-1-Data.db", "Standard1-f-1-Index.db", "Keyspace1-Standard1-hf-1-Data.db",
                "Keyspace1-Standard1-ka-2-Statistics.db", "mc-1-big-Data.db", "nb-3-big-TOC.txt",
                "ma_txn_compaction_0d5b.log", "notes.txt", "Standard1-2-Digest.sha1")) {
            Files.writeString(dir.resolve(name), "x");
        }
        Files.createDirectories(dir.resolve("Standard1-5e6f0a1b2c3d4e5f6a7b8c9d0e1f2a3b"));
        Files.createDirectories(dir.resolve("Standard1"));
        Map<String, byte[]> before = contents(dir);

        DataFileInventory inventory = DataFileInventory.take(List.of(dir), CONFIGURED, Set.of());
        IOException e = assertThrows(IOException.class, () -> inventory.refuseUnrecognised("keyspace Keyspace1"));
        String message = e.getMessage();
        assertTrue(message.startsWith("Cannot start on the data directories of keyspace Keyspace1: 11 files there are"
                + " neither Sibyl's nor a Cassandra 0.6 SSTable it can read. Nothing was changed or deleted."), message);
        String export = "; export it with that version's sstable2json, or move it out of the data directory";
        for (String line : List.of(
                dir.resolve("Standard1-e-1-Data.db") + ": an SSTable of Cassandra 0.7 or later (format e)" + export,
                dir.resolve("Standard1-f-1-Index.db") + ": an SSTable of Cassandra 0.7 or later (format f)" + export,
                dir.resolve("Keyspace1-Standard1-hf-1-Data.db") + ": an SSTable of Cassandra 1.1 or later (format hf)"
                        + export,
                dir.resolve("Keyspace1-Standard1-ka-2-Statistics.db") + ": an SSTable of Cassandra 2.1 or later (format ka)"
                        + export,
                dir.resolve("mc-1-big-Data.db") + ": an SSTable of Cassandra 3.0 or later (format mc)" + export,
                dir.resolve("nb-3-big-TOC.txt") + ": an SSTable of Cassandra 4.0 or later (format nb)" + export,
                dir.resolve("ma_txn_compaction_0d5b.log") + ": a transaction log of Cassandra 3.0 or later" + export,
                dir.resolve("notes.txt") + ": not a file Sibyl or Cassandra 0.6 writes; move it out of the data directory",
                dir.resolve("Standard1-2-Digest.sha1") + ": not a file Sibyl or Cassandra 0.6 writes; move it out of the"
                        + " data directory",
                dir.resolve("Standard1-5e6f0a1b2c3d4e5f6a7b8c9d0e1f2a3b") + ": a table directory of Cassandra 2.1 or"
                        + " later; export its SSTables with that version's sstable2json, or move it out of the data directory",
                dir.resolve("Standard1") + ": a column family directory of Cassandra 1.1 or later; export its SSTables"
                        + " with that version's sstable2json, or move it out of the data directory")) {
            assertTrue(message.contains("\n  " + line), "missing: " + line + "\nin: " + message);
        }
        assertMapEquals(before, contents(dir));
    }

    @Test
    void filesOfAnotherWriterUnderSibylsNamesAreRefusedNotDeleted() throws IOException {
        Descriptor d = sibyl(1);
        Files.write(d.path(Component.STATISTICS), new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        Files.writeString(dir.resolve("Standard1-2-Data.db"), "something else entirely");
        Files.writeString(dir.resolve("Standard1-2-Index.db"), "or this");
        Files.writeString(dir.resolve("Standard1-3-Data.db"), "a data file alone");
        Files.writeString(dir.resolve("Standard1-4-Summary.db"), "not Sibyl's summary");
        Files.writeString(dir.resolve("Standard1-5-Compacted"), "neither 0.6's (empty) nor Sibyl's");
        Map<String, byte[]> before = contents(dir);

        DataFileInventory inventory = DataFileInventory.take(List.of(dir), CONFIGURED, Set.of());
        assertEquals(List.of("Standard1-1-Statistics.db", "Standard1-2-Data.db", "Standard1-3-Data.db",
                "Standard1-4-Summary.db", "Standard1-5-Compacted"), names(inventory.unrecognised()));
        assertEquals(List.of(), inventory.leftovers(), "a file merely missing its companions is not taken for Sibyl's");
        assertEquals(List.of(), inventory.sstables("Standard1"));
        assertThrows(IOException.class, () -> inventory.refuseUnrecognised("keyspace Keyspace1"));
        inventory.cleanUp();
        assertMapEquals(before, contents(dir));
    }

    /**
     * What a crash leaves between a compaction's output becoming durable and its inputs' deletion: inputs and
     * output side by side. The output's Statistics lists its inputs; they are not loaded, and clean-up deletes them.
     * A Cassandra 0.6 input is not listed (its markers speak for it), and an SSTable that has a listed generation
     * but other contents (a snapshot's file copied back) is loaded, not deleted.
     */
    @Test
    void inputsACompactionOutputListsAreNotLoadedAndAreDeletedAtCleanUp() throws IOException {
        Descriptor first = sibyl(1);
        Descriptor second = sibyl(2);
        Descriptor legacy = c06(3);
        Descriptor output = compact(List.of(first, second, legacy), 4);
        Descriptor scrubbed = scrub(output, 5); // an output replaced in turn before its own inputs were gone
        Descriptor other = sibyl(7);
        Descriptor otherOutput = compact(List.of(other), 8);
        try (Stream<Path> files = Files.list(dir)) {
            // 7 put back with other rows: an SSTable of that generation the compaction never saw.
            for (Path p : files.filter(p -> p.getFileName().toString().startsWith("Standard1-7-")).toList()) Files.delete(p);
        }
        SSTableFixtures.write(dir, 7, memtable(99), partitioner, 256);

        DataFileInventory inventory = DataFileInventory.take(List.of(dir), CONFIGURED, Set.of());
        assertEquals(List.of(legacy, 5, 7, 8), generationsOr06(inventory.sstables("Standard1"), legacy));
        assertEquals(List.of(first, second, output), inventory.superseded());
        assertEquals(SSTableFormat.SIBYL, scrubbed.format());
        assertEquals(8, otherOutput.generation());

        Map<String, byte[]> before = contents(dir);
        inventory.cleanUp();
        Map<String, byte[]> after = contents(dir);
        for (Descriptor gone : List.of(first, second, output)) {
            for (Component c : Component.values()) {
                assertFalse(Files.exists(gone.path(c)), gone.path(c) + " deleted");
                before.remove(dir.relativize(gone.path(c)).toString());
            }
        }
        assertMapEquals(before, after);
        DataFileInventory again = DataFileInventory.take(List.of(dir), CONFIGURED, Set.of());
        assertEquals(List.of(), again.superseded());
        assertEquals(inventory.sstables("Standard1"), again.sstables("Standard1"));
    }

    /** Statistics files written before the list of replaced SSTables existed (version 1) still open. */
    @Test
    void aVersion1StatisticsFileStillOpensAndListsNothingReplaced() throws IOException {
        Descriptor d = sibyl(1);
        Path statistics = d.path(Component.STATISTICS);
        SSTableMetadata now = ChecksummedFile.read(statistics, (in, length) -> SSTableMetadata.readFrom(in));
        SSTableMetadata v1 = new SSTableMetadata(SSTableMetadata.VERSION_1, now.generation(), now.partitioner(),
                now.rowCount(), now.firstKey(), now.lastKey(), now.minTimestamp(), now.maxTimestamp(), now.logPosition(),
                now.dataLength(), now.indexLength());
        Files.delete(statistics);
        ChecksummedFile.write(statistics, v1::writeTo);
        SSTableReader reader = SSTableReader.open(d, cf, partitioner, 128);
        try {
            assertEquals(SSTableMetadata.VERSION_1, reader.statistics().formatVersion());
            assertEquals(List.of(), reader.statistics().replaces());
            assertEquals(now.rowCount(), reader.statistics().rowCount());
        } finally {
            reader.release();
        }
        assertEquals(List.of(d), DataFileInventory.take(List.of(dir), CONFIGURED, Set.of()).sstables("Standard1"));
    }

    /** The generations of {@code sstables}, with the one 0.6 SSTable as itself. */
    private static List<Object> generationsOr06(List<Descriptor> sstables, Descriptor legacy) {
        List<Object> out = new ArrayList<>();
        for (Descriptor d : sstables) out.add(d.equals(legacy) ? d : d.generation());
        return out;
    }

    private Descriptor compact(List<Descriptor> inputs, int generation) throws IOException {
        List<SSTableReader> readers = new ArrayList<>();
        try {
            for (Descriptor d : inputs) readers.add(SSTableReader.open(d, cf, partitioner, 128));
            return Compaction.compact(readers, new Descriptor(dir, "Standard1", generation, SSTableFormat.SIBYL),
                    partitioner, 256, 0, 0, false).output().orElseThrow();
        } finally {
            for (SSTableReader r : readers) r.release();
        }
    }

    private Descriptor scrub(Descriptor input, int generation) throws IOException {
        SSTableReader reader = SSTableReader.open(input, cf, partitioner, 128);
        try {
            return Scrubber.scrub(reader, new Descriptor(dir, "Standard1", generation, SSTableFormat.SIBYL), partitioner,
                    256, 128).output().orElseThrow();
        } finally {
            reader.release();
        }
    }

    @Test
    void a06SSTableAndSibylsShareGenerationsAndTheCounterPassesOverAll() throws IOException {
        c06(41);
        Files.writeString(dir.resolve("Standard1-tmp-57-Data.db"), "0.6 was writing this");
        assertEquals(57, SSTableDirectory.highestGeneration(dir));
        assertTrue(SSTableDirectory.generationInUse(List.of(dir), "Standard1", 41));
        assertTrue(SSTableDirectory.generationInUse(List.of(dir), "Standard1", 57), "0.6's temporary file");
        Files.createFile(dir.resolve("Standard1-60-Compacted"));
        assertTrue(SSTableDirectory.generationInUse(List.of(dir), "Standard1", 60), "a marker");
        assertFalse(SSTableDirectory.generationInUse(List.of(dir), "Standard1", 58));
    }

    @Test
    void aJson2sstableWorkDirectoryIsLeftAloneNotRefused() throws IOException {
        Path work = Files.createDirectory(dir.resolve(DataFileInventory.IMPORT_WORK_PREFIX + "123"));
        Files.writeString(work.resolve("run-0"), "sorted rows of an import under way");
        DataFileInventory inventory = DataFileInventory.take(List.of(dir), CONFIGURED, Set.of());
        assertEquals(List.of(), inventory.unrecognised());
        assertEquals(List.of(), inventory.leftovers());
        assertEquals(List.of(work.getFileName().toString()), names(inventory.ignored()));
        inventory.cleanUp();
        assertTrue(Files.exists(work.resolve("run-0")));
    }

    @Test
    void aColumnFamilyCalledTmpKeepsEveryTmpFile() throws IOException {
        Files.writeString(dir.resolve("tmp-Standard1-3-Data.db"), "Sibyl's, or a 0.7 file of column family tmp");
        DataFileInventory inventory = DataFileInventory.take(List.of(dir), Set.of("Standard1", "tmp"), Set.of());
        assertEquals(List.of(), inventory.leftovers());
        assertEquals(List.of("tmp-Standard1-3-Data.db"), names(inventory.ignored()));
    }

    @Test
    void theServicesFilesAreLeftToIt() throws IOException {
        Files.writeString(dir.resolve("token"), "42");
        Files.writeString(dir.resolve("token.tmp"), "4");
        DataFileInventory inventory = DataFileInventory.take(List.of(dir), CONFIGURED, Set.of("token", "token.tmp"));
        inventory.refuseUnrecognised("keyspace system");
        assertEquals(1, DataFileInventory.take(List.of(dir), CONFIGURED, Set.of("token")).unrecognised().size());
    }

    @Test
    void identifyTellsTheFormatOfAFileOrWhatItIsInstead() throws IOException {
        Descriptor own = sibyl(1);
        Descriptor legacy = c06(2);
        assertEquals(own, SSTableDirectory.identify(own.path(Component.INDEX)));
        assertEquals(legacy, SSTableDirectory.identify(legacy.path(Component.DATA)));
        Files.createFile(dir.resolve("Standard1-3-Data.db"));
        IOException e = assertThrows(IOException.class, () -> SSTableDirectory.identify(dir.resolve("Standard1-3-Data.db")));
        assertTrue(e.getMessage().contains("an empty file"), e.getMessage());
        e = assertThrows(IOException.class, () -> SSTableDirectory.identify(dir.resolve("notes.txt")));
        assertTrue(e.getMessage().contains("is not an SSTable file"), e.getMessage());
    }

    static Map<String, byte[]> contents(Path root) throws IOException {
        Map<String, byte[]> all = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.toList()) {
                if (p.equals(root)) continue;
                all.put(root.relativize(p).toString(), Files.isDirectory(p) ? new byte[0] : Files.readAllBytes(p));
            }
        }
        return all;
    }

    static void assertMapEquals(Map<String, byte[]> expected, Map<String, byte[]> actual) {
        assertEquals(expected.keySet(), actual.keySet());
        for (String k : expected.keySet()) assertArrayEquals(expected.get(k), actual.get(k), k);
    }
}
