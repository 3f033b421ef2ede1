package sibyl.cluster;

import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.Row;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import sibyl.db.InvalidQueryException;
import sibyl.db.marshal.CompositeType;

/**
 * How the names of a standard column family whose comparator is a CompositeType or a ReversedType map onto its
 * table's clustering columns, as a 3.x table of that Thrift column family has them after DROP COMPACT STORAGE: a
 * composite name's components are {@code column1}…{@code columnN}, a ReversedType's name is {@code column1} in
 * descending order (docs/configuration.md §Cluster). A composite name the table cannot hold (fewer components than
 * the comparator has, a last end-of-component byte other than 0, a static name, an empty value of a descending
 * component) is refused on write, and a read of one finds nothing, as nothing can have been written there.
 */
final class ClusteringNames {
    private final String columnFamily;
    private final List<ClusteringColumn> columns;
    /** Null for a ReversedType comparator: a name is the one column's value. */
    private final CompositeType composite;
    private final String selected;
    private final String equalities;
    private final String in;

    ClusteringNames(String columnFamily, List<ClusteringColumn> columns, CompositeType composite) {
        this.columnFamily = columnFamily;
        this.columns = List.copyOf(columns);
        this.composite = composite;
        this.selected = columns.stream().map(ClusteringColumn::name).collect(Collectors.joining(", "));
        this.equalities = columns.stream().map(c -> " AND " + c.name() + " = ?").collect(Collectors.joining());
        this.in = columns.size() == 1 ? " AND " + selected + " IN ?" : " AND (" + selected + ") IN ?";
    }

    List<ClusteringColumn> columns() {
        return columns;
    }

    /** Null for a ReversedType comparator. */
    CompositeType composite() {
        return composite;
    }

    /** {@code column1, column2}: the columns a name is read from. */
    String selected() {
        return selected;
    }

    /** {@code AND column1 = ? AND column2 = ?}: one name. */
    String equalities() {
        return equalities;
    }

    /** {@code AND (column1, column2) IN ?}: several names, bound as one list ({@link #inValue}). */
    String in() {
        return in;
    }

    /** The ORDER BY of the comparator's order, or of its opposite. */
    String order(boolean reversed) {
        return columns.stream().map(c -> c.name() + " " + c.order(reversed)).collect(Collectors.joining(", "));
    }

    /**
     * Binds a name's values from index {@code at}; returns the index after them.
     *
     * @throws InvalidQueryException for a composite name the table cannot hold
     */
    int bind(BoundStatementBuilder b, int at, byte[] name) {
        List<byte[]> values = values(name);
        if (values == null) throw new InvalidQueryException(whyNotStored(name));
        for (byte[] v : values) b.setBytesUnsafe(at++, ByteBuffer.wrap(v));
        return at;
    }

    /** The names the table can hold, as one list of tuples (or of values, for one column); null when none is. */
    ByteBuffer inValue(List<byte[]> names) {
        List<byte[]> elements = new ArrayList<>(names.size());
        for (byte[] name : names) {
            List<byte[]> values = values(name);
            if (values != null) elements.add(columns.size() == 1 ? values.get(0) : Values.tuple(values));
        }
        return elements.isEmpty() ? null : Values.list(elements);
    }

    /** Whether the table can hold this name; only such names can have been written. */
    boolean storable(byte[] name) {
        return values(name) != null;
    }

    /** The name of a row whose clustering columns are its first values. */
    byte[] name(Row row) {
        if (composite == null) return Values.array(row.getBytesUnsafe(0));
        List<byte[]> values = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) values.add(Values.array(row.getBytesUnsafe(i)));
        return CompositeType.name(values);
    }

    /** The clustering values of a name, or null when the table cannot hold it. */
    private List<byte[]> values(byte[] name) {
        if (composite == null) return List.of(name);
        CompositeType.Components c = composite.components(name);
        if (c.isStatic() || c.endOfComponent() != 0 || c.values().size() != columns.size()) return null;
        return emptyDescending(c.values()) < 0 ? c.values() : null;
    }

    /**
     * The first component of these values that is empty in a descending column, or -1: the comparator puts an empty
     * value first, the cluster's descending order last, so the table holds none.
     */
    private int emptyDescending(List<byte[]> values) {
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i).length == 0 && columns.get(i).descending()) return i;
        }
        return -1;
    }

    private String whyNotStored(byte[] name) {
        CompositeType.Components c = composite.components(name);
        String where = "in cluster mode, column family " + columnFamily + " stores a " + composite.className()
                + " name as its " + columns.size() + " clustering columns (" + selected + "), so ";
        if (c.isStatic()) return where + "a static name (one that begins with 0xFFFF) has no place in it";
        if (c.endOfComponent() != 0) {
            return where + "a column's name ends with an end-of-component byte of 0, not " + c.endOfComponent()
                    + " (that marks a slice bound)";
        }
        if (c.values().size() != columns.size()) {
            return where + "a column's name has all " + columns.size() + " components, not " + c.values().size()
                    + " (docs/differences.md §The 0.7+ dialect)";
        }
        int empty = emptyDescending(c.values());
        return where + "component " + (empty + 1) + " of a name, a ReversedType one, is not empty: the comparator"
                + " orders an empty value first and the cluster's descending " + columns.get(empty).name()
                + " last (docs/differences.md §The 0.7+ dialect)";
    }
}
