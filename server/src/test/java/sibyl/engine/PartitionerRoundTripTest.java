package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.engine.EngineFixture.KS;
import static sibyl.engine.EngineFixture.STD;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import sibyl.db.ColumnSelection;
import sibyl.db.QueryPath;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.dht.Partitioner;
import sibyl.dht.Partitioners;
import sibyl.dht.Token;

/**
 * Under each partitioner, rows written, flushed into several SSTables, compacted into one and read after a restart
 * answer as before, in the partitioner's ring order, by keys and by tokens; a restart under another partitioner is
 * refused, naming both.
 */
class PartitionerRoundTripTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"RandomPartitioner", "OrderPreservingPartitioner", "CollatingOrderPreservingPartitioner",
            "ByteOrderedPartitioner", "Murmur3Partitioner"})
    void flushCompactionAndRestartKeepRowsInRingOrder(String name) throws Exception {
        long seed = Long.getLong("sibyl.seed", System.nanoTime());
        System.out.println("PartitionerRoundTripTest seed " + seed + " (" + name + ")");
        Random random = new Random(seed);
        Partitioner partitioner = Partitioners.forName(name);
        EngineFixture.Settings options = EngineFixture.options(dir, 64L << 20, 864000, 256);
        String before;
        List<String> ring;
        try (LocalStorageService db = EngineFixture.open(options, partitioner)) {
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 400; i++) db.apply(EngineFixture.randomMutation(random, 80));
                db.forceFlush(KS);
            }
            for (int i = 0; i < 200; i++) db.apply(EngineFixture.randomMutation(random, 80));
            before = EngineFixture.snapshot(db);
            ring = keys(db, RowRange.keys("", ""));
            db.forceMajorCompaction(KS);
            assertEquals(1, EngineFixture.store(db, STD).liveSSTables().size());
            assertEquals(before, EngineFixture.snapshot(db), "seed " + seed + ", compacted");
        }
        List<Token> tokens = ring.stream().map(partitioner::getToken).toList();
        for (int i = 1; i < tokens.size(); i++) {
            assertTrue(tokens.get(i - 1).compareTo(tokens.get(i)) < 0, "ring order at " + ring.get(i) + ", seed " + seed);
        }
        try (LocalStorageService db = EngineFixture.open(options, partitioner)) {
            assertEquals(before, EngineFixture.snapshot(db), "seed " + seed + ", restarted");
            assertEquals(ring, keys(db, RowRange.keys("", "")));
            // (token of the 10th key, token of the 30th key] holds the 11th to the 30th; wrapping, the rest.
            Token a = tokens.get(9);
            Token b = tokens.get(29);
            assertEquals(ring.subList(10, 30), keys(db, RowRange.tokens(a, b)));
            List<String> wrapped = new ArrayList<>(ring.subList(30, ring.size()));
            wrapped.addAll(ring.subList(0, 10));
            assertEquals(wrapped, keys(db, RowRange.tokens(b, a)));
            assertEquals(ring.subList(9, 30), keys(db, RowRange.keys(ring.get(9), ring.get(29))));
        }
        String other = name.equals("Murmur3Partitioner") ? "ByteOrderedPartitioner" : "Murmur3Partitioner";
        Exception refused = assertThrows(Exception.class, () -> EngineFixture.open(options, Partitioners.forName(other)).close());
        String why = String.valueOf(refused.getMessage()) + refused.getCause();
        assertTrue(why.contains(name) && why.contains(other), "the refusal names both partitioners: " + why);
    }

    private static List<String> keys(LocalStorageService db, RowRange range) {
        List<String> keys = new ArrayList<>();
        for (RowSlice row : db.getRangeSlice(KS, QueryPath.cf(STD), ColumnSelection.all(), range, 100_000)) {
            keys.add(row.key());
        }
        return keys;
    }
}
