package sibyl.it;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real Apache Cassandra 5 ring of one or two nodes (127.0.0.1, 127.0.0.2) for tests, run by
 * bin/cassandra-local under target/cassandra-tests/ on free ports. {@link #shared()} is the one
 * node every cluster-mode test of this JVM uses, started on first use and killed when the JVM
 * exits; failure tests start rings of their own.
 */
public final class LocalCassandra implements AutoCloseable {
    /** How long one node may take to serve CQL: generous, for a loaded two-core machine. */
    private static final int START_LIMIT_SECONDS = 300;
    private static LocalCassandra shared;

    private final Path dir;
    private final int nativePort;
    private final int storagePort;
    private final int jmxPort;
    private final boolean flushSchemaChanges;
    /** The partitioner's class name, or null for bin/cassandra-local's default. */
    private final String partitioner;

    private LocalCassandra(Path dir, int nativePort, int storagePort, int jmxPort, boolean flushSchemaChanges,
                           String partitioner) {
        this.partitioner = partitioner;
        this.dir = dir;
        this.nativePort = nativePort;
        this.storagePort = storagePort;
        this.jmxPort = jmxPort;
        this.flushSchemaChanges = flushSchemaChanges;
    }

    /** The node shared by this JVM's cluster-mode tests. */
    public static synchronized LocalCassandra shared() throws IOException, InterruptedException {
        if (shared == null) {
            killLeftovers();
            LocalCassandra c = create("shared");
            Runtime.getRuntime().addShutdownHook(new Thread(c::close, "local-cassandra-stop"));
            c.start(1);
            shared = c;
        }
        return shared;
    }

    /** A new ring under its own directory, with no node started yet. */
    public static LocalCassandra create(String name) throws IOException {
        return create(name, false);
    }

    /** A new ring of {@code partitioner} (a class name) under its own directory, with no node started yet. */
    public static LocalCassandra create(String name, String partitioner) throws IOException {
        return create(name, false, partitioner);
    }

    /**
     * A new ring whose nodes may be killed and started again: they write schema changes to disk as a
     * production node does, which {@link #create} skips to create tables faster. A node killed without
     * that comes back without the tables created since it started, and answers that they do not exist
     * until it has the schema from the other node again.
     */
    public static LocalCassandra createForRestarts(String name) throws IOException {
        return create(name, true);
    }

    private static LocalCassandra create(String name, boolean flushSchemaChanges) throws IOException {
        return create(name, flushSchemaChanges, null);
    }

    private static LocalCassandra create(String name, boolean flushSchemaChanges, String partitioner) throws IOException {
        Path dir = Files.createDirectories(testsDir().resolve(name + "-" + ProcessHandle.current().pid() + "-"
                + System.nanoTime()));
        return new LocalCassandra(dir, freePort(), freePort(), freePort(), flushSchemaChanges, partitioner);
    }

    private static Path testsDir() {
        return ForkedServer.home().resolve("server/target/cassandra-tests");
    }

    public int nativePort() {
        return nativePort;
    }

    /** {@code 127.0.0.N:port}, the CQL address of node N. */
    public String contactPoint(int node) {
        return address(node) + ":" + nativePort;
    }

    /** The JMX port of node N (localhost only), where Cassandra's own nodetool operations are. */
    public int jmxPort(int node) {
        return jmxPort + node - 1;
    }

    public static String address(int node) {
        return "127.0.0." + node;
    }

    /** Starts nodes 1..{@code nodes} that are not running, one at a time; returns once each serves CQL. */
    public void start(int nodes) throws IOException, InterruptedException {
        run("start", String.valueOf(nodes));
    }

    /** Kills a node with SIGKILL and waits until it is gone. */
    public void kill9(int node) throws IOException, InterruptedException {
        Optional<ProcessHandle> p = process(node);
        if (p.isEmpty()) return;
        p.get().destroyForcibly();
        p.get().onExit().join();
    }

    public boolean isRunning(int node) throws IOException {
        return process(node).isPresent();
    }

    /** Kills every node at once: the data is a test's, nothing needs a clean stop. */
    @Override
    public void close() {
        for (int node = 1; node <= 2; node++) {
            try {
                kill9(node);
            } catch (IOException e) {
                // nothing to kill
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private Optional<ProcessHandle> process(int node) throws IOException {
        return cassandraProcess(dir.resolve("node" + node).resolve("pid"));
    }

    private static Optional<ProcessHandle> cassandraProcess(Path pidFile) throws IOException {
        if (!Files.isRegularFile(pidFile)) return Optional.empty();
        String text = Files.readString(pidFile).trim();
        if (text.isEmpty()) return Optional.empty();
        return ProcessHandle.of(Long.parseLong(text)).filter(ProcessHandle::isAlive)
                .filter(p -> commandLine(p).contains("CassandraDaemon"));
    }

    /** The whole command line: ProcessHandle.Info cuts it at 4 KB, before the class name of a long class path. */
    private static String commandLine(ProcessHandle p) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", String.valueOf(p.pid()), "cmdline")),
                    java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            return p.info().commandLine().orElse("");
        }
    }

    /** Nodes of earlier test runs whose JVM was killed before it could stop them. */
    private static void killLeftovers() throws IOException {
        Path tests = testsDir();
        if (!Files.isDirectory(tests)) return;
        List<Path> pidFiles = new ArrayList<>();
        try (Stream<Path> runs = Files.list(tests)) {
            for (Path run : runs.toList()) {
                for (int node = 1; node <= 2; node++) pidFiles.add(run.resolve("node" + node).resolve("pid"));
            }
        }
        for (Path f : pidFiles) cassandraProcess(f).ifPresent(p -> {
            p.destroyForcibly();
            p.onExit().join();
        });
    }

    private void run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ForkedServer.home().resolve("bin/cassandra-local").toString());
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("cassandra-local.out").toFile()));
        Map<String, String> env = pb.environment();
        env.put("CASSANDRA_LOCAL_DIR", dir.toString());
        env.put("CASSANDRA_LOCAL_NATIVE_PORT", String.valueOf(nativePort));
        env.put("CASSANDRA_LOCAL_STORAGE_PORT", String.valueOf(storagePort));
        env.put("CASSANDRA_LOCAL_JMX_PORT", String.valueOf(jmxPort));
        if (partitioner != null) env.put("CASSANDRA_LOCAL_PARTITIONER", partitioner);
        // Every test node of a run creates its own keyspaces in the shared node, some hundred tables in all, and
        // each table holds heap of its own: 256 MB filled up and the node exited (ExitOnOutOfMemoryError).
        env.put("CASSANDRA_LOCAL_HEAP", "768m");
        env.put("CASSANDRA_LOCAL_WAIT", String.valueOf(START_LIMIT_SECONDS));
        // Every test node creates its keyspaces and tables; Cassandra's own tests skip flushing schema
        // changes to disk the same way, which makes each CREATE several times faster. Test data only, and
        // only for nodes that are not killed and restarted (createForRestarts).
        if (!flushSchemaChanges) env.put("CASSANDRA_LOCAL_JVM_OPTS", "-Dcassandra.test.flush_local_schema_changes=false");
        Process p = pb.start();
        if (!p.waitFor(START_LIMIT_SECONDS * 2L + 60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("bin/cassandra-local " + String.join(" ", args) + " did not finish; see "
                    + dir.resolve("cassandra-local.out"));
        }
        if (p.exitValue() != 0) {
            throw new IOException("bin/cassandra-local " + String.join(" ", args) + " failed (exit " + p.exitValue()
                    + "):\n" + Files.readString(dir.resolve("cassandra-local.out")));
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
