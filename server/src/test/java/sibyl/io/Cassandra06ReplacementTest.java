package sibyl.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CFMetaData;
import sibyl.db.ColumnFamily;
import sibyl.db.MergingRowIterator;
import sibyl.db.marshal.BytesType;
import sibyl.dht.DecoratedKey;
import sibyl.dht.RandomPartitioner;
import sibyl.engine.Memtable;

/**
 * Compaction replaces Cassandra 0.6 SSTables without a window of risk: the output is durable before any 0.6
 * file is marked, the first marker speaks for every 0.6 input, and a file goes only behind a marker. Each crash
 * point is simulated by leaving the directory as the protocol leaves it at that step and taking start-up's
 * inventory again: the SSTables it loads hold every row exactly as the inputs did (nothing lost), and no 0.6
 * input is loaded beside the output once any marker is down (nothing loaded twice).
 */
class Cassandra06ReplacementTest {
    private static final int INTERVAL = 4;
    private static final Set<String> CONFIGURED = Set.of("Standard1");

    @TempDir
    Path dir;

    private final RandomPartitioner partitioner = new RandomPartitioner();
    private final CFMetaData cf = CFMetaData.standard(SSTableFixtures.KS, "Standard1", BytesType.instance);
    private Descriptor first;
    private Descriptor second;
    /** Every row of the two 0.6 SSTables merged, as the output must hold them. */
    private List<String> expected;

    @BeforeEach
    void twoOverlapping06SSTables() throws IOException {
        Random random = new Random(31);
        first = c06(1, SSTableFixtures.randomMemtable(cf, partitioner, random, 60, 6));
        second = c06(2, SSTableFixtures.randomMemtable(cf, partitioner, random, 60, 6));
        expected = mergedRows(List.of(first, second));
    }

    private Descriptor c06(int generation, Memtable m) throws IOException {
        return Cassandra06Writer.write(dir, "Standard1", generation, partitioner, 128,
                () -> m.rowsFrom(DecoratedKey.startOf(partitioner.getMinimumToken())));
    }

    private List<String> mergedRows(List<Descriptor> sstables) throws IOException {
        List<SSTableReader> readers = new ArrayList<>();
        try {
            List<Iterator<Map.Entry<DecoratedKey, ColumnFamily>>> scans = new ArrayList<>();
            for (Descriptor d : sstables) {
                SSTableReader r = SSTableReader.open(d, cf, partitioner, INTERVAL);
                readers.add(r);
                scans.add(r.rowsFrom(DecoratedKey.startOf(partitioner.getMinimumToken())));
            }
            // What reads see: the merge, less what tombstones shadow (which compaction drops).
            TombstonePurger shadowed = new TombstonePurger(0, 0, false);
            List<String> rows = new ArrayList<>();
            Iterator<Map.Entry<DecoratedKey, ColumnFamily>> merged = MergingRowIterator.of(scans);
            while (merged.hasNext()) {
                Map.Entry<DecoratedKey, ColumnFamily> row = merged.next();
                ColumnFamily kept = shadowed.purge(row.getValue());
                if (kept != null) rows.add(row.getKey() + " " + SSTableFixtures.render(kept));
            }
            return rows;
        } finally {
            readers.forEach(SSTableReader::release);
        }
    }

    /** Compacts both 0.6 SSTables into generation 3 as the node does up to the markers; returns the output. */
    private Descriptor compact() throws IOException {
        SSTableReader a = SSTableReader.open(first, cf, partitioner, INTERVAL);
        SSTableReader b = SSTableReader.open(second, cf, partitioner, INTERVAL);
        try {
            return Compaction.compact(List.of(a, b), new Descriptor(dir, "Standard1", 3), partitioner, 128,
                    INTERVAL, 0, 0, false).output().orElseThrow();
        } finally {
            a.release();
            b.release();
        }
    }

    /** What the next start would load, after checking the rows they hold are the inputs' rows. */
    private List<Descriptor> restart() throws IOException {
        DataFileInventory inventory = DataFileInventory.take(List.of(dir), CONFIGURED, Set.of());
        assertEquals(List.of(), inventory.unrecognised());
        List<Descriptor> loaded = inventory.sstables("Standard1");
        assertEquals(expected, mergedRows(loaded), "nothing lost, nothing changed");
        inventory.cleanUp();
        assertEquals(loaded, DataFileInventory.take(List.of(dir), CONFIGURED, Set.of()).sstables("Standard1"),
                "the clean-up changed nothing that loads");
        return loaded;
    }

    private List<String> files() throws IOException {
        try (Stream<Path> all = Files.list(dir)) {
            return all.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aCrashWhileTheOutputIsWrittenLoadsThe06SSTables() throws IOException {
        Files.writeString(new Descriptor(dir, "Standard1", 3).temporaryPath(Component.DATA), "half an output");
        assertEquals(List.of(first, second), restart());
        assertFalse(files().contains("tmp-Standard1-3-Data.db"), "the partial output is Sibyl's and goes");
    }

    @Test
    void aCrashAfterTheOutputIsDurableButBeforeAnyMarkerLoadsBothWithTheSameRows() throws IOException {
        Descriptor output = compact();
        // The one window where the inputs load beside their output: the same versions, which reads merge and the
        // next compaction folds together.
        assertEquals(List.of(first, second, output), restart());
    }

    @Test
    void theFirstMarkerDownSpeaksForEvery06Input() throws IOException {
        Descriptor output = compact();
        CompactedMarker.write(first, List.of(1, 2), "Standard1-3");
        assertEquals(List.of(output), restart());
        assertEquals(List.of("Standard1-3-Data.db", "Standard1-3-Filter.db", "Standard1-3-Index.db",
                "Standard1-3-Statistics.db", "Standard1-3-Summary.db"), files(), "the clean-up finished both deletions");
    }

    @Test
    void aCrashBetweenDeletionsIsFinishedAtStart() throws IOException {
        Descriptor output = compact();
        SSTableDirectory.markReplaced(List.of(first, second), output);
        Files.delete(first.path(Component.DATA));
        Files.delete(second.path(Component.DATA));
        Files.delete(second.path(Component.INDEX));
        assertEquals(List.of(output), restart());
        assertEquals(5, files().size(), files().toString());
    }

    @Test
    void markersLeftAfterEveryFileWentAreRemovedAtStart() throws IOException {
        Descriptor output = compact();
        SSTableDirectory.markReplaced(List.of(first, second), output);
        for (Descriptor d : List.of(first, second)) {
            for (Component c : d.components()) Files.delete(d.path(c));
        }
        assertEquals(List.of(output), restart());
        assertEquals(5, files().size(), files().toString());
    }

    @Test
    void releasingAReplaced06SSTableDeletesItsFilesBehindSibylsMarker() throws IOException {
        Descriptor output = compact();
        SSTableReader a = SSTableReader.open(first, cf, partitioner, INTERVAL);
        SSTableDirectory.markReplaced(List.of(first, second, output), output);
        String marker = Files.readString(dir.resolve("Standard1-1-Compacted"), StandardCharsets.UTF_8);
        assertEquals("sibyl compacted 1\ngenerations 1 2\ninto Standard1-3\n", marker, "Sibyl's own SSTable needs none");
        assertFalse(Files.exists(dir.resolve("Standard1-3-Compacted")));
        a.markObsolete();
        a.release();
        assertFalse(files().stream().anyMatch(f -> f.startsWith("Standard1-1-")), files().toString());
        assertTrue(files().contains("Standard1-2-Compacted"), "the other input's marker stays until its own deletion");
        assertEquals(List.of(output), restart());
    }

    @Test
    void a06MarkIsHonouredAndItsFilesLeft() throws IOException {
        Descriptor output = compact();
        Files.createFile(dir.resolve("Standard1-1-Compacted"));
        Files.createFile(dir.resolve("Standard1-2-Compacted"));
        assertEquals(List.of(output), restart());
        assertEquals(13, files().size(), "0.6's files and its marks stay beside the output: " + files());
    }
}
