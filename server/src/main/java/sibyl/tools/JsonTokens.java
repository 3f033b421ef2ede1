package sibyl.tools;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;

/**
 * Reads JSON (RFC 8259) a token at a time from a stream, so a file of any size is read in
 * constant memory, and knows the line and column of every token for error messages. The caller
 * drives it by the grammar it expects: {@link #expect} a bracket, read a {@link #string},
 * {@link #integer} or {@link #bool}, {@link #consumeIf} a separator. Numbers are integers only:
 * nothing in an export is fractional. Not thread-safe.
 */
final class JsonTokens {
    private static final int EOF = -1;

    private final Reader in;
    private final String source;
    private final char[] buffer = new char[64 * 1024];
    private final StringBuilder text = new StringBuilder();
    private int position;
    private int limit;
    /** Where the next character is. */
    private int line = 1;
    private int column = 1;
    /** Where the token read last (or being read) starts. */
    private int tokenLine = 1;
    private int tokenColumn = 1;
    /** Said after the position in every error, such as the row being read; empty for none. */
    private String context = "";

    /** @param source how errors name the input, usually its file name */
    JsonTokens(Reader in, String source) {
        this.in = in;
        this.source = source;
    }

    /** What errors say they were reading, after the position: {@code row "jsmith": }, or "" for nothing. */
    void context(String context) {
        this.context = context;
    }

    /** Line of the token read last, from 1. */
    int tokenLine() {
        return tokenLine;
    }

    /**
     * The next character that is not whitespace, not consumed; -1 at the end of the input. The
     * position of the token it starts becomes the one errors report.
     */
    int peek() throws IOException, BadJson {
        while (true) {
            int c = peekChar();
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                nextChar();
            } else {
                tokenLine = line;
                tokenColumn = column;
                return c;
            }
        }
    }

    /** Consumes {@code c} if it comes next (after whitespace). */
    boolean consumeIf(char c) throws IOException, BadJson {
        if (peek() != c) return false;
        nextChar();
        return true;
    }

    /** Consumes {@code c}, or fails saying that {@code what} was expected. */
    void expect(char c, String what) throws IOException, BadJson {
        if (!consumeIf(c)) throw unexpected(what);
    }

    /** A string token's value. */
    String string(String what) throws IOException, BadJson {
        if (peek() != '"') throw unexpected(what);
        nextChar();
        text.setLength(0);
        while (true) {
            int c = nextChar();
            if (c == '"') return text.toString();
            if (c == EOF) throw error("a string not closed before the end of the input");
            if (c < 0x20) throw error("a control character (U+" + hex4(c) + ") in a string; JSON needs it escaped");
            if (c == '\\') {
                text.append(escape());
            } else {
                text.append((char) c);
            }
        }
    }

    private char escape() throws IOException, BadJson {
        int c = nextChar();
        return switch (c) {
            case '"', '\\', '/' -> (char) c;
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'u' -> {
                int value = 0;
                for (int i = 0; i < 4; i++) {
                    int digit = Character.digit(nextChar(), 16);
                    if (digit < 0) throw error("\\u in a string must be followed by four hex digits");
                    value = value * 16 + digit;
                }
                yield (char) value;
            }
            default -> throw error("unknown escape \\" + (c == EOF ? "at the end of the input" : (char) c) + " in a string");
        };
    }

    /** An integer token (no fraction, no exponent) that fits a long. */
    long integer(String what) throws IOException, BadJson {
        int c = peek();
        if (c != '-' && (c < '0' || c > '9')) throw unexpected(what);
        boolean negative = c == '-';
        if (negative) nextChar();
        // Accumulated negatively, so Long.MIN_VALUE (0.6's "never deleted") fits.
        long value = 0;
        int digits = 0;
        while (peekChar() >= '0' && peekChar() <= '9') {
            int digit = nextChar() - '0';
            if (digits == 1 && value == 0) throw error(what + ": a number with a leading zero");
            try {
                value = Math.subtractExact(Math.multiplyExact(value, 10), digit);
            } catch (ArithmeticException e) {
                throw error(what + ": a number out of the range of a long");
            }
            digits++;
        }
        if (digits == 0) throw error(what + ": '-' without digits");
        int after = peekChar();
        if (after == '.' || after == 'e' || after == 'E') throw error(what + ": a whole number was expected, found a fraction or exponent");
        if (!negative && value == Long.MIN_VALUE) throw error(what + ": a number out of the range of a long");
        return negative ? value : -value;
    }

    /** {@code true} or {@code false}. */
    boolean bool(String what) throws IOException, BadJson {
        int c = peek();
        if (c == 't') {
            literal("true", what);
            return true;
        }
        if (c == 'f') {
            literal("false", what);
            return false;
        }
        throw unexpected(what);
    }

    private void literal(String word, String what) throws IOException, BadJson {
        for (int i = 0; i < word.length(); i++) {
            if (nextChar() != word.charAt(i)) throw error("expected " + what + ", found a word that is not " + word);
        }
        int after = peekChar();
        if (Character.isLetterOrDigit(after)) throw error("expected " + what + ", found a word that is not " + word);
    }

    /** Checks that only whitespace is left. */
    void end() throws IOException, BadJson {
        if (peek() != EOF) throw unexpected("the end of the input after the closing '}'");
    }

    /** Where the token read last starts, for an error found about it later ({@link #errorAt}). */
    long mark() {
        return ((long) tokenLine << 32) | tokenColumn;
    }

    /** An error at the token read last. */
    BadJson error(String message) {
        return errorAt(mark(), message);
    }

    /** An error at a token {@link #mark}ed before. */
    BadJson errorAt(long mark, String message) {
        return new BadJson(source + ":" + (mark >>> 32) + ":" + (int) mark + ": " + context + message);
    }

    /** An error saying what was expected and what comes instead. */
    BadJson unexpected(String what) throws IOException, BadJson {
        return error("expected " + what + ", found " + describe(peek()));
    }

    private static String describe(int c) {
        if (c == EOF) return "the end of the input";
        if (c < 0x20 || Character.isSurrogate((char) c)) return "U+" + hex4(c);
        return "'" + (char) c + "'";
    }

    private static String hex4(int c) {
        return String.format("%04X", c);
    }

    private int peekChar() throws IOException, BadJson {
        if (position == limit && !fill()) return EOF;
        return buffer[position];
    }

    private int nextChar() throws IOException, BadJson {
        if (position == limit && !fill()) return EOF;
        char c = buffer[position++];
        if (c == '\n') {
            line++;
            column = 1;
        } else {
            column++;
        }
        return c;
    }

    private boolean fill() throws IOException, BadJson {
        try {
            int n = in.read(buffer, 0, buffer.length);
            if (n <= 0) return false;
            position = 0;
            limit = n;
            return true;
        } catch (CharacterCodingException e) {
            throw new BadJson(source + ":" + line + ": the input is not UTF-8 (" + e + ")");
        }
    }

    /** Input that is not JSON, or not the JSON expected; the message starts with the source, line and column. */
    static final class BadJson extends Exception {
        private static final long serialVersionUID = 1L;

        BadJson(String message) {
            super(message);
        }
    }
}
