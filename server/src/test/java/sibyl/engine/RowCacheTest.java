package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import sibyl.db.CFMetaData;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.TestSchema;
import sibyl.db.marshal.BytesType;
import sibyl.dht.DecoratedKey;
import sibyl.dht.RandomPartitioner;

/**
 * The row cache's capacity can change as the column family grows, it lists the keys it holds, and
 * once full it admits a missed row only on a second miss.
 */
class RowCacheTest {
    private final RandomPartitioner partitioner = new RandomPartitioner();
    private final ColumnFamily row = ColumnFamily.empty(CFMetaData.standard("Keyspace1", "Standard1", BytesType.instance))
            .withCell(Column.live(TestSchema.b("c"), TestSchema.b("v"), 1));

    private void fill(RowCache cache, DecoratedKey key) {
        cache.fill(key, cache.reserve(key), row);
    }

    @Test
    void aSmallerCapacityDropsTheLeastRecentlyUsedRowsAtOnce() {
        RowCache cache = new RowCache(4);
        DecoratedKey a = partitioner.decorateKey("a");
        DecoratedKey b = partitioner.decorateKey("b");
        DecoratedKey c = partitioner.decorateKey("c");
        DecoratedKey d = partitioner.decorateKey("d");
        for (DecoratedKey k : List.of(a, b, c, d)) fill(cache, k);
        cache.get(a);
        assertEquals(List.of(b, c, d, a), cache.keys(), "least recently used first");
        cache.setCapacity(2);
        assertEquals(List.of(d, a), cache.keys());
        assertNull(cache.get(b));
        assertNotNull(cache.get(a));
        cache.setCapacity(0);
        assertFalse(cache.isEnabled());
        assertEquals(0, cache.size());
    }

    @Test
    void keysLeaveOutReservationsNotYetFilled() {
        RowCache cache = new RowCache(4);
        DecoratedKey a = partitioner.decorateKey("a");
        fill(cache, a);
        cache.reserve(partitioner.decorateKey("pending"));
        assertEquals(List.of(a), cache.keys());
    }

    @Test
    void whileThereIsRoomEveryMissIsAdmitted() {
        RowCache cache = new RowCache(3);
        for (String k : List.of("a", "b", "c")) {
            DecoratedKey key = partitioner.decorateKey(k);
            assertTrue(cache.admits(key), k);
            fill(cache, key);
        }
        assertEquals(3, cache.size());
    }

    @Test
    void onceFullAKeyIsAdmittedOnItsSecondMissNotItsFirst() {
        RowCache cache = new RowCache(2);
        for (String k : List.of("a", "b")) fill(cache, partitioner.decorateKey(k));
        DecoratedKey hot = partitioner.decorateKey("hot");
        assertFalse(cache.admits(hot), "first miss of a full cache");
        assertTrue(cache.admits(hot), "second miss");
        assertFalse(cache.admits(hot), "the slot starts over once a key was admitted");
        // Keys missed once each, many more than the doorkeeper's slots: almost none gets in.
        int admitted = 0;
        for (int i = 0; i < 20_000; i++) {
            if (cache.admits(partitioner.decorateKey("once" + i))) admitted++;
        }
        assertTrue(admitted < 20, admitted + " of 20000 keys read once were admitted");
    }

    @Test
    void theDoorkeeperHasEightSlotsACachedRowWithinBounds() {
        assertEquals(1024, RowCache.doorkeeperSlots(1));
        assertEquals(1024, RowCache.doorkeeperSlots(128));
        assertEquals(2048, RowCache.doorkeeperSlots(129));
        assertEquals(1 << 20, RowCache.doorkeeperSlots(Integer.MAX_VALUE));
    }
}
