package sibyl.cql;

import java.util.List;

/**
 * A parsed statement of the subset the embedded engine serves (docs/thrift-api-0.7.md §CQL): a SELECT, INSERT,
 * UPDATE or DELETE of one column family's compact-storage view. Names are as CQL folds them.
 */
sealed interface Statement {
    Table table();

    /** How many bind markers the statement has. */
    int markers();

    /** A table: {@code keyspace} null when the statement does not name one. */
    record Table(String keyspace, String name) {
    }

    enum Operator {
        EQ("="), LT("<"), LTE("<="), GT(">"), GTE(">="), IN("IN");

        final String symbol;

        Operator(String symbol) {
            this.symbol = symbol;
        }
    }

    /** {@code column op term}, or {@code column IN (terms)}. */
    record Relation(String column, Operator operator, List<Term> terms) {
        public Relation {
            terms = List.copyOf(terms);
        }
    }

    /** USING TTL and TIMESTAMP; either null when not given. */
    record Using(Term ttl, Term timestamp) {
        static final Using NONE = new Using(null, null);
    }

    /** What a SELECT names: a column, or the WRITETIME or TTL of one; {@code alias} null unless AS gives one. */
    record Selector(Function function, String column, String alias) {
        enum Function { NONE, WRITETIME, TTL }

        /** The column's name in the answer, as 3.11 names it. */
        String shownName() {
            if (alias != null) return alias;
            return switch (function) {
                case NONE -> column;
                case WRITETIME -> "writetime(" + column + ")";
                case TTL -> "ttl(" + column + ")";
            };
        }
    }

    /**
     * @param selectors null for {@code *}
     * @param count     whether it is {@code SELECT COUNT(*)} (or {@code COUNT(1)})
     * @param countName the answer's name for the count (its alias, or {@code count})
     * @param limit     null for no LIMIT
     * @param orderBy    the columns ORDER BY names; empty without ORDER BY
     * @param descending whether ORDER BY asks for them descending
     */
    record Select(Table table, List<Selector> selectors, boolean count, String countName, List<Relation> where,
                  List<String> orderBy, boolean descending, Term limit, int markers) implements Statement {
        public Select {
            selectors = selectors == null ? null : List.copyOf(selectors);
            where = List.copyOf(where);
            orderBy = List.copyOf(orderBy);
        }
    }

    record Insert(Table table, List<String> columns, List<Term> values, Using using, int markers) implements Statement {
        public Insert {
            columns = List.copyOf(columns);
            values = List.copyOf(values);
        }
    }

    /**
     * @param increment whether the SET adds to the column ({@code value = value + n}, or with {@code -}, {@code negate});
     *                  {@code value} is then n
     */
    record Update(Table table, Using using, String column, Term value, boolean increment, boolean negate,
                  List<Relation> where, int markers) implements Statement {
        public Update {
            where = List.copyOf(where);
        }
    }

    /** @param columns the columns named between DELETE and FROM; empty for the whole row or cell */
    record Delete(Table table, List<String> columns, Using using, List<Relation> where, int markers)
            implements Statement {
        public Delete {
            columns = List.copyOf(columns);
            where = List.copyOf(where);
        }
    }
}
