package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import sibyl.dht.DecoratedKey;
import sibyl.dht.RandomPartitioner;

/** The KEYS index of one column: a row is listed under its one current value, in ring order, and nowhere else. */
class KeysIndexTest {
    private final RandomPartitioner partitioner = new RandomPartitioner();

    private DecoratedKey key(String k) {
        return partitioner.decorateKey(k);
    }

    private static byte[] v(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private List<DecoratedKey> all(KeysIndex index, String value) {
        return index.keys(v(value), DecoratedKey.startOf(partitioner.getMinimumToken()), true, 1000);
    }

    @Test
    void aNewValueMovesTheRowAndNoValueUnlistsIt() {
        KeysIndex index = new KeysIndex();
        index.set(key("a"), v("x"));
        index.set(key("b"), v("x"));
        index.set(key("a"), v("y"));
        assertEquals(List.of(key("b")), all(index, "x"));
        assertEquals(List.of(key("a")), all(index, "y"));
        index.set(key("a"), v("y"));
        assertEquals(1, index.count(v("y")), "the same value again lists the row once");
        index.set(key("a"), null);
        index.set(key("never"), null);
        assertEquals(List.of(), all(index, "y"));
        assertEquals(1, index.size(), "only b is listed");
    }

    @Test
    void keysComeInRingOrderFromAStartInclusiveOrNotUpToALimit() {
        KeysIndex index = new KeysIndex();
        for (int i = 0; i < 50; i++) index.set(key("k" + i), v("x"));
        List<DecoratedKey> ordered = all(index, "x");
        assertEquals(50, ordered.size());
        for (int i = 1; i < ordered.size(); i++) {
            assertEquals(-1, Integer.signum(ordered.get(i - 1).compareTo(ordered.get(i))), "ring order at " + i);
        }
        assertEquals(ordered.subList(10, 15), index.keys(v("x"), ordered.get(10), true, 5));
        assertEquals(ordered.subList(11, 16), index.keys(v("x"), ordered.get(10), false, 5));
        assertEquals(List.of(), index.keys(v("x"), ordered.get(49), false, 5));
    }

    @Test
    void rowsRewrittenManyTimesKeepOneEntryEach() {
        KeysIndex index = new KeysIndex();
        for (int round = 0; round < 100; round++) {
            for (int i = 0; i < 20; i++) index.set(key("k" + i), v("v" + ((round + i) % 7)));
        }
        assertEquals(20, index.size());
        int listed = 0;
        for (int value = 0; value < 7; value++) listed += index.count(v("v" + value));
        assertEquals(20, listed, "stale entries do not accumulate");
    }
}
