package sibyl.client;

import java.nio.ByteBuffer;
import java.util.Iterator;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.SlicePredicate;

/**
 * All columns of one row (or all super columns, or all subcolumns of one super column), fetched page
 * by page with get_slice. As with {@link RangeScan}, slice bounds are inclusive, so each page after the
 * first starts at the last name seen and drops it ({@link PageIterator}).
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
        return new PageIterator<>(ByteBuffer.wrap(new byte[0]), null, pageSize,
                start -> client.getSlice(keyspace, key, parent,
                        Predicates.range(Bytes.toArray(start), null, false, pageSize), level),
                SliceScan::nameOf);
    }

    private static ByteBuffer nameOf(ColumnOrSuperColumn cosc) {
        return cosc.isSetColumn() ? cosc.getColumn().bufferForName() : cosc.getSuper_column().bufferForName();
    }
}
