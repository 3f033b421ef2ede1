package sibyl.db;

import java.util.List;
import java.util.Objects;
import sibyl.db.marshal.AbstractType;

/**
 * What a row must hold to be selected by get_indexed_slices or get_range_slices' row_filter
 * (docs/thrift-api-0.7.md §Secondary indexes): every expression holds of it. Immutable.
 *
 * @param expressions at least one; a row without a live column an expression names does not match
 */
public record IndexQuery(List<Expression> expressions) {
    public IndexQuery {
        expressions = List.copyOf(expressions);
        if (expressions.isEmpty()) throw new IllegalArgumentException("an index query needs an expression");
    }

    /** How a column's value compares with an expression's, in the order of the column's validation class. */
    public enum Operator {
        EQ, GTE, GT, LTE, LT;

        boolean holds(int comparison) {
            return switch (this) {
                case EQ -> comparison == 0;
                case GTE -> comparison >= 0;
                case GT -> comparison > 0;
                case LTE -> comparison <= 0;
                case LT -> comparison < 0;
            };
        }
    }

    /** One condition: the live column {@code column} has a value {@code op} {@code value}. */
    public record Expression(byte[] column, Operator op, byte[] value) {
        public Expression {
            Objects.requireNonNull(column, "column");
            Objects.requireNonNull(op, "op");
            Objects.requireNonNull(value, "value");
        }

        /** Whether {@code stored}, the column's live value (null: none), satisfies this expression under {@code type}. */
        public boolean holds(byte[] stored, AbstractType type) {
            return stored != null && op.holds(type.compare(stored, value));
        }
    }
}
