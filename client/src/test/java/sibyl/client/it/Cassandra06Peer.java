package sibyl.client.it;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransportException;

/**
 * A real Apache Cassandra 0.6 node, started, flushed, compacted and stopped by the developers' peer-c06.sh.
 *
 * <p>peer-c06.sh rewrites a node's {@code conf/} from its BASE's template at every start, so each node has a BASE
 * of its own under the test's directory: the 0.6 build's classes and jars linked in, and the test's own
 * storage-conf.xml as the template (its directories, addresses, ports and commit log sync mode are then set by
 * peer-c06.sh). The node lives in {@code BASE/node-PORT} as peer-c06.sh lays it out.
 */
final class Cassandra06Peer implements AutoCloseable {
    /** Where the developers' peer-c06.sh is and the BASE it built 0.6.5 in; see {@link #locate}. */
    record Build(Path script, Path base) {
        /** 0.6's own sample storage-conf.xml, which the test's templates start from. */
        String sampleStorageConf() throws IOException {
            return Files.readString(base.resolve("src/conf/storage-conf.xml"));
        }
    }

    static final String HOW_TO_ENABLE = "no Cassandra 0.6 to compare with: set C06_PEER to the developers' peer-c06.sh and"
            + " C06_BASE to the BASE it built 0.6.5 in (or -Dc06.peer=... -Dc06.base=...)";

    /**
     * The 0.6 build named by the system properties {@code c06.peer} and {@code c06.base}, else the environment
     * variables {@code C06_PEER} and {@code C06_BASE}; empty when either is missing.
     *
     * @throws IllegalStateException when they are set but do not name a script and a 0.6.5 build
     */
    static Optional<Build> locate() throws IOException {
        String script = setting("c06.peer", "C06_PEER");
        String base = setting("c06.base", "C06_BASE");
        if (script == null || base == null) return Optional.empty();
        Build build = new Build(Path.of(script).toAbsolutePath(), Path.of(base).toAbsolutePath());
        if (!Files.isRegularFile(build.script())) throw new IllegalStateException("C06_PEER: no such file " + script);
        Path built = build.base().resolve("BUILT");
        if (!Files.isRegularFile(built) || !Files.readString(built).contains("version=0.6.5")) {
            throw new IllegalStateException("C06_BASE: " + base + " holds no 0.6.5 build (no BUILT file saying version=0.6.5);"
                    + " run peer-c06.sh build with BASE set to it");
        }
        return Optional.of(build);
    }

    private static String setting(String property, String variable) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) value = System.getenv(variable);
        return value == null || value.isBlank() ? null : value;
    }

    private final Build build;
    private final Path base;
    private final int port;
    private long pid = -1;

    /**
     * A node whose BASE is {@code base} (made here), Thrift on {@code port}, storage and JMX on the ports
     * peer-c06.sh derives from it, configured by {@code storageConf} (a template: peer-c06.sh moves its
     * directories and ports).
     */
    Cassandra06Peer(Build build, Path base, int port, String storageConf) throws IOException {
        this.build = build;
        this.base = base;
        this.port = port;
        Path conf = Files.createDirectories(base.resolve("src/conf"));
        Files.copy(build.base().resolve("BUILT"), base.resolve("BUILT"), StandardCopyOption.REPLACE_EXISTING);
        if (!Files.exists(base.resolve("classes"))) Files.createSymbolicLink(base.resolve("classes"), build.base().resolve("classes"));
        if (!Files.exists(base.resolve("src/lib"))) Files.createSymbolicLink(base.resolve("src/lib"), build.base().resolve("src/lib"));
        for (String f : List.of("log4j.properties", "access.properties", "passwd.properties")) {
            Path from = build.base().resolve("src/conf").resolve(f);
            if (Files.exists(from)) Files.copy(from, conf.resolve(f), StandardCopyOption.REPLACE_EXISTING);
        }
        reconfigure(storageConf);
    }

    /** Replaces the template the next start writes the node's conf/storage-conf.xml from. */
    void reconfigure(String storageConf) throws IOException {
        Files.writeString(base.resolve("src/conf/storage-conf.xml"), storageConf);
    }

    int thriftPort() {
        return port;
    }

    int jmxPort() {
        return 8261 + (port - 9261);
    }

    /** The node's directory: conf/, data/data, data/commitlog, log/. */
    Path node() {
        return base.resolve("node-" + port);
    }

    Path data() {
        return node().resolve("data/data");
    }

    Path commitLog() {
        return node().resolve("data/commitlog");
    }

    /** The storage-conf.xml the node last started with (peer-c06.sh's rewrite of the template). */
    String storageConf() throws IOException {
        return Files.readString(node().resolve("conf/storage-conf.xml"));
    }

    Path log() {
        return node().resolve("log/system.log");
    }

    /**
     * Starts the node in batch commit log mode (every acknowledged write fsynced), on empty directories when
     * {@code fresh}, and waits until its Thrift port answers.
     */
    void start(boolean fresh) throws IOException, InterruptedException {
        String out = run(Duration.ofSeconds(150), Map.of("FRESH", fresh ? "1" : "0", "COMMITLOG_SYNC", "batch",
                "HEAP", "512M"), "start", String.valueOf(port));
        String[] lines = out.strip().split("\n");
        pid = Long.parseLong(lines[lines.length - 1].strip());
    }

    /** peer-c06.sh nodetool: 0.6's own NodeCmd over JMX (flush KS, compact, cfstats, ...); its output. */
    String nodetool(String... command) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("nodetool", String.valueOf(port)));
        args.addAll(List.of(command));
        return run(Duration.ofSeconds(120), Map.of(), args.toArray(String[]::new));
    }

    /**
     * Waits until the node's flushes and compactions are done: its thread pools and compaction manager idle
     * for a second, and no column family of {@code families} ({@code Keyspace.ColumnFamily}) holding more
     * SSTables than {@code maxSSTables} (use {@link Integer#MAX_VALUE} not to wait for that).
     */
    void awaitQuiet(Set<String> families, int maxSSTables, Duration limit) throws IOException, InterruptedException {
        JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + jmxPort() + "/jmxrmi");
        long deadline = System.nanoTime() + limit.toNanos();
        try (JMXConnector connector = JMXConnectorFactory.connect(url)) {
            MBeanServerConnection jmx = connector.getMBeanServerConnection();
            int quietPolls = 0;
            while (quietPolls < 5) {
                if (System.nanoTime() > deadline) throw new IllegalStateException("0.6 on " + port + " still busy after " + limit);
                quietPolls = busy(jmx, families, maxSSTables) ? 0 : quietPolls + 1;
                Thread.sleep(200);
            }
        } catch (JMException e) {
            throw new IOException("JMX of 0.6 on " + port + ": " + e, e);
        }
    }

    private static boolean busy(MBeanServerConnection jmx, Set<String> families, int maxSSTables)
            throws IOException, JMException {
        for (ObjectName pool : jmx.queryNames(new ObjectName("org.apache.cassandra.concurrent:*"), null)) {
            long work = ((Number) jmx.getAttribute(pool, "ActiveCount")).longValue()
                    + ((Number) jmx.getAttribute(pool, "PendingTasks")).longValue();
            if (work > 0) return true;
        }
        ObjectName compactions = new ObjectName("org.apache.cassandra.db:type=CompactionManager");
        if (jmx.getAttribute(compactions, "ColumnFamilyInProgress") != null) return true;
        if (((Number) jmx.getAttribute(compactions, "PendingTasks")).intValue() > 0) return true;
        for (String family : families) {
            String[] ksCf = family.split("\\.");
            ObjectName store = new ObjectName("org.apache.cassandra.db:type=ColumnFamilyStores,keyspace=" + ksCf[0]
                    + ",columnfamily=" + ksCf[1]);
            if (((Number) jmx.getAttribute(store, "LiveSSTableCount")).intValue() > maxSSTables) return true;
        }
        return false;
    }

    /** SIGKILL, as a crash stops a node: no drain, no flush. Waits until the process is gone. */
    void kill() throws InterruptedException {
        if (pid < 0) return;
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isPresent()) {
            process.get().destroyForcibly();
            try {
                process.get().onExit().get(60, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException("0.6 node " + pid + " did not exit on SIGKILL", e);
            }
        }
        pid = -1;
        try {
            Files.deleteIfExists(node().resolve("pid"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** peer-c06.sh stop: nodetool drain (0.6's clean stop), then SIGTERM. */
    void stop() throws IOException, InterruptedException {
        if (pid < 0) return;
        run(Duration.ofSeconds(180), Map.of(), "stop", String.valueOf(port));
        pid = -1;
    }

    boolean running() {
        return pid >= 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /** Kills the node if it still runs (a test's clean-up). */
    @Override
    public void close() throws InterruptedException {
        kill();
    }

    /** An open unframed client (0.6's default transport); close it with {@link #close(Cassandra.Client)}. */
    Cassandra.Client client() throws TTransportException {
        TSocket socket = new TSocket("127.0.0.1", port, 60_000);
        socket.open();
        return new Cassandra.Client(new TBinaryProtocol(socket));
    }

    static void close(Cassandra.Client client) {
        client.getInputProtocol().getTransport().close();
    }

    /** Copies {@code from}'s files (a data or commit log directory) to {@code to}, names and times kept. */
    static void copyTree(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        if (!Files.exists(from)) return;
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) Files.createDirectories(target);
                else Files.copy(f, target, StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
    }

    private String run(Duration limit, Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", build.script().toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(Files.createDirectories(base.resolve("calls")), args[0], ".out");
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.appendTo(base.resolve("calls/stderr.log").toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().put("BASE", base.toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("peer-c06.sh " + String.join(" ", args) + " did not finish within " + limit);
        }
        String output = Files.readString(out);
        if (p.exitValue() != 0) {
            throw new IllegalStateException("peer-c06.sh " + String.join(" ", args) + " exited with " + p.exitValue() + ":\n"
                    + output + "\n" + tail(base.resolve("calls/stderr.log")) + "\n(node log: " + log() + ")");
        }
        return output;
    }

    private static String tail(Path file) throws IOException {
        if (!Files.exists(file)) return "";
        List<String> lines = Files.readAllLines(file);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }
}
