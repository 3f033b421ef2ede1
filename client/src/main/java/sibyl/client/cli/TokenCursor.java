package sibyl.client.cli;

import java.util.List;
import sibyl.client.cli.Tokenizer.Kind;
import sibyl.client.cli.Tokenizer.Token;

/** Reads a statement's tokens in order, failing with a message that says what was expected where. */
final class TokenCursor {

    private final List<Token> tokens;
    private int pos;

    TokenCursor(List<Token> tokens) {
        this.tokens = tokens;
    }

    boolean atEnd() {
        return pos >= tokens.size();
    }

    /** The next token without taking it, or null at the end. */
    Token peek() {
        return atEnd() ? null : tokens.get(pos);
    }

    /** Takes the next token if it is {@code symbol}. */
    boolean take(String symbol) {
        if (!atEnd() && tokens.get(pos).is(symbol)) {
            pos++;
            return true;
        }
        return false;
    }

    /** Takes the next token if it is the keyword {@code word}. */
    boolean takeWord(String word) {
        if (!atEnd() && tokens.get(pos).isWord(word)) {
            pos++;
            return true;
        }
        return false;
    }

    Token next(String expected) {
        if (atEnd()) {
            throw new CliError("incomplete statement: expected " + expected);
        }
        return tokens.get(pos++);
    }

    /** Skips what is left (for statements that ignore their arguments). */
    void skipRest() {
        pos = tokens.size();
    }

    void expectWord(String word, String form) {
        Token t = next("'" + word + "' (" + form + ")");
        if (!t.isWord(word)) {
            throw new CliError("expected '" + word + "' at column " + t.column() + " (" + form + "), found "
                    + t.display());
        }
    }

    void expectSymbol(String symbol) {
        Token t = next("'" + symbol + "'");
        if (!t.is(symbol)) {
            throw new CliError("expected '" + symbol + "' at column " + t.column() + ", found " + t.display());
        }
    }

    /** A name (keyspace, column family...): a word or a quoted string. */
    String name(String what) {
        Token t = next(what);
        if (t.kind() == Kind.SYMBOL) {
            throw new CliError("expected " + what + " at column " + t.column() + ", found " + t.display());
        }
        return t.text();
    }

    /** A literal: quoted text or a bare word. */
    Literal literal(String what) {
        Token t = next(what);
        return switch (t.kind()) {
            case STRING -> new Literal(t.text(), true);
            case WORD -> new Literal(t.text(), false);
            case SYMBOL -> throw new CliError("expected " + what + " at column " + t.column() + ", found "
                    + t.display());
        };
    }

    /** Fails if a token is left after a whole statement. */
    void expectEnd(String command) {
        if (!atEnd()) {
            Token extra = tokens.get(pos);
            throw new CliError("unexpected " + extra.display() + " at column " + extra.column()
                    + " after the end of the " + command + " statement");
        }
    }
}
