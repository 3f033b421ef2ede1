package sibyl.client;

import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.SlicePredicate;

/**
 * All columns of one row (or all super columns, or all subcolumns of one super column), fetched page
 * by page with get_slice. As with {@link RangeScan}, slice bounds are inclusive, so each page after the
 * first starts at the last name seen and drops it.
 */
public final class SliceScan implements Iterable<ColumnOrSuperColumn> {

    private final SibylClient client;
    private final String keyspace;
    private final String key;
    private final ColumnParent parent;
    private final int pageSize;
    private final ConsistencyLevel level;

    SliceScan(SibylClient client, String keyspace, String key, ColumnParent parent, int pageSize,
              ConsistencyLevel level) {
        if (pageSize < 2) {
            throw new IllegalArgumentException("a column scan needs pages of at least 2 columns, not " + pageSize);
        }
        this.client = client;
        this.keyspace = keyspace;
        this.key = key;
        this.parent = parent;
        this.pageSize = pageSize;
        this.level = level;
    }

    @Override
    public Iterator<ColumnOrSuperColumn> iterator() {
        return new Pages();
    }

    private static ByteBuffer nameOf(ColumnOrSuperColumn cosc) {
        return cosc.isSetColumn() ? cosc.getColumn().bufferForName() : cosc.getSuper_column().bufferForName();
    }

    private final class Pages implements Iterator<ColumnOrSuperColumn> {
        private List<ColumnOrSuperColumn> page = List.of();
        private int position;
        private byte[] nextStart = new byte[0];
        private ByteBuffer lastName;
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
        public ColumnOrSuperColumn next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            ColumnOrSuperColumn c = page.get(position++);
            lastName = nameOf(c);
            return c;
        }

        private void fetch() {
            SlicePredicate predicate = Predicates.range(nextStart, null, false, pageSize);
            page = client.getSlice(keyspace, key, parent, predicate, level);
            lastPage = page.size() < pageSize;
            position = 0;
            if (lastName != null && !page.isEmpty() && nameOf(page.get(0)).equals(lastName)) {
                position = 1;
            }
            if (!page.isEmpty()) {
                nextStart = Bytes.toArray(nameOf(page.get(page.size() - 1)));
            }
        }
    }
}
