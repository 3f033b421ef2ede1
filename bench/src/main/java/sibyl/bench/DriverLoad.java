package sibyl.bench;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.Statement;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import sibyl.client.stress.Pacer;

/**
 * The load of bin/stress, sent straight to Cassandra through java-driver, as an application written
 * for CQL would send it: for bench/run-cluster-compare, which runs it next to bin/stress against a
 * Sibyl node in cluster mode over the same Cassandra, the same table and the same rows.
 *
 * <pre>DriverLoad --contact HOST:PORT [--dc DC] --table KS.CF -o insert|read|range -c COLUMNS -n KEYS
 *           -t THREADS -d SECONDS [--warmup SECONDS] [-S VALUE_SIZE] [--range-count ROWS] [--connections N]
 *           [--rate OPS] [--cpu-pid PID]...</pre>
 *
 * <ul>
 *   <li>insert: the row's {@code -c} columns C0, C1, ... with the client's timestamp: one UPDATE for one
 *       column, an unlogged batch of the row's UPDATEs (one partition) for more;
 *   <li>read: the row's first {@code -c} columns, {@code SELECT column1, value ... LIMIT c};
 *   <li>range: the first {@code -c} columns of {@code --range-count} rows (100) from the key's token on, in one
 *       query ({@code PER PARTITION LIMIT c LIMIT c * rows}), as a CQL application reads what a 0.6
 *       get_range_slices does.
 * </ul>
 *
 * Keys are bin/stress's ({@code 0000000123}, uniform over 0..KEYS-1), values as long as its. {@code -t}
 * threads each wait for one request at a time, as the blocking clients of 0.6 did; they share one
 * session, whose connections ({@code --connections} per node, 1 as the driver and Sibyl have it) carry
 * their requests; with {@code --rate} each thread starts its requests on a schedule of its own, an equal share
 * of that rate (bin/stress's --rate), so that both clients can be compared at one request rate. The summary is
 * bin/stress's two lines ({@code Done: ...}, {@code Latency (ms): ...}), so the bench scripts read both alike,
 * and a third with the CPU time per request of this process and
 * of each {@code --cpu-pid} over the measured seconds only: {@code --warmup} seconds of load before them
 * (this JVM's compiler at work) and the session's start (its schema queries) are left out.
 */
public final class DriverLoad {
    /** USER_HZ: the unit of /proc/PID/stat's times on Linux, 100 on every common kernel. */
    private static final int CLOCK_TICKS = Integer.getInteger("clock.ticks", 100);
    private final CqlSession session;
    private final Options options;
    private final PreparedStatement update;
    private final PreparedStatement read;
    private final PreparedStatement range;

    private DriverLoad(CqlSession session, Options options) {
        this.session = session;
        this.options = options;
        String table = options.table();
        this.update = session.prepare("UPDATE " + table + " USING TIMESTAMP ? SET value = ? WHERE key = ? AND column1 = ?");
        this.read = session.prepare("SELECT column1, value FROM " + table + " WHERE key = ? LIMIT ?");
        this.range = session.prepare("SELECT key, column1, value FROM " + table
                + " WHERE token(key) >= token(?) PER PARTITION LIMIT ? LIMIT ?");
    }

    record Options(String host, int port, String datacenter, String table, String operation, int columns, long keys,
                   int threads, int seconds, int warmupSeconds, int valueSize, int connections, List<Long> cpuPids,
                   int rangeRows, double rate) {
        /** Nanoseconds between the starts of one thread's requests under --rate; 0 without it. */
        long pacingNanos() {
            return rate > 0 ? Math.round(threads * 1e9 / rate) : 0;
        }
    }

    public static void main(String[] args) throws Exception {
        Options options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("DriverLoad: " + e.getMessage());
            System.exit(2);
            return;
        }
        DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(30)) // as the script gives Sibyl
                .withString(DefaultDriverOption.REQUEST_CONSISTENCY, DefaultConsistencyLevel.ONE.name())
                .withInt(DefaultDriverOption.CONNECTION_POOL_LOCAL_SIZE, options.connections())
                .build();
        try (CqlSession session = CqlSession.builder().withConfigLoader(config)
                .addContactPoint(new InetSocketAddress(options.host(), options.port()))
                .withLocalDatacenter(options.datacenter()).build()) {
            new DriverLoad(session, options).run();
        }
    }

    private void run() throws IOException, InterruptedException {
        if (options.warmupSeconds() > 0) load(options.warmupSeconds()); // this JVM's compiler, not measured
        Map<Long, Long> serverTicks = new LinkedHashMap<>();
        for (long pid : options.cpuPids()) serverTicks.put(pid, cpuTicks(pid));
        long clientNanos = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        long start = System.nanoTime();
        Worker[] workers = load(options.seconds());
        double seconds = (System.nanoTime() - start) / 1e9;
        clientNanos = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime() - clientNanos;
        serverTicks.replaceAll((pid, before) -> cpuTicksOrZero(pid) - before);
        long[] all = merge(workers);
        long errors = 0;
        for (Worker w : workers) errors += w.errors;
        Arrays.sort(all);
        System.out.println(String.format(Locale.ROOT, "Done: %d %s operations in %.2f s (%.0f ops/s), %d errors",
                all.length, options.operation(), seconds, all.length / seconds, errors));
        System.out.println(String.format(Locale.ROOT,
                "Latency (ms): mean %.3f, p50 %.3f, p95 %.3f, p99 %.3f, p99.9 %.3f, max %.3f",
                mean(all) / 1000, percentile(all, 50) / 1000.0, percentile(all, 95) / 1000.0,
                percentile(all, 99) / 1000.0, percentile(all, 99.9) / 1000.0,
                (all.length == 0 ? 0 : all[all.length - 1]) / 1000.0));
        // CPU over the measured seconds only: the session's start (schema queries) and the warm-up left out
        StringBuilder cpu = new StringBuilder(String.format(Locale.ROOT, "CPU (µs/op): client %.1f",
                all.length == 0 ? 0 : clientNanos / 1000.0 / all.length));
        serverTicks.forEach((pid, ticks) -> cpu.append(String.format(Locale.ROOT, ", pid %d %.1f", pid,
                all.length == 0 ? 0 : ticks * 1e6 / CLOCK_TICKS / all.length)));
        System.out.println(cpu);
    }

    /** Runs the load for {@code seconds} from every thread; returns the threads with their latencies. */
    private Worker[] load(int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        Worker[] workers = new Worker[options.threads()];
        for (int i = 0; i < workers.length; i++) {
            // under --rate the threads' schedules are spread over one period, not started together
            long firstSlot = System.nanoTime() + options.pacingNanos() * i / workers.length;
            workers[i] = new Worker(new SplittableRandom(System.nanoTime() + i), deadline, firstSlot);
            workers[i].start();
        }
        for (Worker w : workers) w.join();
        return workers;
    }

    /** user + system time of a process, in clock ticks ({@code /proc/PID/stat} fields 14 and 15). */
    private static long cpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    private static long cpuTicksOrZero(long pid) {
        try {
            return cpuTicks(pid);
        } catch (IOException e) {
            return 0;
        }
    }

    /** One blocking client: a request, its answer, the next. Latencies in microseconds. */
    private final class Worker extends Thread {
        private final SplittableRandom random;
        private final long deadline;
        /** Null when the load is not paced. */
        private final Pacer pacer;
        private long[] latencies = new long[1 << 14];
        private int count;
        private long errors;

        Worker(SplittableRandom random, long deadline, long firstSlot) {
            super("driver-load");
            this.random = random;
            this.deadline = deadline;
            long pacing = options.pacingNanos();
            this.pacer = pacing > 0 ? new Pacer(pacing, firstSlot) : null;
        }

        @Override
        public void run() {
            while (true) {
                if (pacer != null) pacer.await(() -> System.nanoTime() - deadline >= 0);
                long key = random.nextLong(options.keys());
                Statement<?> statement = switch (options.operation()) {
                    case "insert" -> insert(key);
                    case "range" -> range(key);
                    default -> read(key);
                };
                long t0 = System.nanoTime();
                if (t0 >= deadline) return;
                try {
                    ResultSet rs = session.execute(statement);
                    for (Row r : rs) r.getBytesUnsafe(1); // the values, as a client reads them
                } catch (RuntimeException e) {
                    errors++;
                    continue;
                }
                if (count == latencies.length) latencies = Arrays.copyOf(latencies, count * 2);
                latencies[count++] = (System.nanoTime() - t0) / 1000;
            }
        }
    }

    private Statement<?> insert(long key) {
        long micros = System.currentTimeMillis() * 1000;
        ByteBuffer k = ByteBuffer.wrap(key(key));
        if (options.columns() == 1) return bindUpdate(micros, k, key, 0);
        BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.UNLOGGED);
        for (int c = 0; c < options.columns(); c++) batch.addStatement(bindUpdate(micros, k, key, c));
        return batch.build();
    }

    private BoundStatement bindUpdate(long micros, ByteBuffer key, long index, int column) {
        return update.boundStatementBuilder().setLong(0, micros).setBytesUnsafe(1, ByteBuffer.wrap(value(index, column)))
                .setBytesUnsafe(2, key).setBytesUnsafe(3, ByteBuffer.wrap(("C" + column).getBytes(StandardCharsets.US_ASCII)))
                .build();
    }

    private Statement<?> read(long key) {
        return read.boundStatementBuilder().setBytesUnsafe(0, ByteBuffer.wrap(key(key))).setInt(1, options.columns())
                .build();
    }

    /** The first {@code -c} columns of {@code --range-count} rows from the key's token on: bin/stress's range_slice. */
    private Statement<?> range(long key) {
        return range.boundStatementBuilder().setBytesUnsafe(0, ByteBuffer.wrap(key(key))).setInt(1, options.columns())
                .setInt(2, options.columns() * options.rangeRows()).build();
    }

    /** bin/stress's key: the number, zero-padded to ten digits. */
    static byte[] key(long index) {
        byte[] key = new byte[10];
        long rest = index;
        for (int i = key.length - 1; i >= 0; i--, rest /= 10) key[i] = (byte) ('0' + rest % 10);
        return key;
    }

    private byte[] value(long key, int column) {
        byte[] v = new byte[options.valueSize()];
        long state = key * 31 + column;
        for (int i = 0; i < v.length; i++) {
            state = state * 6364136223846793005L + 1442695040888963407L;
            v[i] = (byte) ('a' + (int) ((state >>> 33) % 26));
        }
        return v;
    }

    private static long[] merge(Worker[] workers) {
        int n = 0;
        for (Worker w : workers) n += w.count;
        long[] all = new long[n];
        int at = 0;
        for (Worker w : workers) {
            System.arraycopy(w.latencies, 0, all, at, w.count);
            at += w.count;
        }
        return all;
    }

    private static double mean(long[] sorted) {
        if (sorted.length == 0) return 0;
        double sum = 0;
        for (long v : sorted) sum += v;
        return sum / sorted.length;
    }

    private static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) return 0;
        int i = (int) Math.ceil(p / 100 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private static Options parse(String[] args) {
        String contact = null;
        String dc = "datacenter1";
        String table = null;
        String op = "insert";
        int columns = 1;
        long keys = 100_000;
        int threads = 32;
        int seconds = 10;
        int warmup = 0;
        int valueSize = 34;
        int connections = 1;
        List<Long> pids = new ArrayList<>();
        int rangeRows = 100;
        double rate = 0;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                throw new IllegalArgumentException("usage: DriverLoad --contact HOST:PORT [--dc DC] --table KS.CF"
                        + " -o insert|read|range -c COLUMNS -n KEYS -t THREADS -d SECONDS [--warmup SECONDS] [-S VALUE_SIZE]"
                        + " [--range-count ROWS] [--connections N] [--rate OPS] [--cpu-pid PID]...");
            }
            if (i + 1 >= args.length) throw new IllegalArgumentException("missing value after " + a);
            String v = args[++i];
            switch (a) {
                case "--contact" -> contact = v;
                case "--dc" -> dc = v;
                case "--table" -> table = v;
                case "-o" -> op = v;
                case "-c" -> columns = Integer.parseInt(v);
                case "-n" -> keys = Long.parseLong(v);
                case "-t" -> threads = Integer.parseInt(v);
                case "-d" -> seconds = Integer.parseInt(v);
                case "-S" -> valueSize = Integer.parseInt(v);
                case "--connections" -> connections = Integer.parseInt(v);
                case "--warmup" -> warmup = Integer.parseInt(v);
                case "--cpu-pid" -> pids.add(Long.parseLong(v));
                case "--range-count" -> rangeRows = Integer.parseInt(v);
                case "--rate" -> rate = Double.parseDouble(v);
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (contact == null || !contact.contains(":")) throw new IllegalArgumentException("--contact HOST:PORT is required");
        if (table == null) throw new IllegalArgumentException("--table KS.CF is required");
        if (!List.of("insert", "read", "range").contains(op)) {
            throw new IllegalArgumentException("-o is insert, read or range, not " + op);
        }
        if (rate < 0 || Double.isNaN(rate)) {
            throw new IllegalArgumentException("--rate is a number of requests a second, not " + rate);
        }
        int colon = contact.lastIndexOf(':');
        return new Options(contact.substring(0, colon), Integer.parseInt(contact.substring(colon + 1)), dc, table, op,
                columns, keys, threads, seconds, warmup, valueSize, connections, List.copyOf(pids), rangeRows, rate);
    }
}
