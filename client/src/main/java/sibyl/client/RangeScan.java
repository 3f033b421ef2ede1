package sibyl.client;

import java.util.Iterator;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.SlicePredicate;

/**
 * The rows of a key range, fetched page by page with get_range_slices.
 *
 * <p>Each page after the first starts at the last key of the previous page, which key ranges, being
 * start-inclusive, return again; it is skipped ({@link PageIterator}). Pages hold at least two rows.
 *
 * <p>Deleted rows appear as rows without columns until the server purges them (0.6 semantics).
 * The iterator may be walked once; each {@link #iterator()} call starts a new scan.
 */
public final class RangeScan implements Iterable<KeySlice> {

    private final SibylClient client;
    private final String keyspace;
    private final ColumnParent parent;
    private final SlicePredicate predicate;
    private final String startKey;
    private final String endKey;
    private final int pageSize;
    private final ConsistencyLevel level;

    RangeScan(SibylClient client, String keyspace, ColumnParent parent, SlicePredicate predicate,
              String startKey, String endKey, int pageSize, ConsistencyLevel level) {
        if (pageSize < 2) {
            throw new IllegalArgumentException("a range scan needs pages of at least 2 rows, not " + pageSize);
        }
        this.client = client;
        this.keyspace = keyspace;
        this.parent = parent;
        this.predicate = predicate;
        this.startKey = startKey == null ? "" : startKey;
        this.endKey = endKey == null ? "" : endKey;
        this.pageSize = pageSize;
        this.level = level;
    }

    @Override
    public Iterator<KeySlice> iterator() {
        return new PageIterator<>(startKey, endKey.isEmpty() ? null : endKey, pageSize,
                start -> client.getRangeSlices(keyspace, parent, predicate,
                        new KeyRange(pageSize).setStart_key(start).setEnd_key(endKey), level),
                KeySlice::getKey);
    }
}
