package sibyl.client.tool;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The command line of a tool (bin/cli, bin/stress, bin/nodetool, the Java half of bin/soak): the options it
 * takes, each under one or more names and with or without a value, and the usage text {@code --help} prints.
 *
 * <p>An option's value is the argument after it, or, for a name starting with {@code --}, what follows
 * {@code =} in the same argument ({@code --port=9160}). Given twice, the later one counts. An argument that
 * is not an option is an operand, for the tools that take operands (nodetool's command); for the others it
 * is a mistake. Every tool takes {@code --help}.
 *
 * <p>All tools answer the same way: {@code --help} prints the usage on standard output, exit status 0; a bad
 * command line gets one line on standard error saying what is wrong, exit status {@value #BAD_USAGE}.
 */
public final class CommandLine {
    /** The exit status for a bad command line. */
    public static final int BAD_USAGE = 2;

    private static final Option HELP = Option.flag("--help");

    private final String tool;
    private final String usage;
    private final boolean takesOperands;
    private final Map<String, Option> byName;

    /**
     * @param tool          the tool's name, which starts its error lines
     * @param usage         what {@code --help} prints
     * @param takesOperands whether arguments other than options are allowed
     * @param options       the options besides {@code --help}
     */
    public CommandLine(String tool, String usage, boolean takesOperands, Option... options) {
        this.tool = tool;
        this.usage = usage.endsWith("\n") ? usage : usage + "\n";
        this.takesOperands = takesOperands;
        Map<String, Option> byName = new HashMap<>();
        for (Option option : concat(options, HELP)) {
            for (String name : option.names()) {
                if (byName.put(name, option) != null) {
                    throw new IllegalArgumentException("option " + name + " declared twice");
                }
            }
        }
        this.byName = Map.copyOf(byName);
    }

    private static List<Option> concat(Option[] options, Option last) {
        List<Option> all = new ArrayList<>(List.of(options));
        all.add(last);
        return all;
    }

    /** One option under all its names, e.g. {@code -p} and {@code --port}. */
    public record Option(List<String> names, boolean takesValue) {
        public Option {
            names = List.copyOf(names);
            if (names.isEmpty()) throw new IllegalArgumentException("an option needs a name");
        }

        /** An option that is given or not, such as {@code --framed}. */
        public static Option flag(String... names) {
            return new Option(List.of(names), false);
        }

        /** An option followed by a value, such as {@code -p 9160}. */
        public static Option value(String... names) {
            return new Option(List.of(names), true);
        }

        /** The name to mention an option by when the user did not spell it: its long name. */
        String displayName() {
            return names.stream().filter(n -> n.startsWith("--")).findFirst().orElse(names.get(0));
        }
    }

    /**
     * Splits {@code args} into options and operands.
     *
     * @throws IllegalArgumentException naming the argument, for an unknown option, an option without its
     *                                  value, a flag given a value, or an operand the tool does not take
     */
    public Arguments parse(String[] args) {
        Map<Option, Given> given = new HashMap<>();
        List<String> operands = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("-") || arg.length() == 1) {
                if (!takesOperands) throw new IllegalArgumentException("unexpected argument '" + arg + "'");
                operands.add(arg);
                continue;
            }
            String name = arg;
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            }
            Option option = byName.get(name);
            if (option == null) throw new IllegalArgumentException("unknown option " + arg);
            if (!option.takesValue() && value != null) {
                throw new IllegalArgumentException(name + " takes no value");
            }
            if (option.takesValue() && value == null) {
                if (i + 1 >= args.length) throw new IllegalArgumentException(name + " needs a value");
                value = args[++i];
            }
            given.put(option, new Given(name, value, i));
        }
        return new Arguments(this, given, operands);
    }

    /** Prints the usage, as for {@code --help}; returns the exit status 0. */
    public int printUsage(PrintStream out) {
        out.print(usage);
        return 0;
    }

    /** Prints the one line for a bad command line; returns {@value #BAD_USAGE}. */
    public int refuse(PrintStream err, String problem) {
        err.println(tool + ": " + problem + " (--help shows the usage)");
        return BAD_USAGE;
    }

    Option option(String name) {
        Option option = byName.get(name);
        if (option == null) throw new IllegalStateException("no option " + name + " is declared");
        return option;
    }

    /** An option as given: the name it was given under, its value (null for a flag), its place among the arguments. */
    private record Given(String spelled, String value, int index) {
    }

    /** The options and operands of one command line, with their values checked and converted on request. */
    public static final class Arguments {
        private final CommandLine commandLine;
        private final Map<Option, Given> given;
        private final List<String> operands;

        private Arguments(CommandLine commandLine, Map<Option, Given> given, List<String> operands) {
            this.commandLine = commandLine;
            this.given = Map.copyOf(given);
            this.operands = List.copyOf(operands);
        }

        public boolean help() {
            return has("--help");
        }

        /** Whether the option with this name (under any of its names) was given. */
        public boolean has(String name) {
            return given.containsKey(commandLine.option(name));
        }

        /** The name of the option given last of {@code names}; null when none was given. */
        public String lastOf(String... names) {
            String last = null;
            int lastIndex = -1;
            for (String name : names) {
                Given g = given.get(commandLine.option(name));
                if (g != null && g.index() > lastIndex) {
                    last = name;
                    lastIndex = g.index();
                }
            }
            return last;
        }

        public List<String> operands() {
            return operands;
        }

        /** The option's value; {@code otherwise} when it was not given. */
        public String value(String name, String otherwise) {
            Given g = given.get(commandLine.option(name));
            return g == null ? otherwise : g.value();
        }

        /**
         * The option's value converted by {@code convert}, which throws IllegalArgumentException saying what is
         * wrong with a value it refuses; {@code otherwise} when the option was not given.
         */
        public <T> T value(String name, Function<String, T> convert, T otherwise) {
            return has(name) ? convert.apply(raw(name)) : otherwise;
        }

        /** The option's value. @throws IllegalArgumentException when it was not given */
        public String required(String name) {
            return raw(present(name));
        }

        /** {@code name}, once it is sure the option was given. */
        private String present(String name) {
            if (!has(name)) throw new IllegalArgumentException(commandLine.option(name).displayName() + " is required");
            return name;
        }

        /** A whole number of {@code int} range; {@code otherwise} when not given. */
        public int intValue(String name, int otherwise) {
            return has(name) ? toInt(name, whole(name)) : otherwise;
        }

        /** A whole number of {@code int} range. @throws IllegalArgumentException when not given */
        public int intValue(String name) {
            return toInt(name, whole(present(name)));
        }

        public int positiveInt(String name, int otherwise) {
            return has(name) ? toInt(name, positive(name, whole(name))) : otherwise;
        }

        public int nonNegativeInt(String name, int otherwise) {
            return has(name) ? toInt(name, nonNegative(name, whole(name))) : otherwise;
        }

        public long longValue(String name, long otherwise) {
            return has(name) ? whole(name) : otherwise;
        }

        public long positiveLong(String name, long otherwise) {
            return has(name) ? positive(name, whole(name)) : otherwise;
        }

        /** A number greater than 0 and finite; {@code otherwise} when not given. */
        public double positiveDouble(String name, double otherwise) {
            if (!has(name)) return otherwise;
            double d = decimal(name);
            if (!(d > 0) || Double.isInfinite(d)) throw problem(name, "must be positive, not " + raw(name));
            return d;
        }

        /** A number greater than 0 and finite. @throws IllegalArgumentException when not given */
        public double positiveDouble(String name) {
            return positiveDouble(present(name), 0);
        }

        /** A number from 0 to 1; {@code otherwise} when not given. */
        public double fraction(String name, double otherwise) {
            if (!has(name)) return otherwise;
            double d = decimal(name);
            if (!(d >= 0 && d <= 1)) throw problem(name, "must be between 0 and 1, not " + raw(name));
            return d;
        }

        private long whole(String name) {
            String v = raw(name).trim();
            try {
                return Long.parseLong(v);
            } catch (NumberFormatException e) {
                String wanted = isDecimal(v) ? "takes a whole number" : "takes a number";
                throw problem(name, wanted + ", not '" + raw(name) + "'");
            }
        }

        private long positive(String name, long n) {
            if (n <= 0) throw problem(name, "must be positive, not " + raw(name));
            return n;
        }

        private long nonNegative(String name, long n) {
            if (n < 0) throw problem(name, "must not be negative, not " + raw(name));
            return n;
        }

        private int toInt(String name, long n) {
            if (n > Integer.MAX_VALUE || n < Integer.MIN_VALUE) throw problem(name, "is too large: " + raw(name));
            return (int) n;
        }

        private double decimal(String name) {
            try {
                return Double.parseDouble(raw(name).trim());
            } catch (NumberFormatException e) {
                throw problem(name, "takes a number, not '" + raw(name) + "'");
            }
        }

        private static boolean isDecimal(String v) {
            try {
                Double.parseDouble(v);
                return true;
            } catch (NumberFormatException e) {
                return false;
            }
        }

        private String raw(String name) {
            return given.get(commandLine.option(name)).value();
        }

        /** A problem with the option's value, naming the option as the user spelled it. */
        private IllegalArgumentException problem(String name, String what) {
            return new IllegalArgumentException(given.get(commandLine.option(name)).spelled() + " " + what);
        }
    }
}
