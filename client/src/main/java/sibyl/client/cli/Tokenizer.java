package sibyl.client.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a statement into tokens: quoted strings ({@code 'it\'s'} or {@code "..."}, with backslash
 * escapes), bare words (letters, digits, {@code _ - +}) and symbols. The 0.6 statements use the symbols
 * {@code . [ ] = ;}; the 0.7 ones more symbols, and dots inside words (class names, decimals).
 */
final class Tokenizer {

    enum Kind { WORD, STRING, SYMBOL }

    /** A token and the 1-based column where it starts, for error messages. */
    record Token(Kind kind, String text, int column) {
        boolean is(String symbol) {
            return kind == Kind.SYMBOL && text.equals(symbol);
        }

        boolean isWord(String word) {
            return kind == Kind.WORD && text.equalsIgnoreCase(word);
        }

        String display() {
            return kind == Kind.STRING ? "'" + text + "'" : text;
        }
    }

    private Tokenizer() {
    }

    /** The 0.6 statements' tokens. */
    static List<Token> tokenize(String line) {
        return tokenize(line, ".[]=;", "");
    }

    /**
     * @param symbols the characters that are tokens of their own
     * @param wordChars characters other than letters, digits and {@code _ - +} that words may contain
     */
    static List<Token> tokenize(String line, String symbols, String wordChars) {
        List<Token> tokens = new ArrayList<>();
        int i = 0;
        while (i < line.length()) {
            char c = line.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '\'' || c == '"') {
                i = quoted(line, i, tokens);
            } else if (symbols.indexOf(c) >= 0) {
                tokens.add(new Token(Kind.SYMBOL, String.valueOf(c), i + 1));
                i++;
            } else if (isWordChar(c, wordChars)) {
                int start = i;
                while (i < line.length() && isWordChar(line.charAt(i), wordChars)) {
                    i++;
                }
                tokens.add(new Token(Kind.WORD, line.substring(start, i), start + 1));
            } else {
                throw new CliError("unexpected character '" + c + "' at column " + (i + 1));
            }
        }
        return tokens;
    }

    private static boolean isWordChar(char c, String wordChars) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '+' || wordChars.indexOf(c) >= 0;
    }

    private static int quoted(String line, int start, List<Token> tokens) {
        char quote = line.charAt(start);
        StringBuilder sb = new StringBuilder();
        int i = start + 1;
        while (i < line.length()) {
            char c = line.charAt(i);
            if (c == '\\' && i + 1 < line.length()) {
                char next = line.charAt(i + 1);
                sb.append(switch (next) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    default -> next;
                });
                i += 2;
            } else if (c == quote) {
                tokens.add(new Token(Kind.STRING, sb.toString(), start + 1));
                return i + 1;
            } else {
                sb.append(c);
                i++;
            }
        }
        throw new CliError("unterminated string starting at column " + (start + 1) + " (missing " + quote + ")");
    }
}
