package sibyl.cql;

import java.util.ArrayList;
import java.util.List;
import sibyl.db.InvalidQueryException;
import sibyl.db.marshal.Int32Type;

/**
 * The WHERE clause of a statement on a {@link CompactView}, checked as 3.11 checks it: the partition key by = or IN;
 * the clustering columns by = on a prefix and, on the column after it, at most one lower and one upper bound.
 *
 * @param keys   the key's values (one for =), or null when the key is not restricted
 * @param prefix the values of the clustering columns restricted by =, in order
 * @param lower  the lower bound on the column after the prefix, or null
 * @param upper  its upper bound, or null
 * @param in     the values of {@code column1 IN (...)} (a simple comparator's only clustering column), or null
 */
record Where(List<Term> keys, List<Term> prefix, Bound lower, Bound upper, List<Term> in) {
    static final String FILTERING = "Cannot execute this query as it might involve data filtering and thus may have"
            + " unpredictable performance. If you want to execute this query despite the performance unpredictability,"
            + " use ALLOW FILTERING";

    record Bound(Term term, boolean inclusive) {
    }

    boolean restrictsClustering() {
        return !prefix.isEmpty() || lower != null || upper != null || in != null;
    }

    /**
     * @param modification the kind of statement (UPDATE, DELETE), or null for a SELECT, which 3.11 refuses other
     *                     restrictions for as filtering
     */
    static Where of(CompactView view, List<Statement.Relation> relations, Specs specs, String modification) {
        boolean reading = modification == null;
        int n = view.clusteringCount();
        List<Term> keys = null;
        Term[] eq = new Term[n];
        Bound[] lower = new Bound[n];
        Bound[] upper = new Bound[n];
        List<Term> in = null;
        for (Statement.Relation r : relations) {
            int at = view.position(r.column());
            String name = view.name(at);
            if (at == n) {
                if (reading) throw new InvalidQueryException(FILTERING);
                throw new InvalidQueryException("Non PRIMARY KEY columns found in where clause: " + name + " ");
            }
            for (Term t : r.terms()) specs.note(t, name, true, view.type(at));
            if (at < 0) {
                if (keys != null) throw moreThanOne(name);
                if (r.operator() == Statement.Operator.EQ) {
                    keys = r.terms();
                } else if (r.operator() == Statement.Operator.IN) {
                    keys = r.terms();
                } else if (reading) {
                    throw new InvalidQueryException(FILTERING);
                } else {
                    throw new InvalidQueryException("Only EQ and IN relation are supported on the partition key"
                            + " (unless you use the token() function) for " + modification + " statements");
                }
                continue;
            }
            switch (r.operator()) {
                case EQ -> {
                    if (eq[at] != null || lower[at] != null || upper[at] != null || in != null) throw moreThanOne(name);
                    eq[at] = r.terms().get(0);
                }
                case IN -> {
                    if (view.composite()) throw Parser.notServed("IN on a clustering column of a CompositeType comparator");
                    if (eq[at] != null || lower[at] != null || upper[at] != null || in != null) throw moreThanOne(name);
                    in = r.terms();
                }
                case GT, GTE -> {
                    if (eq[at] != null || in != null) throw moreThanOne(name);
                    if (lower[at] != null) {
                        throw new InvalidQueryException("More than one restriction was found for the start bound on " + name);
                    }
                    lower[at] = new Bound(r.terms().get(0), r.operator() == Statement.Operator.GTE);
                }
                case LT, LTE -> {
                    if (eq[at] != null || in != null) throw moreThanOne(name);
                    if (upper[at] != null) {
                        throw new InvalidQueryException("More than one restriction was found for the end bound on " + name);
                    }
                    upper[at] = new Bound(r.terms().get(0), r.operator() == Statement.Operator.LTE);
                }
            }
        }
        List<Term> prefix = new ArrayList<>();
        int sliced = -1;
        for (int i = 0; i < n; i++) {
            boolean restricted = eq[i] != null || lower[i] != null || upper[i] != null;
            if (!restricted) continue;
            if (i > 0 && eq[i - 1] == null && lower[i - 1] == null && upper[i - 1] == null) {
                throw new InvalidQueryException("PRIMARY KEY column \"" + CompactView.clusteringName(i) + "\" cannot be"
                        + " restricted as preceding column \"" + CompactView.clusteringName(i - 1) + "\" is not restricted");
            }
            if (sliced >= 0) {
                throw new InvalidQueryException("Clustering column \"" + CompactView.clusteringName(i) + "\" cannot be"
                        + " restricted (preceding column \"" + CompactView.clusteringName(sliced)
                        + "\" is restricted by a non-EQ relation)");
            }
            if (eq[i] != null) prefix.add(eq[i]);
            else sliced = i;
        }
        Where where = new Where(keys, prefix, sliced >= 0 ? lower[sliced] : null, sliced >= 0 ? upper[sliced] : null, in);
        if (reading && keys == null && where.restrictsClustering()) throw new InvalidQueryException(FILTERING);
        return where;
    }

    private static InvalidQueryException moreThanOne(String name) {
        return new InvalidQueryException(name + " cannot be restricted by more than one relation if it includes an Equal");
    }

    /** Notes the type of a LIMIT's marker. */
    static void noteLimit(Term limit, Specs specs) {
        if (limit != null) specs.note(limit, "[limit]", false, Int32Type.instance);
    }
}
