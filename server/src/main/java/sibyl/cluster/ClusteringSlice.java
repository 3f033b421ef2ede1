package sibyl.cluster;

import java.util.ArrayList;
import java.util.List;
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
 * order whatever the columns' declared order, so a bound is one tuple restriction when the columns it ranges over,
 * after the components both bounds share, are all ascending (the same relation) or all descending (the opposite
 * one). Where they are of both orders, or a bound holds an empty value of a descending column (first in the
 * comparator's order, last in the cluster's), the bounds are cut before that column, widening the range, and the
 * rows read are {@link #filtered} by the comparator: the extra rows are those of the cut bounds' prefixes.
 *
 * @param cql      the restrictions, each beginning with {@code AND}; empty for none
 * @param values   their values, in order
 * @param filtered whether the rows selected must still be checked against the bounds
 */
record ClusteringSlice(String cql, List<byte[]> values, boolean filtered) {
    /**
     * @param lower the bound first in the comparator's order, null when open
     * @param upper the bound last in the comparator's order, null when open
     */
    static ClusteringSlice of(ClusteringNames names, byte[] lower, byte[] upper) {
        List<ClusteringColumn> columns = names.columns();
        Bound low = lower == null ? null : bound(names, lower, true);
        Bound high = upper == null ? null : bound(names, upper, false);
        int shared = shared(names.composite(), low, high);
        int end = Math.max(low == null ? 0 : low.values().size(), high == null ? 0 : high.values().size());
        boolean descending = shared < end && columns.get(shared).descending();
        int cut = shared;
        while (cut < end && columns.get(cut).descending() == descending && !emptyAt(low, cut, descending)
                && !emptyAt(high, cut, descending)) {
            cut++;
        }
        // a static name sorts before every other: the comparator alone places a bound of one
        boolean anyStatic = (low != null && low.isStatic()) || (high != null && high.isStatic());
        if (anyStatic) cut = 0;
        boolean filtered = anyStatic || cut < end;
        StringBuilder cql = new StringBuilder();
        List<byte[]> values = new ArrayList<>();
        if (low != null) relation(cql, values, names, low.cut(cut), descending ? "<" : ">");
        if (high != null) relation(cql, values, names, high.cut(cut), descending ? ">" : "<");
        return new ClusteringSlice(cql.toString(), values, filtered);
    }

    /** A bound's components, and whether the names equal to them in the columns it restricts are selected. */
    private record Bound(List<byte[]> values, boolean inclusive, boolean isStatic) {
        /** The bound on its first {@code n} components, inclusive when cut: a wider range. */
        Bound cut(int n) {
            return n >= values.size() ? this : new Bound(values.subList(0, n), true, isStatic);
        }
    }

    private static Bound bound(ClusteringNames names, byte[] name, boolean lower) {
        CompositeType composite = names.composite();
        if (composite == null) return new Bound(List.of(name), true, false);
        CompositeType.Components c = composite.components(name);
        int eoc = c.endOfComponent();
        boolean inclusive = lower ? eoc <= 0 : eoc > 0 || (eoc == 0 && c.values().size() == names.columns().size());
        return new Bound(c.values(), inclusive, c.isStatic());
    }

    /** Whether the bound holds an empty value at component {@code i} of a descending column. */
    private static boolean emptyAt(Bound bound, int i, boolean descending) {
        return descending && bound != null && i < bound.values().size() && bound.values().get(i).length == 0;
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
        int n = bound.values().size();
        if (n == 0) return; // cut to nothing: no restriction
        String op = bound.inclusive() ? operator + "=" : operator;
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
}
