package sibyl.client;

import java.util.ArrayList;
import java.util.List;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;

/**
 * Builders for SlicePredicate. They always set every SliceRange field: 0.6 servers refuse a range
 * whose {@code reversed} or {@code count} is missing, whatever the IDL's defaults say.
 */
public final class Predicates {

    private static final byte[] EMPTY = new byte[0];

    private Predicates() {
    }

    /** The first {@code count} columns of a row. */
    public static SlicePredicate first(int count) {
        return range(EMPTY, EMPTY, false, count);
    }

    /** Columns from {@code start} to {@code finish}, both inclusive; null or empty means open. */
    public static SlicePredicate range(byte[] start, byte[] finish, boolean reversed, int count) {
        SliceRange range = new SliceRange(Bytes.wrap(start == null ? EMPTY : start),
                Bytes.wrap(finish == null ? EMPTY : finish), reversed, count);
        return new SlicePredicate().setSlice_range(range);
    }

    public static SlicePredicate names(List<byte[]> names) {
        List<java.nio.ByteBuffer> buffers = new ArrayList<>(names.size());
        for (byte[] n : names) {
            buffers.add(Bytes.wrap(n));
        }
        return new SlicePredicate().setColumn_names(buffers);
    }

    public static SlicePredicate names(byte[]... names) {
        return names(List.of(names));
    }
}
