package sibyl.cql;

/** A value in a statement: a literal as written, or a bind marker, numbered from 0 in the statement's order. */
sealed interface Term {
    /** A literal: its kind (a {@link Token.Kind} of a constant, or null for {@code null}) and its text. */
    record Literal(Token.Kind kind, String text) implements Term {
        static final Literal NULL = new Literal(null, "null");

        boolean isBoolean() {
            return kind == Token.Kind.IDENTIFIER;
        }
    }

    /** {@code ?} or {@code :name}; {@code name} is null for {@code ?}. */
    record Marker(int index, String name) implements Term {
    }
}
