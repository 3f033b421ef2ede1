package sibyl.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * The non-empty, trimmed text of one setting (an element's text or an attribute) together with
 * where it came from, so every conversion failure names the file and the element.
 *
 * <p>Numbers are read with the parsers 0.6 used, so that whatever text 0.6 took still loads:
 * whole numbers as {@link Integer#parseInt} or {@link Long#parseLong} read them ({@code 8},
 * {@code +8}, {@code 008}; never {@code 8.0} or {@code 1e3}), decimals as
 * {@link Double#parseDouble} reads them ({@code 0.1}, {@code .5}, {@code 1}, {@code 1e-1}, even
 * {@code 0.3d}). Unlike 0.6, NaN and the infinities are refused: no setting can use them.
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

    /** The file the text came from, for a warning about it. */
    Path file() {
        return file;
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

    /** A whole number in {@code min..max} inclusive. */
    int asInt(int min, int max) throws ConfigurationException {
        return (int) asLong(min, max);
    }

    /** A whole number in {@code min..max} inclusive. */
    long asLong(long min, long max) throws ConfigurationException {
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw error("expected a whole number, found '" + text + "'");
        }
        if (value < min || value > max) {
            throw error(rangeProblem(value, min, max) + ", found " + value);
        }
        return value;
    }

    private static String rangeProblem(long value, long min, long max) {
        boolean noUpperBound = max == Integer.MAX_VALUE || max == Long.MAX_VALUE;
        if (noUpperBound && value > max) {
            return "must be at most " + max;
        }
        if (noUpperBound) {
            if (min == 0) {
                return "cannot be negative";
            }
            return min == 1 ? "must be positive" : "must be at least " + min;
        }
        return "must be between " + min + " and " + max;
    }

    /** A finite decimal number. */
    double asDecimal() throws ConfigurationException {
        OptionalDouble value = decimal(text);
        if (value.isEmpty()) {
            throw error("expected a number, found '" + text + "'");
        }
        return value.getAsDouble();
    }

    /** A finite decimal number above 0. */
    double asPositiveDecimal() throws ConfigurationException {
        double value = asDecimal();
        if (!(value > 0)) {
            throw error("must be greater than 0, found " + text);
        }
        return value;
    }

    /** A finite decimal number in {@code min..max} inclusive. */
    double asDecimal(double min, double max) throws ConfigurationException {
        double value = asDecimal();
        if (value < min || value > max) {
            throw error("must be between " + min + " and " + max + ", found " + text);
        }
        return value;
    }

    /** A fraction: a decimal in 0..1 or a percentage in 0%..100%. */
    double asFraction() throws ConfigurationException {
        boolean percent = text.endsWith("%");
        OptionalDouble number = decimal(percent ? text.substring(0, text.length() - 1).trim() : text);
        if (number.isEmpty()) {
            throw error("expected a fraction (0 to 1) or a percentage, found '" + text + "'");
        }
        double value = percent ? number.getAsDouble() / 100 : number.getAsDouble();
        if (value < 0 || value > 1) {
            throw error("must be between 0 and 1 (or 0% and 100%), found " + text);
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

    /**
     * {@code number} read as 0.6 read decimals ({@link Double#parseDouble}), or empty when it is
     * not a number or is NaN or infinite.
     */
    static OptionalDouble decimal(String number) {
        double value;
        try {
            value = Double.parseDouble(number);
        } catch (NumberFormatException e) {
            return OptionalDouble.empty();
        }
        return Double.isFinite(value) ? OptionalDouble.of(value) : OptionalDouble.empty();
    }
}
