package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.engine.EngineFixture.KS;
import static sibyl.engine.EngineFixture.STD;
import static sibyl.engine.EngineFixture.b;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.InvalidQueryException;
import sibyl.db.LogPosition;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.dht.RandomPartitioner;
import sibyl.io.Component;
import sibyl.io.Descriptor;
import sibyl.io.SSTableDirectory;
import sibyl.io.SSTableReader;
import sibyl.io.SSTableWriter;
import sibyl.io.SizeTieredBuckets;

/**
 * nodetool refresh: SSTables put into a column family's directory while the node runs are served
 * once loaded, each once, and never mistaken for the node's own; the node names its next
 * SSTables past any generation such a writer holds.
 */
class LoadNewSSTablesTest {
    private static final RandomPartitioner PARTITIONER = new RandomPartitioner();

    @TempDir
    Path dir;

    /** No compaction (it would replace the SSTables whose generations the test follows). */
    private EngineFixture.Settings options(List<Path> dataDirectories) {
        return EngineFixture.options(dir, 64L << 20, 864000, 1024).withEngine(e -> e.toBuilder()
                .dataDirectories(dataDirectories).buckets(new SizeTieredBuckets(32, 32, 0.5, 1.5, 0)).build());
    }

    @Test
    void sstablesPutInPlaceWhileTheNodeRunsAreServedOnceLoaded() throws Exception {
        EngineFixture.Settings options = options(List.of(dir.resolve("data")));
        Path ksDir = dir.resolve("data").resolve(KS);
        try (LocalStorageService db = EngineFixture.open(options)) {
            db.apply(RowMutation.builder(KS, "own").write(STD, b("c"), b("node"), 5).build());
            db.forceFlush(KS, STD);
            ColumnFamilyStore store = EngineFixture.store(db, STD);
            int own = store.liveSSTables().get(0).descriptor().generation();

            // What json2sstable does: the next generation of the keyspace, written beside the node's.
            writeSSTable(new Descriptor(ksDir, STD, own + 1), "imported", Column.live(b("c"), b("from outside"), 7));
            assertEquals(Optional.empty(), read(db, "imported"), "not served before it is loaded");
            assertEquals(1, db.loadNewSSTables(KS, STD));
            assertEquals(Optional.of("from outside"), read(db, "imported"));
            assertEquals(Optional.of("node"), read(db, "own"));
            assertEquals(0, db.loadNewSSTables(KS, STD), "loaded once");
            assertEquals(2, store.liveSSTables().size());

            db.apply(RowMutation.builder(KS, "later").write(STD, b("c"), b("flushed"), 9).build());
            db.forceFlush(KS, STD);
            assertEquals(List.of(own, own + 1, own + 2), generations(store), "the flush took the next free generation");
            assertEquals(0, db.loadNewSSTables(KS, STD), "the node's own flush is not new");

            // A writer holding a generation ahead of the node's counter (its temporary data file) is passed over.
            Files.writeString(new Descriptor(ksDir, STD, own + 3).temporaryPath(Component.DATA), "being written");
            db.apply(RowMutation.builder(KS, "later2").write(STD, b("c"), b("flushed"), 9).build());
            db.forceFlush(KS, STD);
            assertEquals(own + 4, generations(store).get(3));

            assertThrows(InvalidQueryException.class, () -> db.loadNewSSTables(KS, "Nope"));
        }
        try (LocalStorageService db = EngineFixture.open(options)) {
            assertEquals(Optional.of("from outside"), read(db, "imported"), "loaded at start-up like any other");
        }
    }

    @Test
    void aDamagedNewSSTableIsRefusedAndNothingIsAdded() throws Exception {
        EngineFixture.Settings options = options(List.of(dir.resolve("data")));
        Path ksDir = dir.resolve("data").resolve(KS);
        try (LocalStorageService db = EngineFixture.open(options)) {
            Descriptor good = writeSSTable(new Descriptor(ksDir, STD, 1), "a", Column.live(b("c"), b("v"), 1));
            Descriptor bad = writeSSTable(new Descriptor(ksDir, STD, 2), "b", Column.live(b("c"), b("v"), 1));
            Files.write(bad.path(Component.DATA), new byte[] {1, 2, 3});
            IOException e = assertThrows(IOException.class, () -> db.loadNewSSTables(KS, STD));
            assertTrue(e.getMessage().contains(bad.path(Component.DATA).toString()), e.getMessage());
            assertEquals(0, EngineFixture.store(db, STD).liveSSTables().size(), "all or nothing");

            SSTableDirectory.delete(bad);
            assertEquals(1, db.loadNewSSTables(KS, STD), "the good one once the damaged one is gone");
            assertEquals(good, EngineFixture.store(db, STD).liveSSTables().get(0).descriptor());
        }
    }

    /** Two data directories: an SSTable from outside that takes the generation of one of the node's own in the other is refused. */
    @Test
    void aNewSSTableWithTheGenerationOfOneOfTheNodesIsRefused() throws Exception {
        Path second = dir.resolve("data2");
        EngineFixture.Settings options = options(List.of(dir.resolve("data"), second));
        try (LocalStorageService db = EngineFixture.open(options)) {
            db.apply(RowMutation.builder(KS, "own").write(STD, b("c"), b("node"), 5).build());
            db.forceFlush(KS, STD);
            Descriptor own = EngineFixture.store(db, STD).liveSSTables().get(0).descriptor();
            Path otherDir = own.directory().startsWith(second) ? dir.resolve("data").resolve(KS) : second.resolve(KS);
            Descriptor twin = writeSSTable(new Descriptor(otherDir, STD, own.generation()), "twin", Column.live(b("c"), b("v"), 1));
            IOException e = assertThrows(IOException.class, () -> db.loadNewSSTables(KS, STD));
            assertEquals("sstable " + twin + " has the generation of another sstable of Standard1 this node uses;"
                    + " move it to a free generation (a number above every other in the name)", e.getMessage());
        }
    }

    private static Descriptor writeSSTable(Descriptor d, String key, Column column) throws IOException {
        ColumnFamily row = ColumnFamily.builder(EngineFixture.SCHEMA.columnFamily(STD).orElseThrow(), 1).add(column).build();
        try (SSTableWriter writer = SSTableWriter.create(d, row.metadata(), PARTITIONER, 1024, 1)) {
            writer.append(PARTITIONER.decorateKey(key), row);
            return writer.finish(LogPosition.NONE);
        }
    }

    private static Optional<String> read(LocalStorageService db, String key) {
        Optional<Cell> cell = db.get(KS, key, QueryPath.column(STD, b("c")));
        return cell.map(c -> new String(((Column) c).value(), StandardCharsets.UTF_8));
    }

    private static List<Integer> generations(ColumnFamilyStore store) {
        List<Integer> generations = new ArrayList<>();
        for (SSTableReader r : store.liveSSTables()) generations.add(r.descriptor().generation());
        return generations;
    }
}
