package sibyl.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A strict reader of Prometheus' text exposition format 0.0.4, written from the format's rules for
 * these tests: it refuses what a scraper would reject or misread, naming the line. Checked: line
 * feeds (the last line too), HELP and TYPE lines (known types, once per name, TYPE before the
 * first sample), metric and label names, label value and HELP escapes, values in Go's ParseFloat
 * syntax, each family's lines in one group, each name and label set once, histograms' buckets
 * (le in increasing order, cumulative counts, a +Inf bucket equal to _count, a _sum), counters
 * not negative.
 */
public final class ExpositionParser {
    private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    private static final Pattern FLOAT = Pattern.compile(
            "[+-]?(?:(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?|(?i:inf|infinity))|(?i:nan)");
    private static final Pattern INT = Pattern.compile("[+-]?[0-9]+");
    private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");

    /** One sample line. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    /** One metric family: its name, type, help and samples in the order written. */
    public record Family(String name, String type, String help, List<Sample> samples) {
        /** The value of the sample of {@code sampleName} with exactly these labels (name, value pairs). */
        public double value(String sampleName, String... labels) {
            Map<String, String> wanted = labelMap(labels);
            for (Sample s : samples) {
                if (s.name().equals(sampleName) && s.labels().equals(wanted)) return s.value();
            }
            throw new AssertionError("no sample " + sampleName + wanted + " in " + name);
        }
    }

    /** A parsed exposition. */
    public record Exposition(Map<String, Family> families) {
        public Family family(String name) {
            Family f = families.get(name);
            if (f == null) throw new AssertionError("no metric family " + name + "; there are " + families.keySet());
            return f;
        }

        /** The value of a counter or gauge sample, or of a histogram's _count/_sum/_bucket sample. */
        public double value(String sampleName, String... labels) {
            return family(familyOf(sampleName)).value(sampleName, labels);
        }

        private String familyOf(String sampleName) {
            if (families.containsKey(sampleName)) return sampleName;
            for (String suffix : List.of("_bucket", "_sum", "_count")) {
                if (sampleName.endsWith(suffix)) {
                    String base = sampleName.substring(0, sampleName.length() - suffix.length());
                    if (families.containsKey(base)) return base;
                }
            }
            return sampleName;
        }
    }

    private ExpositionParser() {
    }

    public static Map<String, String> labelMap(String... labels) {
        if (labels.length % 2 != 0) throw new IllegalArgumentException("labels come in pairs");
        Map<String, String> map = new TreeMap<>();
        for (int i = 0; i < labels.length; i += 2) map.put(labels[i], labels[i + 1]);
        return map;
    }

    /** @throws IllegalArgumentException naming the line and what is wrong with it */
    public static Exposition parse(String text) {
        if (!text.isEmpty() && !text.endsWith("\n")) throw new IllegalArgumentException("the last line has no line feed");
        Map<String, String> types = new HashMap<>();
        Map<String, String> helps = new HashMap<>();
        Map<String, List<Sample>> samples = new LinkedHashMap<>();
        Set<String> finished = new HashSet<>();
        Set<String> seen = new HashSet<>();
        String current = null;
        String[] lines = text.split("\n", -1);
        for (int n = 0; n < lines.length - 1; n++) {
            String line = lines[n].strip();
            String where = "line " + (n + 1) + " '" + lines[n] + "'";
            if (line.isEmpty()) continue;
            String family;
            if (line.startsWith("#")) {
                String[] tokens = line.substring(1).strip().split("[ \t]+", 3);
                if (tokens[0].equals("HELP")) {
                    if (tokens.length < 2) throw new IllegalArgumentException(where + ": HELP without a name");
                    family = tokens[1];
                    checkName(family, where);
                    if (helps.put(family, unescapeHelp(tokens.length > 2 ? tokens[2] : "", where)) != null) {
                        throw new IllegalArgumentException(where + ": a second HELP for " + family);
                    }
                } else if (tokens[0].equals("TYPE")) {
                    if (tokens.length != 3 || !TYPES.contains(tokens[2])) {
                        throw new IllegalArgumentException(where + ": TYPE needs a name and one of " + TYPES);
                    }
                    family = tokens[1];
                    checkName(family, where);
                    if (types.put(family, tokens[2]) != null) {
                        throw new IllegalArgumentException(where + ": a second TYPE for " + family);
                    }
                    if (samples.containsKey(family)) {
                        throw new IllegalArgumentException(where + ": TYPE after samples of " + family);
                    }
                } else {
                    continue; // an ordinary comment
                }
            } else {
                Sample sample = sample(line, where);
                family = familyOf(sample.name(), types);
                String key = sample.name() + sample.labels();
                if (!seen.add(key)) throw new IllegalArgumentException(where + ": " + key + " twice");
                samples.computeIfAbsent(family, f -> new ArrayList<>()).add(sample);
            }
            if (!family.equals(current)) {
                if (finished.contains(family)) {
                    throw new IllegalArgumentException(where + ": " + family + " resumes after other families");
                }
                if (current != null) finished.add(current);
                current = family;
            }
        }
        Map<String, Family> families = new LinkedHashMap<>();
        Set<String> names = new HashSet<>(samples.keySet());
        names.addAll(types.keySet());
        names.addAll(helps.keySet());
        for (String name : names) {
            Family f = new Family(name, types.getOrDefault(name, "untyped"), helps.get(name),
                    List.copyOf(samples.getOrDefault(name, List.of())));
            check(f);
            families.put(name, f);
        }
        return new Exposition(families);
    }

    private static String familyOf(String sampleName, Map<String, String> types) {
        for (String suffix : List.of("_bucket", "_sum", "_count")) {
            if (sampleName.endsWith(suffix)) {
                String base = sampleName.substring(0, sampleName.length() - suffix.length());
                String type = types.get(base);
                if ("histogram".equals(type) || "summary".equals(type) && !suffix.equals("_bucket")) return base;
            }
        }
        return sampleName;
    }

    private static void check(Family f) {
        switch (f.type()) {
            case "counter" -> {
                for (Sample s : f.samples()) {
                    if (!s.name().equals(f.name())) throw new IllegalArgumentException(s + " in counter " + f.name());
                    if (s.value() < 0 || Double.isNaN(s.value())) {
                        throw new IllegalArgumentException("counter " + f.name() + " is " + s.value());
                    }
                }
            }
            case "histogram" -> checkHistogram(f);
            default -> {
                for (Sample s : f.samples()) {
                    if (!s.name().equals(f.name())) throw new IllegalArgumentException(s + " in " + f.name());
                }
            }
        }
    }

    private static void checkHistogram(Family f) {
        Map<Map<String, String>, List<Sample>> buckets = new LinkedHashMap<>();
        Map<Map<String, String>, Double> counts = new HashMap<>();
        Map<Map<String, String>, Double> sums = new HashMap<>();
        for (Sample s : f.samples()) {
            String suffix = s.name().substring(f.name().length());
            switch (suffix) {
                case "_bucket" -> {
                    Map<String, String> rest = new TreeMap<>(s.labels());
                    if (rest.remove("le") == null) throw new IllegalArgumentException(s + " has no le label");
                    buckets.computeIfAbsent(rest, k -> new ArrayList<>()).add(s);
                }
                case "_count" -> counts.put(s.labels(), s.value());
                case "_sum" -> sums.put(s.labels(), s.value());
                default -> throw new IllegalArgumentException(s + " in histogram " + f.name());
            }
        }
        for (Map.Entry<Map<String, String>, List<Sample>> e : buckets.entrySet()) {
            double lastLe = Double.NEGATIVE_INFINITY;
            double lastCount = 0;
            for (Sample b : e.getValue()) {
                double le = parseFloat(b.labels().get("le"), "le of " + b);
                if (!(le > lastLe)) throw new IllegalArgumentException("buckets out of order at " + b);
                if (b.value() < lastCount) throw new IllegalArgumentException("bucket counts fall at " + b);
                lastLe = le;
                lastCount = b.value();
            }
            if (lastLe != Double.POSITIVE_INFINITY) {
                throw new IllegalArgumentException(f.name() + e.getKey() + " has no +Inf bucket");
            }
            if (!Objects.equals(counts.get(e.getKey()), lastCount)) {
                throw new IllegalArgumentException(f.name() + e.getKey() + ": _count " + counts.get(e.getKey())
                        + " is not the +Inf bucket's " + lastCount);
            }
            if (!sums.containsKey(e.getKey())) throw new IllegalArgumentException(f.name() + e.getKey() + " has no _sum");
        }
        if (!buckets.keySet().equals(counts.keySet()) || !buckets.keySet().equals(sums.keySet())) {
            throw new IllegalArgumentException(f.name() + ": label sets of buckets, _count and _sum differ");
        }
    }

    /** {@code name{label="value",...} value [timestamp]} */
    private static Sample sample(String line, String where) {
        int i = 0;
        while (i < line.length() && line.charAt(i) != '{' && line.charAt(i) != ' ' && line.charAt(i) != '\t') i++;
        String name = line.substring(0, i);
        checkName(name, where);
        Map<String, String> labels = new TreeMap<>();
        if (i < line.length() && line.charAt(i) == '{') {
            i++;
            while (true) {
                if (i >= line.length()) throw new IllegalArgumentException(where + ": labels not closed");
                if (line.charAt(i) == '}') {
                    i++;
                    break;
                }
                int eq = line.indexOf('=', i);
                if (eq < 0) throw new IllegalArgumentException(where + ": a label without =");
                String label = line.substring(i, eq);
                if (!LABEL_NAME.matcher(label).matches() || label.startsWith("__")) {
                    throw new IllegalArgumentException(where + ": bad label name '" + label + "'");
                }
                if (eq + 1 >= line.length() || line.charAt(eq + 1) != '"') {
                    throw new IllegalArgumentException(where + ": label value not quoted");
                }
                StringBuilder value = new StringBuilder();
                int j = eq + 2;
                while (true) {
                    if (j >= line.length()) throw new IllegalArgumentException(where + ": label value not closed");
                    char c = line.charAt(j);
                    if (c == '"') break;
                    if (c == '\\') {
                        if (j + 1 >= line.length()) throw new IllegalArgumentException(where + ": dangling backslash");
                        char e = line.charAt(j + 1);
                        switch (e) {
                            case '\\' -> value.append('\\');
                            case '"' -> value.append('"');
                            case 'n' -> value.append('\n');
                            default -> throw new IllegalArgumentException(where + ": bad escape \\" + e);
                        }
                        j += 2;
                    } else {
                        value.append(c);
                        j++;
                    }
                }
                if (labels.put(label, value.toString()) != null) {
                    throw new IllegalArgumentException(where + ": label " + label + " twice");
                }
                i = j + 1;
                if (i < line.length() && line.charAt(i) == ',') i++;
                else if (i >= line.length() || line.charAt(i) != '}') {
                    throw new IllegalArgumentException(where + ": expected , or } after a label");
                }
            }
        }
        String[] rest = line.substring(i).strip().split("[ \t]+");
        if (rest.length < 1 || rest.length > 2 || rest[0].isEmpty() || i < line.length() && line.charAt(i) != ' '
                && line.charAt(i) != '\t') {
            throw new IllegalArgumentException(where + ": expected a value and at most a timestamp");
        }
        double value = parseFloat(rest[0], where);
        if (rest.length == 2 && !INT.matcher(rest[1]).matches()) {
            throw new IllegalArgumentException(where + ": bad timestamp " + rest[1]);
        }
        return new Sample(name, labels, value);
    }

    private static double parseFloat(String text, String where) {
        if (!FLOAT.matcher(text).matches()) throw new IllegalArgumentException(where + ": not a float: '" + text + "'");
        String lower = text.toLowerCase();
        if (lower.equals("nan")) return Double.NaN;
        if (lower.matches("[+]?inf(inity)?")) return Double.POSITIVE_INFINITY;
        if (lower.matches("-inf(inity)?")) return Double.NEGATIVE_INFINITY;
        return Double.parseDouble(text);
    }

    private static void checkName(String name, String where) {
        if (!METRIC_NAME.matcher(name).matches()) throw new IllegalArgumentException(where + ": bad metric name '" + name + "'");
    }

    private static String unescapeHelp(String help, String where) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < help.length(); i++) {
            char c = help.charAt(i);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (i + 1 >= help.length()) throw new IllegalArgumentException(where + ": dangling backslash in HELP");
            char e = help.charAt(++i);
            if (e == '\\') out.append('\\');
            else if (e == 'n') out.append('\n');
            else throw new IllegalArgumentException(where + ": bad escape \\" + e + " in HELP");
        }
        return out.toString();
    }
}
