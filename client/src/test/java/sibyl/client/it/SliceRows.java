package sibyl.client.it;

import java.util.LinkedHashMap;
import java.util.List;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.thrift.TException;

/**
 * How a slice call (get_slice, multiget_slice, get_range_slices) reads its rows and writes them as its answer. The
 * checks that explain a difference ({@link ReversedSliceCheck}, {@link SuperCountCheck}) read the same rows again
 * with another predicate, and need the rows themselves, not only the answer's text.
 */
record SliceRows(Reader reader, Renderer renderer) {
    /** The rows a slice call reads with a given predicate, in the call's order; get_slice reads one row, keyed "". */
    interface Reader {
        LinkedHashMap<String, List<ColumnOrSuperColumn>> read(Cassandra.Client client, SlicePredicate predicate) throws TException;
    }

    /** Writes rows as the call's answer is written. */
    interface Renderer {
        String render(LinkedHashMap<String, List<ColumnOrSuperColumn>> rows);
    }

    LinkedHashMap<String, List<ColumnOrSuperColumn>> read(Cassandra.Client client, SlicePredicate predicate) throws TException {
        return reader.read(client, predicate);
    }

    String render(LinkedHashMap<String, List<ColumnOrSuperColumn>> rows) {
        return renderer.render(rows);
    }
}
