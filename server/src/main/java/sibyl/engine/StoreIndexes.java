package sibyl.engine;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnIndexes;
import sibyl.dht.DecoratedKey;

/**
 * The KEYS indexes of one column family store (docs/thrift-api-0.7.md §Secondary indexes), one {@link KeysIndex}
 * per indexed column.
 *
 * <p>Crash safety: the indexes live in memory only and are built from the store's rows on their first use after the
 * store opens (a start, or an index added by system_update_column_family) or takes SSTables loaded while it runs
 * (nodetool refresh after json2sstable), and kept in step from then on by every write the store applies. The rows are what the commit log and the SSTables make durable, so after a kill -9 an
 * index cannot disagree with the data: it is derived again from them. That costs a scan of the column family at its
 * first indexed read after a start (the read waits for it), and saves a second on-disk structure whose every
 * update would have to be as durable, and replayed as exactly, as the rows themselves.
 *
 * <p>Keeping in step: after a write of a row, the indexed columns' live values are read back from the store and
 * each index lists the row under them (or under none), under a lock of the row's stripe, so that two writes of one
 * row leave the index as the later read found the row. A column that expires by its ttl is not written again: its
 * entry stays until a read that finds it refreshes the row ({@link #refresh}); there is one such entry per row at
 * most, so stale entries cannot accumulate.
 */
final class StoreIndexes {
    /** What the store reads for a row: the live cells of the indexed columns, in any order. */
    interface IndexedCells {
        List<Cell> read(DecoratedKey key, List<byte[]> columns);
    }

    /** What the store lists: every key it holds anything for, in ring order. */
    interface AllKeys {
        void forEach(Consumer<DecoratedKey> each);
    }

    private static final int STRIPES = 64;

    private final Map<ByteBuffer, KeysIndex> byColumn;
    private final List<byte[]> columns;
    private final IndexedCells cells;
    private final Object[] stripes = new Object[STRIPES];
    private final Object buildLock = new Object();
    /** Set before the build reads the first row: every write applied after it refreshes its row itself. */
    private volatile boolean maintained;
    private volatile boolean built;

    StoreIndexes(ColumnIndexes definitions, IndexedCells cells) {
        Map<ByteBuffer, KeysIndex> indexes = new LinkedHashMap<>();
        List<byte[]> names = new ArrayList<>();
        for (ByteBuffer column : definitions.byColumn().keySet()) {
            byte[] name = new byte[column.remaining()];
            column.duplicate().get(name);
            names.add(name);
            indexes.put(ByteBuffer.wrap(name), new KeysIndex());
        }
        this.byColumn = Collections.unmodifiableMap(indexes);
        this.columns = List.copyOf(names);
        this.cells = cells;
        for (int i = 0; i < STRIPES; i++) stripes[i] = new Object();
    }

    boolean isEmpty() {
        return byColumn.isEmpty();
    }

    /** The index of {@code column}, or null when it has none. */
    KeysIndex of(byte[] column) {
        return byColumn.get(ByteBuffer.wrap(column));
    }

    /** Called after a write of {@code key} was applied to the store. */
    void written(DecoratedKey key) {
        if (maintained) refresh(key);
    }

    /** Lists {@code key} under the live values the store holds for it now. */
    void refresh(DecoratedKey key) {
        synchronized (stripes[Math.floorMod(key.hashCode(), STRIPES)]) {
            List<Cell> live = cells.read(key, columns);
            for (byte[] column : columns) {
                byte[] value = null;
                for (Cell cell : live) {
                    if (cell instanceof Column c && Arrays.equals(c.name(), column)) value = c.value();
                }
                byColumn.get(ByteBuffer.wrap(column)).set(key, value);
            }
        }
    }

    /** Builds the indexes from every row of the store, once; a caller that comes meanwhile waits for it. */
    void ensureBuilt(AllKeys keys) {
        if (built) return;
        synchronized (buildLock) {
            if (built) return;
            maintained = true;
            keys.forEach(this::refresh);
            built = true;
        }
    }
}
