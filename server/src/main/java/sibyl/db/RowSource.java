package sibyl.db;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import sibyl.dht.DecoratedKey;

/**
 * Somewhere versions of a column family's rows are kept: a memtable, an SSTable. The engine
 * reads a row by merging what all its sources hold for the key, and compaction merges whole
 * sources, so a new kind of source plugs in without changing readers.
 *
 * <p>Rows handed out are immutable versions; they stay valid however the source changes later.
 */
public interface RowSource {
    /** This source's version of the row, or null when it holds nothing for the key. */
    ColumnFamily getRow(DecoratedKey key);

    /**
     * Rows in ring order from {@code from} (inclusive; may be a position marker) to the end of
     * the ring. Weakly consistent: rows added during iteration may or may not appear.
     */
    Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rowsFrom(DecoratedKey from);

    /** Every {@code interval}-th key in ring order, starting with the first (index samples). */
    List<DecoratedKey> sampleKeys(int interval);
}
