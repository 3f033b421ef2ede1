package sibyl.client;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.SlicePredicate;

/**
 * The rows of a key range, fetched page by page with get_range_slices.
 *
 * <p>Each page after the first starts at the last key of the previous page. Key ranges are
 * start-inclusive, so that key comes back again as the first row of the new page and is skipped.
 * A page shorter than asked for is the last one. Paging needs at least two rows per page, or a page
 * could hold nothing but the repeated key.
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
        return new Pages();
    }

    private final class Pages implements Iterator<KeySlice> {
        private List<KeySlice> page = List.of();
        private int position;
        private String nextStart = startKey;
        private String lastKey;
        private boolean lastPage;

        @Override
        public boolean hasNext() {
            while (position >= page.size()) {
                if (lastPage) {
                    return false;
                }
                fetch();
            }
            return true;
        }

        @Override
        public KeySlice next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            KeySlice row = page.get(position++);
            lastKey = row.getKey();
            return row;
        }

        private void fetch() {
            KeyRange range = new KeyRange(pageSize).setStart_key(nextStart).setEnd_key(endKey);
            page = client.getRangeSlices(keyspace, parent, predicate, range, level);
            lastPage = page.size() < pageSize;
            position = 0;
            if (lastKey != null && !page.isEmpty() && page.get(0).getKey().equals(lastKey)) {
                position = 1; // the start key, already returned at the end of the previous page
            }
            if (!page.isEmpty()) {
                nextStart = page.get(page.size() - 1).getKey();
                if (!endKey.isEmpty() && nextStart.equals(endKey)) {
                    lastPage = true;
                }
            }
        }
    }
}
