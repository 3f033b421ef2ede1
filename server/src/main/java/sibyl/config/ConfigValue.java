package sibyl.config;

import java.math.BigDecimal;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The non-empty, trimmed text of one setting (an element's text or an attribute) together with
 * where it came from, so every conversion failure names the file and the element.
 */
final class ConfigValue {
    private final Path file;
    private final String path;
    private final String text;

    ConfigValue(Path file, String path, String text) {
        this.file = file;
        this.path = path;
        this.text = text;
    }

    String text() {
        return text;
    }

    String path() {
        return path;
    }

    ConfigurationException error(String problem) {
        return new ConfigurationException(file, path, problem);
    }

    /** {@code true} or {@code false} in any letter case; any other text is refused. */
    boolean asBoolean() throws ConfigurationException {
        String lower = text.toLowerCase(Locale.ROOT);
        if (lower.equals("true")) {
            return true;
        }
        if (lower.equals("false")) {
            return false;
        }
        throw error("expected true or false, found '" + text + "'");
    }

    int asInt() throws ConfigurationException {
        return asInt(Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    /** A whole number in {@code min..max} inclusive. */
    int asInt(int min, int max) throws ConfigurationException {
        int value;
        try {
            value = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw error("expected a whole number, found '" + text + "'");
        }
        if (value < min || value > max) {
            throw error(rangeProblem(min, max) + ", found " + value);
        }
        return value;
    }

    private static String rangeProblem(int min, int max) {
        if (max == Integer.MAX_VALUE) {
            if (min == 0) {
                return "cannot be negative";
            }
            return min == 1 ? "must be positive" : "must be at least " + min;
        }
        return "must be between " + min + " and " + max;
    }

    /** A finite decimal number, written plainly ({@code 0.3}, {@code 1}, {@code .5}). */
    double asDouble() throws ConfigurationException {
        try {
            // BigDecimal refuses NaN, Infinity and the 'd'/'f' suffixes that Double.parseDouble takes.
            return new BigDecimal(text).doubleValue();
        } catch (NumberFormatException e) {
            throw error("expected a number, found '" + text + "'");
        }
    }

    double asPositiveDouble() throws ConfigurationException {
        double value = asDouble();
        if (!(value > 0)) {
            throw error("must be greater than 0, found " + text);
        }
        return value;
    }

    double asDouble(double min, double max) throws ConfigurationException {
        double value = asDouble();
        if (value < min || value > max) {
            throw error("must be between " + min + " and " + max + ", found " + text);
        }
        return value;
    }

    /** A directory; a relative one is resolved against the install directory. */
    Path asDirectory(Path installDirectory) throws ConfigurationException {
        try {
            return installDirectory.resolve(Path.of(text)).normalize();
        } catch (InvalidPathException e) {
            throw error("not a usable path: '" + text + "' (" + e.getReason() + ")");
        }
    }
}
