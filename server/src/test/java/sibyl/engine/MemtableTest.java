package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import sibyl.db.CFMetaData;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.marshal.BytesType;
import sibyl.dht.DecoratedKey;
import sibyl.dht.RandomPartitioner;

/** The memtable's two views of its rows, point and sorted, agree, and concurrent writes to a row all land. */
class MemtableTest {
    private static final CFMetaData CF = CFMetaData.standard("KS", "CF", BytesType.instance);
    private final RandomPartitioner partitioner = new RandomPartitioner();

    @Test
    void concurrentWritersToSharedAndNewKeysLoseNothing() throws Exception {
        Memtable memtable = new Memtable(CF);
        int threads = 8;
        int perThread = 2000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            done.add(pool.submit(() -> {
                for (int i = 0; i < perThread; i++) {
                    // shared keys, written by every thread without the row lock Keyspace would take
                    String key = "shared" + (i % 50);
                    memtable.apply(key(key), row("t" + thread + "c" + i), 1);
                    memtable.apply(key("own" + thread + "-" + i), row("c"), 1);
                }
            }));
        }
        for (Future<?> f : done) f.get(60, TimeUnit.SECONDS);
        pool.shutdown();

        assertEquals(50 + threads * perThread, memtable.rowCount());
        for (int k = 0; k < 50; k++) {
            assertEquals(threads * perThread / 50, memtable.getRow(key("shared" + k)).cellCount(), "shared" + k);
        }
        assertEquals(2L * threads * perThread, memtable.operationCount());
        int scanned = 0;
        DecoratedKey previous = null;
        Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rows =
                memtable.rowsFrom(DecoratedKey.startOf(partitioner.getMinimumToken()));
        while (rows.hasNext()) {
            Map.Entry<DecoratedKey, ColumnFamily> e = rows.next();
            if (previous != null) assertEquals(-1, Integer.signum(previous.compareTo(e.getKey())), "token order");
            assertEquals(memtable.getRow(e.getKey()), e.getValue(), "the scan sees the point view's version");
            previous = e.getKey();
            scanned++;
        }
        assertEquals(memtable.rowCount(), scanned);
        assertNull(memtable.getRow(key("absent")));
    }

    private DecoratedKey key(String key) {
        return partitioner.decorateKey(key);
    }

    private static ColumnFamily row(String column) {
        return ColumnFamily.empty(CF).withCell(
                Column.live(column.getBytes(StandardCharsets.UTF_8), new byte[] {1}, 1));
    }
}
