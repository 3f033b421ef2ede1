package sibyl.client.stress;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.cassandra.thrift.ConsistencyLevel;
import sibyl.client.HostAddress;

/** The stress tool's command line. */
record StressOptions(
        Operation operation, long numKeys, Long count, Double durationSeconds, int threads, int columns,
        int valueSize, boolean superFamily, int supers, ConsistencyLevel consistency, String distribution,
        double stdevFraction, double readRatio, int rangeCount, int keysPerMultiget, String keyspace,
        String columnFamily, List<HostAddress> hosts, boolean framed, double intervalSeconds, String csvFile,
        boolean verify, long seed, int timeoutSeconds, int eventLoops, Double rate, boolean help) {

    static final String USAGE = """
            Usage: stress [options]
              -o, --operation OP       insert, read, range_slice, multiget or mixed (default insert)
              -n, --num-keys N         keys 0..N-1, written as 0000000123 (default 1000000)
                  --count N            operations to run (default: as many as keys)
              -d, --duration SECONDS   run this long instead of a number of operations
              -t, --threads N          connections, each with a thread of its own (default 50)
                  --event-loops N      instead, drive the connections from N threads, each waiting on
                                       all of its connections at once, as redis-benchmark does; a
                                       broken connection is reopened to the same host (no failover)
                  --rate OPS           start no more than OPS operations a second over all
                                       connections, each on its own schedule (default: as fast as
                                       replies come); for latency at a given load
              -c, --columns N          columns per row, or per super column (default 5)
              -S, --value-size N       bytes per value (default 34)
              -y, --family-type TYPE   standard or super (default standard)
                  --supers N           super columns per row with -y super (default 1)
              -e, --consistency LEVEL  ZERO, ONE, QUORUM, DCQUORUM, DCQUORUMSYNC, ALL, ANY (default ONE)
                  --distribution D     uniform, gaussian or sequential (default: sequential for insert,
                                       uniform otherwise)
                  --stdev F            gaussian: standard deviation as a fraction of N (default 0.1)
                  --read-ratio F       mixed: fraction of operations that read (default 0.5)
                  --range-count N      range_slice: rows per call (default 100)
                  --keys-per-multiget N multiget: keys per call (default 10)
              -K, --keyspace KS        (default Keyspace1)
              -C, --column-family CF   (default Standard1, or Super1 with -y super)
              -h, --host HOST[,HOST..] servers; threads spread over them, each failing over to the next
                                       (default localhost)
              -p, --port PORT          (default 9160)
                  --framed             framed transport
              -i, --interval SECONDS   progress report interval (default 1)
                  --csv FILE           also write each interval as a CSV row to FILE
                  --verify             check the values read; count mismatches
                  --seed N             random seed (default: from the clock; printed)
                  --timeout SECONDS    how long one call may wait for its reply (default 10)
                  --help               this text
            Exit status: 0 when every operation succeeded (and --verify found no mismatch), 1 otherwise,
            2 for bad options or when the threads could not connect.""";

    private static final Set<String> FLAGS = Set.of("--framed", "--verify", "--help");
    private static final Set<String> WITH_VALUE = Set.of("-o", "--operation", "-n", "--num-keys", "--count",
            "-d", "--duration", "-t", "--threads", "-c", "--columns", "-S", "--value-size", "-y", "--family-type",
            "--supers", "-e", "--consistency", "--distribution", "--stdev", "--read-ratio", "--range-count",
            "--keys-per-multiget", "-K", "--keyspace", "-C", "--column-family", "-h", "--host", "-p", "--port",
            "-i", "--interval", "--csv", "--seed", "--timeout", "--event-loops",
            "--rate");

    static StressOptions parse(String[] args) {
        Operation operation = Operation.INSERT;
        long numKeys = 1_000_000;
        Long count = null;
        Double duration = null;
        int threads = 50;
        int columns = 5;
        int valueSize = 34;
        boolean superFamily = false;
        int supers = 1;
        ConsistencyLevel consistency = ConsistencyLevel.ONE;
        String distribution = null;
        double stdev = 0.1;
        double readRatio = 0.5;
        int rangeCount = 100;
        int keysPerMultiget = 10;
        String keyspace = "Keyspace1";
        String columnFamily = null;
        String hosts = "localhost";
        int port = HostAddress.DEFAULT_PORT;
        boolean framed = false;
        double interval = 1;
        String csv = null;
        boolean verify = false;
        long seed = System.nanoTime();
        int timeout = 10;
        int eventLoops = 0;
        Double rate = null;
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String name = arg;
            String inline = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(0, eq);
                inline = arg.substring(eq + 1);
            }
            String v = null;
            if (!FLAGS.contains(name)) {
                if (!WITH_VALUE.contains(name)) {
                    throw new IllegalArgumentException("unknown option " + arg);
                }
                if (inline != null) {
                    v = inline;
                } else if (i + 1 < args.length) {
                    v = args[++i];
                } else {
                    throw new IllegalArgumentException(name + " needs a value");
                }
            }
            switch (name) {
                case "-o", "--operation" -> operation = Operation.parse(v);
                case "-n", "--num-keys" -> numKeys = positiveLong(v, name);
                case "--count" -> count = positiveLong(v, name);
                case "-d", "--duration" -> duration = positiveDouble(v, name);
                case "-t", "--threads" -> threads = positiveInt(v, name);
                case "-c", "--columns" -> columns = positiveInt(v, name);
                case "-S", "--value-size" -> valueSize = nonNegativeInt(v, name);
                case "-y", "--family-type" -> superFamily = familyType(v);
                case "--supers" -> supers = positiveInt(v, name);
                case "-e", "--consistency" -> consistency = consistency(v);
                case "--distribution" -> distribution = v;
                case "--stdev" -> stdev = positiveDouble(v, name);
                case "--read-ratio" -> readRatio = fraction(v, name);
                case "--range-count" -> rangeCount = positiveInt(v, name);
                case "--keys-per-multiget" -> keysPerMultiget = positiveInt(v, name);
                case "-K", "--keyspace" -> keyspace = v;
                case "-C", "--column-family" -> columnFamily = v;
                case "-h", "--host" -> hosts = v;
                case "-p", "--port" -> port = positiveInt(v, name);
                case "--framed" -> framed = true;
                case "-i", "--interval" -> interval = positiveDouble(v, name);
                case "--csv" -> csv = v;
                case "--verify" -> verify = true;
                case "--seed" -> seed = parseLong(v, name);
                case "--timeout" -> timeout = nonNegativeInt(v, name);
                case "--event-loops" -> eventLoops = positiveInt(v, name);
                case "--rate" -> rate = positiveDouble(v, name);
                case "--help" -> help = true;
                default -> throw new IllegalArgumentException("unknown option " + arg);
            }
        }
        if (distribution == null) {
            distribution = operation == Operation.INSERT ? "sequential" : "uniform";
        }
        KeyDistribution.of(distribution, numKeys, stdev); // validates the name
        if (columnFamily == null) {
            columnFamily = superFamily ? "Super1" : "Standard1";
        }
        return new StressOptions(operation, numKeys, count, duration, threads, columns, valueSize, superFamily,
                supers, consistency, distribution.toLowerCase(Locale.ROOT), stdev, readRatio, rangeCount,
                keysPerMultiget, keyspace, columnFamily, HostAddress.parseList(hosts, port), framed, interval, csv,
                verify, seed, timeout, eventLoops, rate, help);
    }

    /**
     * Nanoseconds between the starts of one connection's operations under --rate; 0 without it. Each connection
     * takes an equal share of the rate.
     */
    long pacingNanos() {
        return rate == null ? 0 : Math.round(threads * 1e9 / rate);
    }

    /** Operations to run in count mode: --count, else one per key. Null in duration mode. */
    Long operationBudget() {
        if (durationSeconds != null) {
            return null;
        }
        return count != null ? count : numKeys;
    }

    private static boolean familyType(String v) {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "standard" -> false;
            case "super" -> true;
            default -> throw new IllegalArgumentException("-y takes standard or super, not '" + v + "'");
        };
    }

    private static ConsistencyLevel consistency(String v) {
        try {
            return ConsistencyLevel.valueOf(v.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown consistency level '" + v
                    + "'; use ZERO, ONE, QUORUM, DCQUORUM, DCQUORUMSYNC, ALL or ANY");
        }
    }

    private static long parseLong(String v, String option) {
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " takes a whole number, not '" + v + "'");
        }
    }

    private static long positiveLong(String v, String option) {
        long n = parseLong(v, option);
        if (n <= 0) {
            throw new IllegalArgumentException(option + " must be positive, not " + v);
        }
        return n;
    }

    private static int positiveInt(String v, String option) {
        long n = positiveLong(v, option);
        if (n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(option + " is too large: " + v);
        }
        return (int) n;
    }

    private static int nonNegativeInt(String v, String option) {
        long n = nonNegativeLong(v, option);
        if (n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(option + " is too large: " + v);
        }
        return (int) n;
    }

    private static long nonNegativeLong(String v, String option) {
        long n = parseLong(v, option);
        if (n < 0) {
            throw new IllegalArgumentException(option + " must not be negative, not " + v);
        }
        return n;
    }

    private static double positiveDouble(String v, String option) {
        double d;
        try {
            d = Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " takes a number, not '" + v + "'");
        }
        if (!(d > 0) || Double.isInfinite(d)) {
            throw new IllegalArgumentException(option + " must be positive, not " + v);
        }
        return d;
    }

    private static double fraction(String v, String option) {
        double d;
        try {
            d = Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " takes a number, not '" + v + "'");
        }
        if (!(d >= 0 && d <= 1)) {
            throw new IllegalArgumentException(option + " must be between 0 and 1, not " + v);
        }
        return d;
    }
}
