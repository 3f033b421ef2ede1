package sibyl.cql;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import sibyl.db.InvalidQueryException;

/**
 * Cuts a CQL statement into {@link Token}s: names (unquoted ones folded to lower case), 'strings' and $$strings$$,
 * integers, floats, 0x blobs, UUIDs, bind markers ({@code ?}, {@code :name}) and symbols; comments ({@code --},
 * {@code //}, block comments) and white space are skipped. A character CQL has no token for is refused as 3.11
 * refuses it, naming its line and place.
 */
final class Lexer {
    private static final Pattern UUID = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![0-9a-zA-Z_])");
    private static final Pattern NUMBER = Pattern.compile(
            "-?(?:[0-9]+(\\.[0-9]*)?([eE][+-]?[0-9]+)?)(?![a-zA-Z_])|-?(?:NaN|Infinity)(?![0-9a-zA-Z_])");
    private static final Pattern HEX = Pattern.compile("0[xX]([0-9a-fA-F]*)(?![0-9a-zA-Z_])");
    private static final Pattern NAME = Pattern.compile("[a-zA-Z][a-zA-Z0-9_]*");
    private static final String TWO_CHAR_SYMBOLS = "<=>=!=";
    private static final String SYMBOLS = "(),;.*=<>[]{}+-:";

    private final String text;
    private int at;
    private int line = 1;
    private int lineStart;

    private Lexer(String text) {
        this.text = text;
    }

    static List<Token> tokens(String statement) {
        return new Lexer(statement).all();
    }

    private List<Token> all() {
        List<Token> tokens = new ArrayList<>();
        while (true) {
            skipSpaceAndComments();
            if (at >= text.length()) {
                tokens.add(new Token(Token.Kind.END, "", "", line, at - lineStart));
                return tokens;
            }
            tokens.add(next());
        }
    }

    private Token next() {
        int start = at;
        char c = text.charAt(at);
        Matcher m;
        if ((m = match(UUID)) != null) return advance(Token.Kind.UUID, m.group(), start, m.end());
        if ((m = match(HEX)) != null) return advance(Token.Kind.HEX, m.group(1), start, m.end());
        if ((c == '-' || Character.isDigit(c) || c == 'N' || c == 'I') && (m = match(NUMBER)) != null) {
            boolean isFloat = m.group(1) != null || m.group(2) != null || m.group().endsWith("NaN") || m.group().endsWith("Infinity");
            return advance(isFloat ? Token.Kind.FLOAT : Token.Kind.INTEGER, m.group(), start, m.end());
        }
        if ((m = match(NAME)) != null) return advance(Token.Kind.IDENTIFIER, m.group().toLowerCase(java.util.Locale.ROOT), start, m.end());
        if (c == '"') return quoted('"', Token.Kind.QUOTED_NAME);
        if (c == '\'') return quoted('\'', Token.Kind.STRING);
        if (text.startsWith("$$", at)) {
            int end = text.indexOf("$$", at + 2);
            if (end < 0) throw unexpected(start, "unterminated $$ string");
            return advance(Token.Kind.STRING, text.substring(at + 2, end), start, end + 2);
        }
        if (c == '?') return advance(Token.Kind.MARKER, "?", start, at + 1);
        if (c == ':' && at + 1 < text.length() && (m = NAME.matcher(text).region(at + 1, text.length())).lookingAt()) {
            return advance(Token.Kind.NAMED_MARKER, m.group().toLowerCase(java.util.Locale.ROOT), start, m.end());
        }
        if (at + 1 < text.length()) {
            String two = text.substring(at, at + 2);
            int i = TWO_CHAR_SYMBOLS.indexOf(two);
            if (i >= 0 && i % 2 == 0) return advance(Token.Kind.SYMBOL, two, start, at + 2);
        }
        if (SYMBOLS.indexOf(c) >= 0) return advance(Token.Kind.SYMBOL, String.valueOf(c), start, at + 1);
        throw unexpected(start, "no viable alternative at character '" + new String(Character.toChars(text.codePointAt(at))) + "'");
    }

    private Matcher match(Pattern p) {
        Matcher m = p.matcher(text).region(at, text.length());
        return m.lookingAt() ? m : null;
    }

    /** A quoted string or name, its quote doubled inside it. */
    private Token quoted(char quote, Token.Kind kind) {
        int start = at;
        StringBuilder s = new StringBuilder();
        int i = at + 1;
        while (true) {
            if (i >= text.length()) throw unexpected(start, "unterminated " + (quote == '"' ? "quoted name" : "string"));
            char c = text.charAt(i);
            if (c == quote) {
                if (i + 1 < text.length() && text.charAt(i + 1) == quote) {
                    s.append(quote);
                    i += 2;
                    continue;
                }
                break;
            }
            s.append(c);
            i++;
        }
        if (kind == Token.Kind.QUOTED_NAME && s.isEmpty()) throw unexpected(start, "an empty quoted name");
        return advance(kind, s.toString(), start, i + 1);
    }

    private Token advance(Token.Kind kind, String value, int start, int end) {
        Token t = new Token(kind, value, text.substring(start, end), line, start - lineStart);
        for (int i = start; i < end; i++) newLineAt(i);
        at = end;
        return t;
    }

    private void newLineAt(int i) {
        if (text.charAt(i) == '\n') {
            line++;
            lineStart = i + 1;
        }
    }

    private void skipSpaceAndComments() {
        while (at < text.length()) {
            char c = text.charAt(at);
            if (Character.isWhitespace(c)) {
                newLineAt(at++);
            } else if (text.startsWith("--", at) || text.startsWith("//", at)) {
                while (at < text.length() && text.charAt(at) != '\n') at++;
            } else if (text.startsWith("/*", at)) {
                int end = text.indexOf("*/", at + 2);
                int stop = end < 0 ? text.length() : end + 2;
                for (int i = at; i < stop; i++) newLineAt(i);
                at = stop;
            } else {
                return;
            }
        }
    }

    private InvalidQueryException unexpected(int start, String what) {
        return new InvalidQueryException("line " + line + ":" + (start - lineStart) + " " + what);
    }
}
