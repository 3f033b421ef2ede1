package sibyl.metrics;

import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Writes metric families in Prometheus' text exposition format, version 0.0.4: per family a
 * {@code # HELP} and a {@code # TYPE} line, then its samples as one uninterrupted group, each
 * {@code name{label="value",...} value} on a line ending in a line feed.
 *
 * <p>The rules of the format are checked as the text is written, so a mistake in a collector
 * fails loudly instead of yielding text a scraper rejects: metric and label names of the allowed
 * characters, counters named {@code ..._total}, each family and each label set once, samples
 * only for the family written last, histogram buckets in increasing order with {@code le="+Inf"}
 * last. Label values and help texts are escaped as the format requires (backslash, double quote
 * in label values, line feed). Not thread-safe: one writer per scrape.
 */
public final class ExpositionWriter {
    /** The HTTP Content-Type of this format. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final StringBuilder out = new StringBuilder(64 * 1024);
    /** Names of the families written and of the samples they own (a histogram's _bucket, _sum, _count). */
    private final Set<String> names = new HashSet<>();
    private Object current;

    /** A counter: a value that only grows (until the process restarts). Its name must end in {@code _total}. */
    public Family counter(String name, String help) {
        if (!name.endsWith("_total")) throw new IllegalArgumentException("a counter's name ends in _total: " + name);
        return new Family(name, "counter", help);
    }

    /** A gauge: a value that goes up and down. */
    public Family gauge(String name, String help) {
        return new Family(name, "gauge", help);
    }

    /**
     * A histogram with the given bucket upper bounds (finite, strictly increasing); the {@code +Inf}
     * bucket is added.
     */
    public Histogram histogram(String name, String help, double[] upperBounds) {
        return new Histogram(name, help, upperBounds);
    }

    /** The text written so far. */
    public String text() {
        return out.toString();
    }

    /** A counter or gauge family; its samples must follow it before another family begins. */
    public final class Family {
        private final String name;
        private final Set<String> labelSets = new HashSet<>();

        private Family(String name, String type, String help) {
            this.name = name;
            begin(this, name, type, help, name);
        }

        /** One sample; {@code labels} are names and values in turn. */
        public Family sample(long value, String... labels) {
            return line(Long.toString(value), labels);
        }

        public Family sample(double value, String... labels) {
            return line(number(value), labels);
        }

        private Family line(String value, String... labels) {
            checkCurrent(this, name);
            String labelText = labels(labels, null);
            if (!labelSets.add(labelText)) throw new IllegalStateException(name + labelText + " written twice");
            out.append(name).append(labelText).append(' ').append(value).append('\n');
            return this;
        }
    }

    /** A histogram family: per label set, cumulative buckets, then _sum and _count. */
    public final class Histogram {
        private final String name;
        private final double[] bounds;
        private final String[] les;
        private final Set<String> labelSets = new HashSet<>();

        private Histogram(String name, String help, double[] upperBounds) {
            this.name = name;
            this.bounds = upperBounds.clone();
            this.les = new String[bounds.length + 1];
            for (int i = 0; i < bounds.length; i++) {
                if (!Double.isFinite(bounds[i]) || i > 0 && bounds[i] <= bounds[i - 1]) {
                    throw new IllegalArgumentException("bucket bounds must be finite and increasing: " + name);
                }
                les[i] = BigDecimal.valueOf(bounds[i]).stripTrailingZeros().toPlainString();
            }
            les[bounds.length] = "+Inf";
            begin(this, name, "histogram", help, name, name + "_bucket", name + "_sum", name + "_count");
        }

        /**
         * One label set's observations: {@code bucketCounts} holds how many fell into each bucket
         * (not cumulated; one more than the bounds, the last for what exceeds them all), {@code sum}
         * their total; {@code labels} are names and values in turn, {@code le} not among them.
         */
        public Histogram sample(long[] bucketCounts, double sum, String... labels) {
            checkCurrent(this, name);
            if (bucketCounts.length != les.length) {
                throw new IllegalArgumentException(name + ": " + bucketCounts.length + " bucket counts for "
                        + les.length + " buckets");
            }
            // Everything is checked before anything is written, so a refused sample leaves no partial line.
            String plain = labels(labels, null);
            String[] withLe = new String[les.length];
            for (int i = 0; i < les.length; i++) {
                if (bucketCounts[i] < 0) throw new IllegalArgumentException(name + ": negative bucket count");
                withLe[i] = labels(labels, les[i]);
            }
            if (!labelSets.add(plain)) throw new IllegalStateException(name + plain + " written twice");
            long cumulative = 0;
            for (int i = 0; i < les.length; i++) {
                cumulative += bucketCounts[i];
                out.append(name).append("_bucket").append(withLe[i]).append(' ').append(cumulative).append('\n');
            }
            out.append(name).append("_sum").append(plain).append(' ').append(number(sum)).append('\n');
            out.append(name).append("_count").append(plain).append(' ').append(cumulative).append('\n');
            return this;
        }
    }

    private void begin(Object family, String name, String type, String help, String... owned) {
        checkMetricName(name);
        for (String n : owned) {
            if (names.contains(n)) throw new IllegalStateException("metric " + n + " written twice");
        }
        names.addAll(List.of(owned));
        current = family;
        out.append("# HELP ").append(name).append(' ');
        escape(out, help, false);
        out.append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private void checkCurrent(Object family, String name) {
        if (current != family) {
            throw new IllegalStateException("samples of " + name + " after another family began: a family's lines"
                    + " must be one group");
        }
    }

    /** {@code {a="x",b="y"}} (with {@code le} last when given), or nothing without labels. */
    private static String labels(String[] labels, String le) {
        if (labels.length % 2 != 0) throw new IllegalArgumentException("labels come as name, value pairs");
        if (labels.length == 0 && le == null) return "";
        StringBuilder text = new StringBuilder(64).append('{');
        for (int i = 0; i < labels.length; i += 2) {
            checkLabelName(labels[i]);
            if (le != null && labels[i].equals("le")) throw new IllegalArgumentException("le is the bucket label");
            if (i > 0) text.append(',');
            text.append(labels[i]).append("=\"");
            escape(text, labels[i + 1], true);
            text.append('"');
        }
        if (le != null) {
            if (labels.length > 0) text.append(',');
            text.append("le=\"").append(le).append('"');
        }
        return text.append('}').toString();
    }

    /** Escapes a backslash and a line feed, and in label values ({@code quotes}) a double quote. */
    private static void escape(StringBuilder to, String text, boolean quotes) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\') to.append("\\\\");
            else if (c == '\n') to.append("\\n");
            else if (c == '"' && quotes) to.append("\\\"");
            else to.append(c);
        }
    }

    /** A sample value as Go's ParseFloat reads it: integers without a fraction, NaN, +Inf, -Inf. */
    static String number(double value) {
        if (Double.isNaN(value)) return "NaN";
        if (Double.isInfinite(value)) return value > 0 ? "+Inf" : "-Inf";
        if (value == Math.rint(value) && Math.abs(value) < 1e15) return Long.toString((long) value);
        return Double.toString(value);
    }

    /** {@code [a-zA-Z_:][a-zA-Z0-9_:]*} */
    private static void checkMetricName(String name) {
        if (!validName(name, true)) throw new IllegalArgumentException("not a metric name: '" + name + "'");
    }

    /** {@code [a-zA-Z_][a-zA-Z0-9_]*}, not beginning with {@code __} (reserved for Prometheus' own use). */
    private static void checkLabelName(String name) {
        if (!validName(name, false) || name.startsWith("__")) {
            throw new IllegalArgumentException("not a label name: '" + name + "'");
        }
    }

    private static boolean validName(String name, boolean colons) {
        if (name.isEmpty()) return false;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || colons && c == ':'
                    || i > 0 && c >= '0' && c <= '9';
            if (!ok) return false;
        }
        return true;
    }
}
