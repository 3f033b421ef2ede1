package sibyl.client.stress;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import sibyl.client.ClientException;
import sibyl.client.HostAddress;
import sibyl.client.tool.CommandLine.Arguments;

/**
 * A load generator for the Cassandra 0.6 interface in the manner of 0.6's py_stress: threads with a
 * connection each run inserts, reads, range slices, multigets, or plain inserts and gets of one column, for a
 * number of operations or a time, and a line of throughput and latency is printed every interval. With --redis the
 * plain inserts and gets go to a Redis server as SET and GET, so that Redis is measured with the same client.
 */
public final class Stress {
    /** The largest reply a connection accepts: the client library's default limit. */
    private static final int MAX_REPLY_BYTES = 64 * 1024 * 1024;
    /** How long a connect may take: the client library's default. */
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;

    private final StressOptions options;
    private final PrintStream out;

    Stress(StressOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs as {@code main} would with the given streams; returns the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        StressOptions options;
        try {
            Arguments arguments = StressOptions.COMMAND_LINE.parse(args);
            if (arguments.help()) {
                return StressOptions.COMMAND_LINE.printUsage(out);
            }
            options = StressOptions.of(arguments);
        } catch (IllegalArgumentException e) {
            return StressOptions.COMMAND_LINE.refuse(err, e.getMessage());
        }
        StressResult result;
        try {
            result = new Stress(options, out).execute();
        } catch (ClientException e) {
            err.println("stress: cannot start: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println("stress: cannot write " + options.csvFile() + ": " + e.getMessage());
            return 2;
        }
        return result.errors() > 0 || result.mismatches() > 0 ? 1 : 0;
    }

    /** Connects every thread, runs the load, prints progress and the summary. */
    StressResult execute() throws IOException {
        KeyDistribution keys = KeyDistribution.of(options.distribution(), options.numKeys(), options.stdevFraction());
        Long ops = options.operationBudget();
        AtomicLong budget = ops == null ? null : new AtomicLong(ops);
        AtomicBoolean stop = new AtomicBoolean();
        StressCounters counters = new StressCounters();
        List<LatencyRecorder> recorders = new ArrayList<>();
        List<Runnable> loads = options.eventLoops() > 0
                ? eventLoops(keys, counters, recorders, budget, stop)
                : threadPerConnection(keys, counters, recorders, budget, stop);
        CountDownLatch finished = new CountDownLatch(loads.size());
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < loads.size(); i++) {
            Runnable load = loads.get(i);
            Thread t = new Thread(() -> {
                try {
                    load.run();
                } finally {
                    finished.countDown();
                }
            }, "stress-" + i);
            t.setDaemon(true);
            threads.add(t);
        }
        out.println(banner(keys));
        try (ProgressReport report = new ProgressReport(out, options.csvFile())) {
            report.header();
            long start = System.nanoTime();
            threads.forEach(Thread::start);
            return monitor(report, start, recorders, counters, finished, stop);
        } finally {
            stop.set(true);
        }
    }

    private StressResult monitor(ProgressReport report, long start, List<LatencyRecorder> recorders,
                                 StressCounters counters, CountDownLatch finished, AtomicBoolean stop)
            throws IOException {
        long intervalNanos = (long) (options.intervalSeconds() * 1e9);
        long deadline = options.durationSeconds() == null ? Long.MAX_VALUE
                : start + (long) (options.durationSeconds() * 1e9);
        LatencyHistogram total = new LatencyHistogram();
        LatencyHistogram interval = new LatencyHistogram();
        long lastTick = start;
        long errorsSeen = 0;
        boolean done = false;
        while (!done) {
            long nextTick = Math.min(lastTick + intervalNanos, deadline);
            done = awaitUntil(finished, nextTick);
            long now = System.nanoTime();
            if (!done && now >= deadline) {
                stop.set(true);
                awaitUntil(finished, Long.MAX_VALUE);
                done = true;
                now = System.nanoTime();
            }
            interval.reset();
            for (LatencyRecorder r : recorders) {
                r.drainInto(interval);
            }
            total.add(interval);
            long errors = counters.errors.sum();
            report.interval((now - start) / 1e9, total.count(), interval, (now - lastTick) / 1e9, errors - errorsSeen);
            errorsSeen = errors;
            lastTick = now;
        }
        StressResult result = new StressResult(total.count(), counters.errors.sum(), counters.mismatches.sum(),
                counters.missingRows.sum(), (lastTick - start) / 1e9, total, counters.firstError());
        report.summary(options, result);
        return result;
    }

    /** Waits for the workers until {@code nanoTime} reaches {@code until}; true if they all finished. */
    private static boolean awaitUntil(CountDownLatch finished, long until) {
        try {
            if (until == Long.MAX_VALUE) {
                finished.await();
                return true;
            }
            return finished.await(Math.max(0, until - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    /**
     * A thread and a blocking connection per client, each connected now so that an unreachable server or a refused
     * handshake stops the run before it begins; with --timeout, one more thread that gives up calls waiting longer.
     */
    private List<Runnable> threadPerConnection(KeyDistribution keys, StressCounters counters,
                                               List<LatencyRecorder> recorders, AtomicLong budget, AtomicBoolean stop) {
        List<BlockingConnection> connections = new ArrayList<>();
        List<Runnable> workers = new ArrayList<>();
        try {
            List<HostAddress> hosts = options.hosts();
            for (int i = 0; i < options.threads(); i++) {
                // Each thread starts with a different host of the list.
                List<HostAddress> order = new ArrayList<>(hosts.size());
                for (int j = 0; j < hosts.size(); j++) {
                    order.add(hosts.get((i + j) % hosts.size()));
                }
                StressCalls calls = new StressCalls(options, keys, options.seed() + i, counters);
                BlockingConnection connection = new BlockingConnection(order, options.framed(), MAX_REPLY_BYTES,
                        CONNECT_TIMEOUT_MILLIS, calls.handshake());
                connections.add(connection);
                connection.ensureOpen();
                LatencyRecorder recorder = new LatencyRecorder();
                recorders.add(recorder);
                workers.add(new StressWorker(connection, calls, recorder, counters, budget, stop,
                        options.pacingNanos(), options.pacingNanos() * i / options.threads()));
            }
        } catch (ClientException e) {
            connections.forEach(BlockingConnection::finish);
            throw e;
        }
        if (options.timeoutSeconds() > 0) {
            Thread timeouts = new Thread(new CallTimeouts(connections, options.timeoutSeconds()), "stress-timeouts");
            timeouts.setDaemon(true);
            timeouts.start();
        }
        return workers;
    }

    /** Connection i goes to host i mod hosts and to event loop i mod loops. */
    private List<Runnable> eventLoops(KeyDistribution keys, StressCounters counters, List<LatencyRecorder> recorders,
                                      AtomicLong budget, AtomicBoolean stop) throws IOException {
        int loopCount = Math.min(options.eventLoops(), options.threads());
        List<List<LoopConnection>> perLoop = new ArrayList<>();
        for (int l = 0; l < loopCount; l++) {
            perLoop.add(new ArrayList<>());
        }
        List<HostAddress> hosts = options.hosts();
        for (int i = 0; i < options.threads(); i++) {
            perLoop.get(i % loopCount).add(new LoopConnection(hosts.get(i % hosts.size()),
                    new StressCalls(options, keys, options.seed() + i, counters), options.framed(),
                    MAX_REPLY_BYTES));
        }
        List<Runnable> loops = new ArrayList<>();
        try {
            for (List<LoopConnection> connections : perLoop) {
                LatencyRecorder recorder = new LatencyRecorder();
                recorders.add(recorder);
                loops.add(new StressEventLoop(connections, recorder, counters, budget, stop,
                        options.timeoutSeconds(), options.pacingNanos()));
            }
        } catch (ClientException | IOException e) {
            perLoop.forEach(connections -> connections.forEach(LoopConnection::close));
            throw e;
        }
        return loops;
    }

    private String banner(KeyDistribution keys) {
        if (options.redis()) {
            return String.format(Locale.ROOT, "Stress: %s as Redis %s at %s, %s, %s, keys 0..%d (%s), values of %d "
                    + "bytes, seed %d", options.operation().label(),
                    options.operation() == Operation.INSERT_COLUMN ? "SET" : "GET", hostsLabel(), connectionsLabel(),
                    amountLabel(), options.numKeys() - 1, keys.label(), options.valueSize(), options.seed());
        }
        String shape = options.superFamily()
                ? options.supers() + " super columns of " + options.columns() + " columns"
                : options.columns() + " columns";
        return String.format(Locale.ROOT,
                "Stress: %s on %s.%s at %s, %s, %s, keys 0..%d (%s), %s of %d bytes, CL %s, seed %d%s",
                options.operation().label(), options.keyspace(), options.columnFamily(), hostsLabel(),
                connectionsLabel(), amountLabel(), options.numKeys() - 1, keys.label(), shape, options.valueSize(),
                options.consistency(), options.seed(),
                options.dialect() == Dialect.V0_6 ? "" : ", dialect " + options.dialect().label());
    }

    private String hostsLabel() {
        List<HostAddress> hosts = options.hosts();
        return hosts.get(0) + (hosts.size() > 1 ? " (+" + (hosts.size() - 1) + " more)" : "");
    }

    private String connectionsLabel() {
        return options.eventLoops() > 0
                ? options.threads() + " connections on " + Math.min(options.eventLoops(), options.threads())
                        + " event loops"
                : options.threads() + " threads";
    }

    private String amountLabel() {
        return options.durationSeconds() != null
                ? String.format(Locale.ROOT, "for %.1f s", options.durationSeconds())
                : options.operationBudget() + " operations";
    }
}
