package sibyl.cql;

/**
 * One token of a CQL statement: its kind, its text (an identifier folded to lower case unless quoted, a string's or
 * quoted name's content unescaped), its text as written, and where it began, as the line and the character within it
 * that CQL's error messages name ({@code line 1:7}).
 */
record Token(Kind kind, String text, String written, int line, int column) {
    enum Kind { IDENTIFIER, QUOTED_NAME, STRING, INTEGER, FLOAT, HEX, UUID, MARKER, NAMED_MARKER, SYMBOL, END }

    boolean is(String keywordOrSymbol) {
        return (kind == Kind.IDENTIFIER || kind == Kind.SYMBOL) && text.equalsIgnoreCase(keywordOrSymbol);
    }

    /** Where the token is, as 3.11's parse errors say it (for the end of the statement, {@code line 0:-1}). */
    String where() {
        return kind == Kind.END ? "line 0:-1" : "line " + line + ":" + column;
    }

    /** The token as the statement spelled it, near enough to quote in an error. */
    String shown() {
        return kind == Kind.END ? "<EOF>" : written;
    }
}
