package sibyl.client.it;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;
import org.apache.thrift.TException;

/**
 * Tells a known fault of Cassandra 0.6.5 apart from a difference of Sibyl's: a reversed slice of a row that an
 * SSTable holds in several column index blocks, starting at a name that is not a column of the row, leaves out
 * columns that a forward slice of the same range returns (0.6.5 looks for the start among the blocks' last
 * names, and starts in the block after it). Reproduced on a fresh 0.6.5 node: columns "b", "c" (5,000 bytes)
 * and "e" of one row in Standard1, flushed, with ColumnIndexSizeInKB 4; get_slice reversed from "d" answers
 * nothing, the forward slice up to "d" answers "b" and "c".
 *
 * <p>When the answers to a reversed slice differ, the same rows are read forward from 0.6: if Sibyl's answer
 * is that forward reading turned round (and cut to the call's count), and 0.6's own reversed reading of the
 * whole range is not, the difference is 0.6's fault and not counted against Sibyl.
 */
final class ReversedSliceCheck {
    private static final int ALL = 1_000_000;

    private final SliceRows rows;
    private final SliceRange range;

    private ReversedSliceCheck(SliceRows rows, SliceRange range) {
        this.rows = rows;
        this.range = range;
    }

    /** A check for a call with {@code predicate}, or null when it is not a reversed slice. */
    static ReversedSliceCheck of(SlicePredicate predicate, SliceRows rows) {
        if (!predicate.isSetSlice_range() || !predicate.getSlice_range().isReversed()) return null;
        return new ReversedSliceCheck(rows, predicate.getSlice_range());
    }

    /**
     * Whether {@code sibylAnswer} differs from 0.6's only by 0.6.5's reversed-slice fault: it is what 0.6 reads
     * forward, and 0.6 reads the range differently reversed than forward.
     */
    boolean explains(Cassandra.Client cassandra06, String sibylAnswer) throws TException {
        LinkedHashMap<String, List<ColumnOrSuperColumn>> forward = rows.read(cassandra06, forward());
        if (!rows.render(turned(forward, range.getCount())).equals(sibylAnswer)) return false;
        String reversedWhole = rows.render(rows.read(cassandra06, reversedWhole()));
        return !reversedWhole.equals(rows.render(turned(forward, ALL)));
    }

    private SlicePredicate forward() {
        return new SlicePredicate().setSlice_range(new SliceRange(copy(range.bufferForFinish()), copy(range.bufferForStart()), false, ALL));
    }

    private SlicePredicate reversedWhole() {
        return new SlicePredicate().setSlice_range(new SliceRange(copy(range.bufferForStart()), copy(range.bufferForFinish()), true, ALL));
    }

    private static ByteBuffer copy(ByteBuffer b) {
        return b == null ? ByteBuffer.allocate(0) : b.duplicate();
    }

    private static LinkedHashMap<String, List<ColumnOrSuperColumn>> turned(Map<String, List<ColumnOrSuperColumn>> rows, int count) {
        LinkedHashMap<String, List<ColumnOrSuperColumn>> out = new LinkedHashMap<>();
        for (Map.Entry<String, List<ColumnOrSuperColumn>> row : rows.entrySet()) {
            List<ColumnOrSuperColumn> cells = new ArrayList<>(row.getValue());
            Collections.reverse(cells);
            out.put(row.getKey(), cells.subList(0, Math.min(count, cells.size())));
        }
        return out;
    }
}
