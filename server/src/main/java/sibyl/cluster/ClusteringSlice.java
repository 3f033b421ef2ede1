package sibyl.cluster;

import java.util.ArrayList;
import java.util.List;
import sibyl.db.InvalidQueryException;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.CompositeType;

/**
 * The CQL restriction that selects the names between two slice bounds of a {@link ClusteringNames} table, in its
 * comparator's order. A composite bound is a prefix of the components with an end-of-component byte: a start
 * selects from the prefix on (its byte -1 or 0) or from after everything under it (1); a finish selects up to
 * everything under the prefix (1), up to before it (-1), and, with 0, up to the prefix itself only (a name of all
 * the components, or nothing under a shorter prefix): the comparator's order (docs/semantics.md §Composite names).
 *
 * <p>The cluster compares a tuple of clustering columns ({@code (column1, column2) >= (?, ?)}) by the values' own
 * order whatever the columns' declared order, so a bound becomes one tuple restriction when the columns it ranges
 * over, after the components both bounds share, are all ascending (the same relation) or all descending (the
 * opposite one). Bounds that range over columns of both orders have no such restriction and are refused
 * (docs/differences.md §The 0.7+ dialect).
 */
record ClusteringSlice(String cql, List<byte[]> values) {
    /**
     * @param lower the bound first in the comparator's order, null when open
     * @param upper the bound last in the comparator's order, null when open
     * @throws InvalidQueryException for bounds no CQL restriction selects, or a static name as a bound
     */
    static ClusteringSlice of(ClusteringNames names, byte[] lower, byte[] upper) {
        List<ClusteringColumn> columns = names.columns();
        Bound low = lower == null ? null : bound(names, lower, true);
        Bound high = upper == null ? null : bound(names, upper, false);
        int shared = shared(names.composite(), low, high);
        boolean descending = false;
        int mixedAt = -1;
        boolean seen = false;
        int end = Math.max(low == null ? 0 : low.values().size(), high == null ? 0 : high.values().size());
        for (int i = shared; i < end; i++) {
            boolean d = columns.get(i).descending();
            if (seen && d != descending) mixedAt = i;
            descending = d;
            seen = true;
        }
        if (mixedAt >= 0) {
            throw new InvalidQueryException("in cluster mode, this slice of column family " + names.columnFamily()
                    + " cannot be served: its bounds range over components " + (shared + 1) + " to " + end
                    + " (" + describe(columns, shared, end) + "), which mix ascending and descending order, and the"
                    + " cluster compares a tuple of clustering columns by its values' own order, so no CQL"
                    + " restriction selects that range; bounds whose components differ only where the order is"
                    + " one way are served (docs/differences.md §The 0.7+ dialect)");
        }
        StringBuilder cql = new StringBuilder();
        List<byte[]> values = new ArrayList<>();
        if (low != null) relation(cql, values, names, low, descending ? "<" : ">");
        if (high != null) relation(cql, values, names, high, descending ? ">" : "<");
        return new ClusteringSlice(cql.toString(), values);
    }

    /** A bound's components, and whether the names equal to them in the columns it restricts are selected. */
    private record Bound(List<byte[]> values, boolean inclusive) {
    }

    private static Bound bound(ClusteringNames names, byte[] name, boolean lower) {
        CompositeType composite = names.composite();
        if (composite == null) return new Bound(List.of(name), true);
        CompositeType.Components c = composite.components(name);
        if (c.isStatic()) {
            throw new InvalidQueryException("in cluster mode, column family " + names.columnFamily() + " holds no"
                    + " static name (one that begins with 0xFFFF), so one cannot bound a slice");
        }
        int empty = names.emptyDescending(c.values());
        if (empty >= 0) {
            throw new InvalidQueryException("in cluster mode, component " + (empty + 1) + " of a slice bound of"
                    + " column family " + names.columnFamily() + ", a ReversedType one, cannot be empty: the"
                    + " comparator orders an empty value first and the cluster's descending "
                    + names.columns().get(empty).name() + " last (docs/differences.md §The 0.7+ dialect)");
        }
        int eoc = c.endOfComponent();
        boolean inclusive = lower ? eoc <= 0 : eoc > 0 || (eoc == 0 && c.values().size() == names.columns().size());
        return new Bound(c.values(), inclusive);
    }

    /** How many leading components both bounds have equal: the columns the range holds to one value. */
    private static int shared(CompositeType composite, Bound low, Bound high) {
        if (low == null || high == null || composite == null) return 0;
        int n = Math.min(low.values().size(), high.values().size());
        int i = 0;
        while (i < n) {
            AbstractType type = composite.types().get(i);
            if (type.compare(low.values().get(i), high.values().get(i)) != 0) break;
            i++;
        }
        return i;
    }

    /** {@code AND (column1, column2) >= (?, ?)}, or {@code AND column1 >= ?} for a name of one column. */
    private static void relation(StringBuilder cql, List<byte[]> values, ClusteringNames names, Bound bound,
                                 String operator) {
        String op = bound.inclusive() ? operator + "=" : operator;
        int n = bound.values().size();
        if (names.composite() == null) {
            cql.append(" AND ").append(names.columns().get(0).name()).append(' ').append(op).append(" ?");
        } else {
            StringBuilder left = new StringBuilder();
            StringBuilder right = new StringBuilder();
            for (int i = 0; i < n; i++) {
                left.append(i == 0 ? "" : ", ").append(names.columns().get(i).name());
                right.append(i == 0 ? "?" : ", ?");
            }
            cql.append(" AND (").append(left).append(") ").append(op).append(" (").append(right).append(')');
        }
        values.addAll(bound.values());
    }

    private static String describe(List<ClusteringColumn> columns, int from, int to) {
        StringBuilder s = new StringBuilder();
        for (int i = from; i < to; i++) {
            ClusteringColumn c = columns.get(i);
            s.append(i == from ? "" : ", ").append(c.definition()).append(' ').append(c.order(false));
        }
        return s.toString();
    }
}
