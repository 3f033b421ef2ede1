package sibyl.client.stress;

import java.util.List;
import java.util.Locale;
import org.apache.cassandra.thrift.ConsistencyLevel;
import sibyl.client.HostAddress;
import sibyl.client.tool.CommandLine;
import sibyl.client.tool.CommandLine.Arguments;
import sibyl.client.tool.CommandLine.Option;

/** The stress tool's command line. */
record StressOptions(
        Operation operation, long numKeys, Long count, Double durationSeconds, int threads, int columns,
        int valueSize, boolean superFamily, int supers, ConsistencyLevel consistency, String distribution,
        double stdevFraction, double readRatio, int rangeCount, int keysPerMultiget, String keyspace,
        String columnFamily, List<HostAddress> hosts, boolean framed, double intervalSeconds, String csvFile,
        boolean verify, long seed, int timeoutSeconds, int eventLoops, Double rate, Dialect dialect,
        boolean redis) {

    /** Where Redis listens unless told otherwise. */
    static final int REDIS_DEFAULT_PORT = 6379;

    static final String USAGE = """
            Usage: stress [options]
              -o, --operation OP       insert, read, range_slice, multiget, mixed, insert_column,
                                       get_column or add (default insert; insert_column with --redis). insert
                                       is batch_mutate of a row's columns, read get_slice of them;
                                       insert_column is the plain Thrift insert of one column, C0 (in
                                       super column S0 with -y super), get_column the plain get of
                                       that column; add (--dialect 0.7) adds 1 to counter C0 (in S0
                                       with -y super) of a counter column family; the three take
                                       only -c 1 and --supers 1, their defaults
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
                  --distribution D     uniform, gaussian or sequential (default: sequential for insert
                                       and insert_column, uniform otherwise)
                  --stdev F            gaussian: standard deviation as a fraction of N (default 0.1)
                  --read-ratio F       mixed: fraction of operations that read (default 0.5)
                  --range-count N      range_slice: rows per call (default 100)
                  --keys-per-multiget N multiget: keys per call (default 10)
              -K, --keyspace KS        (default Keyspace1)
              -C, --column-family CF   (default Standard1, or Super1 with -y super; for add Counter1,
                                       or SuperCounter1 with -y super)
              -h, --host HOST[,HOST..] servers; threads spread over them, each failing over to the next
                                       (default localhost)
              -p, --port PORT          (default 9160; 6379 with --redis)
                  --framed             framed transport
                  --dialect D          0.6 (default): Cassandra 0.6's calls, as Sibyl serves them;
                                       0.7: those of Cassandra 0.7 to 3.11 (set_keyspace once per
                                       connection, then calls without a keyspace), to measure a real
                                       Cassandra 3.11 with the same client; needs --framed and
                                       consistency ONE, QUORUM, ALL or ANY
                  --redis              speak Redis's RESP2 to a Redis server instead of Thrift, to measure
                                       it with the same client: insert_column sends SET <key> <value>,
                                       get_column GET <key>, with the keys and values (-S) the Thrift
                                       calls send; takes no other operation, and none of -y, --supers,
                                       -e, -K, -C, --framed, --dialect
              -i, --interval SECONDS   progress report interval (default 1)
                  --csv FILE           also write each interval as a CSV row to FILE
                  --verify             check the values read; count mismatches
                  --seed N             random seed (default: from the clock; printed)
                  --timeout SECONDS    how long one call may wait for its reply (default 10)
                  --help               this text
            Exit status: 0 when every operation succeeded (and --verify found no mismatch), 1 otherwise,
            2 for bad options or when the threads could not connect.""";

    static final CommandLine COMMAND_LINE = new CommandLine("stress", USAGE, false,
            Option.value("-o", "--operation"), Option.value("-n", "--num-keys"), Option.value("--count"),
            Option.value("-d", "--duration"), Option.value("-t", "--threads"), Option.value("-c", "--columns"),
            Option.value("-S", "--value-size"), Option.value("-y", "--family-type"), Option.value("--supers"),
            Option.value("-e", "--consistency"), Option.value("--distribution"), Option.value("--stdev"),
            Option.value("--read-ratio"), Option.value("--range-count"), Option.value("--keys-per-multiget"),
            Option.value("-K", "--keyspace"), Option.value("-C", "--column-family"), Option.value("-h", "--host"),
            Option.value("-p", "--port"), Option.flag("--framed"), Option.value("-i", "--interval"),
            Option.value("--csv"), Option.flag("--verify"), Option.value("--seed"), Option.value("--timeout"),
            Option.value("--event-loops"), Option.value("--rate"), Option.value("--dialect"), Option.flag("--redis"));

    /** The options of a command line {@link #COMMAND_LINE} parsed. */
    static StressOptions of(Arguments args) {
        boolean redis = args.has("--redis");
        Operation operation = args.value("--operation", Operation::parse,
                redis ? Operation.INSERT_COLUMN : Operation.INSERT);
        if (redis) {
            checkRedis(args, operation);
        }
        long numKeys = args.positiveLong("--num-keys", 1_000_000);
        Long count = args.has("--count") ? args.positiveLong("--count", 0) : null;
        Double duration = args.has("--duration") ? args.positiveDouble("--duration", 0) : null;
        int threads = args.positiveInt("--threads", 50);
        int columns = args.positiveInt("--columns", operation.singleColumn() ? 1 : 5);
        int valueSize = args.nonNegativeInt("--value-size", 34);
        boolean superFamily = args.value("--family-type", StressOptions::familyType, false);
        int supers = args.positiveInt("--supers", 1);
        if (operation.singleColumn() && (columns != 1 || supers != 1)) {
            throw new IllegalArgumentException("-o " + operation.label() + " sends one column per call; "
                    + (columns != 1 ? "-c must be 1, not " + columns : "--supers must be 1, not " + supers));
        }
        ConsistencyLevel consistency = args.value("--consistency", StressOptions::consistency, ConsistencyLevel.ONE);
        String distribution = args.value("--distribution", isWrite(operation) ? "sequential" : "uniform");
        double stdev = args.positiveDouble("--stdev", 0.1);
        KeyDistribution.of(distribution, numKeys, stdev); // validates the name
        double readRatio = args.fraction("--read-ratio", 0.5);
        int rangeCount = args.positiveInt("--range-count", 100);
        int keysPerMultiget = args.positiveInt("--keys-per-multiget", 10);
        String keyspace = args.value("--keyspace", "Keyspace1");
        String columnFamily = args.value("--column-family", operation == Operation.ADD
                ? (superFamily ? "SuperCounter1" : "Counter1") : superFamily ? "Super1" : "Standard1");
        int port = args.positiveInt("--port", redis ? REDIS_DEFAULT_PORT : HostAddress.DEFAULT_PORT);
        List<HostAddress> hosts = HostAddress.parseList(args.value("--host", "localhost"), port);
        double interval = args.positiveDouble("--interval", 1);
        long seed = args.longValue("--seed", System.nanoTime());
        int timeout = args.nonNegativeInt("--timeout", 10);
        int eventLoops = args.positiveInt("--event-loops", 0);
        Double rate = args.has("--rate") ? args.positiveDouble("--rate", 0) : null;
        Dialect dialect = args.value("--dialect", Dialect::parse, Dialect.V0_6);
        dialect.check(args.has("--framed"), consistency);
        if (operation == Operation.ADD && dialect != Dialect.V0_7) {
            throw new IllegalArgumentException("-o add is a call of Cassandra 0.7 and later: add --dialect 0.7");
        }
        return new StressOptions(operation, numKeys, count, duration, threads, columns, valueSize, superFamily,
                supers, consistency, distribution.toLowerCase(Locale.ROOT), stdev, readRatio, rangeCount,
                keysPerMultiget, keyspace, columnFamily, hosts, args.has("--framed"), interval,
                args.value("--csv", null), args.has("--verify"), seed, timeout, eventLoops, rate, dialect, redis);
    }

    /**
     * Refuses what --redis cannot send: operations other than SET and GET, and the options of Cassandra's data model
     * and transport, which Redis has no counterpart of (a run would silently ignore them).
     */
    private static void checkRedis(Arguments args, Operation operation) {
        if (!operation.singleColumn() || operation == Operation.ADD) {
            throw new IllegalArgumentException("--redis sends SET and GET only: use -o insert_column or -o get_column, "
                    + "not -o " + operation.label());
        }
        String[][] cassandraOnly = {
            {"--family-type", "-y", "super columns"}, {"--supers", "--supers", "super columns"},
            {"--consistency", "-e", "consistency levels"}, {"--keyspace", "-K", "keyspaces"},
            {"--column-family", "-C", "column families"}, {"--framed", "--framed", "Thrift framing"},
            {"--dialect", "--dialect", "Thrift dialects"}};
        for (String[] option : cassandraOnly) {
            if (args.has(option[0])) {
                throw new IllegalArgumentException("--redis takes no " + option[1] + ": Redis has no " + option[2]);
            }
        }
    }

    /** How this run's calls go on the wire: a new codec, for one connection. */
    DialectCodec codec() {
        return redis ? new RespCodec() : dialect.codec(keyspace, consistency);
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

    private static boolean isWrite(Operation operation) {
        return operation == Operation.INSERT || operation == Operation.INSERT_COLUMN;
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
}
