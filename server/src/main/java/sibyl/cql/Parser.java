package sibyl.cql;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import sibyl.db.InvalidQueryException;

/**
 * Parses one statement of the subset the embedded engine serves (docs/thrift-api-0.7.md §CQL). A statement of a
 * kind it does not serve is refused naming that kind; one that is not CQL, with its place ({@code line 1:N}) and what
 * was found there, as 3.11's parse errors read. Every failure is an {@link InvalidQueryException}.
 */
final class Parser {
    /** First words of CQL statements that are CQL but not served here. */
    private static final Set<String> OTHER_STATEMENTS = Set.of("create", "alter", "drop", "truncate", "grant",
            "revoke", "list", "use", "begin", "apply");
    static final String WHERE_DOCUMENTED = " (docs/thrift-api-0.7.md, \"CQL\")";

    private final List<Token> tokens;
    private int at;
    private int markers;

    private Parser(List<Token> tokens) {
        this.tokens = tokens;
    }

    static Statement parse(String statement) {
        Parser p = new Parser(Lexer.tokens(statement));
        Statement s = p.statement();
        if (p.peek().is(";")) p.at++;
        if (p.peek().kind() != Token.Kind.END) throw p.unexpected(p.peek());
        return s;
    }

    /** Refuses a statement, clause or term CQL has but the embedded engine does not serve. */
    static InvalidQueryException notServed(String what) {
        return new InvalidQueryException(what + " is not served by Sibyl's embedded engine, which serves SELECT,"
                + " INSERT, UPDATE, DELETE and USE on a column family's compact-storage view" + WHERE_DOCUMENTED);
    }

    private Statement statement() {
        Token first = peek();
        if (first.is("select")) return select();
        if (first.is("insert")) return insert();
        if (first.is("update")) return update();
        if (first.is("delete")) return delete();
        if (first.kind() == Token.Kind.IDENTIFIER && OTHER_STATEMENTS.contains(first.text())) {
            throw notServed(first.text().equals("begin") || first.text().equals("apply") ? "BATCH"
                    : first.text().toUpperCase(java.util.Locale.ROOT));
        }
        throw new InvalidQueryException(first.where() + " no viable alternative at input '" + first.shown() + "'");
    }

    private Statement.Select select() {
        expect("select");
        if (peek().is("json") || peek().is("distinct")) {
            if (peekAt(1).kind() != Token.Kind.SYMBOL || peekAt(1).is("*")) {
                throw notServed("SELECT " + next().text().toUpperCase(java.util.Locale.ROOT));
            }
        }
        List<Statement.Selector> selectors = null;
        boolean count = false;
        String countName = "count";
        if (accept("*")) {
            // every column
        } else {
            selectors = new ArrayList<>();
            do {
                if (peek().is("count") && peekAt(1).is("(")) {
                    at += 2;
                    Token arg = next();
                    if (!arg.is("*") && !(arg.kind() == Token.Kind.INTEGER && arg.text().equals("1"))) {
                        throw notServed("COUNT of a column");
                    }
                    expect(")");
                    count = true;
                    if (accept("as")) countName = name();
                    continue;
                }
                selectors.add(selector());
            } while (accept(","));
            if (count && !selectors.isEmpty()) {
                throw notServed("COUNT(*) beside other selectors");
            }
            if (count) selectors = null;
        }
        expect("from");
        Statement.Table table = table();
        List<Statement.Relation> where = accept("where") ? relations() : List.of();
        List<String> orderBy = new ArrayList<>();
        Boolean descending = null;
        if (accept("order")) {
            expect("by");
            do {
                orderBy.add(name());
                boolean desc = false;
                if (accept("desc")) desc = true;
                else accept("asc");
                if (descending != null && descending != desc) throw new InvalidQueryException("Unsupported order by relation");
                descending = desc;
            } while (accept(","));
        }
        if (peek().is("per")) throw notServed("PER PARTITION LIMIT");
        Term limit = accept("limit") ? term() : null;
        if (peek().is("allow")) throw notServed("ALLOW FILTERING");
        return new Statement.Select(table, selectors, count, countName, where, orderBy, Boolean.TRUE.equals(descending),
                limit, markers);
    }

    private Statement.Selector selector() {
        Token t = peek();
        if ((t.is("writetime") || t.is("ttl")) && peekAt(1).is("(")) {
            at += 2;
            String column = name();
            expect(")");
            return new Statement.Selector(t.is("ttl") ? Statement.Selector.Function.TTL
                    : Statement.Selector.Function.WRITETIME, column, alias());
        }
        if (peekAt(1).is("(") || peekAt(1).is(".")) throw notServed("a function in a selection");
        String column = name();
        return new Statement.Selector(Statement.Selector.Function.NONE, column, alias());
    }

    private String alias() {
        return accept("as") ? name() : null;
    }

    private Statement.Insert insert() {
        expect("insert");
        expect("into");
        Statement.Table table = table();
        if (peek().is("json")) throw notServed("INSERT JSON");
        expect("(");
        List<String> columns = new ArrayList<>();
        do columns.add(name()); while (accept(","));
        expect(")");
        expect("values");
        expect("(");
        List<Term> values = new ArrayList<>();
        do values.add(term()); while (accept(","));
        expect(")");
        if (peek().is("if")) throw notServed("a conditional statement (IF)");
        Statement.Using using = using();
        if (peek().is("if")) throw notServed("a conditional statement (IF)");
        return new Statement.Insert(table, columns, values, using, markers);
    }

    private Statement.Update update() {
        expect("update");
        Statement.Table table = table();
        Statement.Using using = using();
        expect("set");
        String column = name();
        if (peek().is("[") || peek().is(".")) throw notServed("an UPDATE of part of a column");
        expect("=");
        boolean increment = false;
        boolean negate = false;
        if ((peek().kind() == Token.Kind.IDENTIFIER || peek().kind() == Token.Kind.QUOTED_NAME)
                && (peekAt(1).is("+") || peekAt(1).is("-"))) {
            String added = name();
            if (!added.equals(column)) throw notServed("an UPDATE that sets a column from another");
            increment = true;
            negate = next().is("-");
        }
        Term value = term();
        if (peek().is("+") || peek().is("-")) throw notServed("an UPDATE that adds to a value (n + column)");
        if (peek().is(",")) throw notServed("an UPDATE of more than one column");
        expect("where");
        List<Statement.Relation> where = relations();
        if (peek().is("if")) throw notServed("a conditional statement (IF)");
        return new Statement.Update(table, using, column, value, increment, negate, where, markers);
    }

    private Statement.Delete delete() {
        expect("delete");
        List<String> columns = new ArrayList<>();
        if (!peek().is("from")) {
            do {
                columns.add(name());
                if (peek().is("[") || peek().is(".")) throw notServed("a DELETE of part of a column");
            } while (accept(","));
        }
        expect("from");
        Statement.Table table = table();
        Statement.Using using = using();
        expect("where");
        List<Statement.Relation> where = relations();
        if (peek().is("if")) throw notServed("a conditional statement (IF)");
        return new Statement.Delete(table, columns, using, where, markers);
    }

    private Statement.Using using() {
        if (!accept("using")) return Statement.Using.NONE;
        Term ttl = null;
        Term timestamp = null;
        do {
            if (accept("ttl")) ttl = term();
            else if (accept("timestamp")) timestamp = term();
            else throw unexpected(peek());
        } while (accept("and"));
        return new Statement.Using(ttl, timestamp);
    }

    private List<Statement.Relation> relations() {
        List<Statement.Relation> relations = new ArrayList<>();
        do relations.add(relation()); while (accept("and"));
        return relations;
    }

    private Statement.Relation relation() {
        if (peek().is("(")) throw notServed("a multi-column relation");
        if (peek().is("token") && peekAt(1).is("(")) throw notServed("token()");
        String column = name();
        Token op = next();
        if (op.is("in")) {
            if (!peek().is("(")) throw notServed("IN with one marker for all its values");
            expect("(");
            List<Term> terms = new ArrayList<>();
            if (!peek().is(")")) {
                do terms.add(term()); while (accept(","));
            }
            expect(")");
            return new Statement.Relation(column, Statement.Operator.IN, terms);
        }
        for (Statement.Operator o : Statement.Operator.values()) {
            if (o != Statement.Operator.IN && op.kind() == Token.Kind.SYMBOL && op.text().equals(o.symbol)) {
                return new Statement.Relation(column, o, List.of(term()));
            }
        }
        if (op.is("contains") || op.is("like") || op.is("!=") || op.is("is")) {
            throw notServed("the operator " + op.text().toUpperCase(java.util.Locale.ROOT));
        }
        throw unexpected(op);
    }

    private Term term() {
        Token t = next();
        switch (t.kind()) {
            case STRING, INTEGER, FLOAT, HEX, UUID:
                return new Term.Literal(t.kind(), t.text());
            case MARKER:
                return new Term.Marker(markers++, null);
            case NAMED_MARKER:
                return new Term.Marker(markers++, t.text());
            case IDENTIFIER:
                if (peek().is("(")) throw notServed("a function call (" + t.text() + ")");
                if (t.text().equals("true") || t.text().equals("false")) return new Term.Literal(t.kind(), t.text());
                if (t.text().equals("null")) return Term.Literal.NULL;
                throw unexpected(t);
            case SYMBOL:
                if (t.is("[") || t.is("{") || t.is("(")) throw notServed("a collection or tuple literal");
                throw unexpected(t);
            default:
                throw unexpected(t);
        }
    }

    private Statement.Table table() {
        String first = name();
        if (accept(".")) return new Statement.Table(first, name());
        return new Statement.Table(null, first);
    }

    private String name() {
        Token t = next();
        if (t.kind() == Token.Kind.IDENTIFIER || t.kind() == Token.Kind.QUOTED_NAME) return t.text();
        throw unexpected(t);
    }

    private Token peek() {
        return tokens.get(at);
    }

    private Token peekAt(int ahead) {
        return tokens.get(Math.min(at + ahead, tokens.size() - 1));
    }

    private Token next() {
        Token t = tokens.get(at);
        if (t.kind() != Token.Kind.END) at++;
        return t;
    }

    private boolean accept(String keywordOrSymbol) {
        if (!peek().is(keywordOrSymbol)) return false;
        at++;
        return true;
    }

    private void expect(String keywordOrSymbol) {
        Token t = peek();
        if (!t.is(keywordOrSymbol)) {
            throw new InvalidQueryException(t.where() + " mismatched input '" + t.shown() + "' expecting "
                    + keywordOrSymbol.toUpperCase(java.util.Locale.ROOT));
        }
        at++;
    }

    private InvalidQueryException unexpected(Token t) {
        return new InvalidQueryException(t.where() + " no viable alternative at input '" + t.shown() + "'");
    }
}
