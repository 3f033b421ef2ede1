package sibyl.client.it;


import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.apache.thrift.TException;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.KsDef;
import sibyl.iface.v20.NotFoundException;

/**
 * A real Apache Cassandra 3.11, the reference for the 0.7+ dialect: one node on free ports of 127.0.0.1 in a fresh
 * temporary directory, its Thrift server as it shipped (rpc_server_type sync), run from the jars
 * bench/cassandra311/pom.xml resolves from Maven Central, configured as bench/lib.sh runs one (the files
 * cassandra.yaml.in, logback.xml.in and jvm17.options of bench/cassandra311/) but with half a gigabyte of heap.
 *
 * <p>Starting one takes 10 to 60 seconds and half a gigabyte, so a test run shares one: {@link #shared()} starts it
 * on first use and a shutdown hook stops it when the test JVM exits. Where its jars cannot be resolved (a developer's
 * machine without network), {@link #shared()} skips the test that asked, saying why; under CI (CI=true) that is a
 * failure, so the comparison always runs there. A node that was resolved but does not start is a failure
 * everywhere.
 */
final class Cassandra311Peer implements AutoCloseable {
    static final String RANDOM_PARTITIONER = "org.apache.cassandra.dht.RandomPartitioner";

    private static Cassandra311Peer shared;
    /** Why the shared node did not start (a skip or a failure), given again to every later caller. */
    private static RuntimeException sharedFailure;

    private final Path dir;
    private final int thriftPort;
    private final Process process;

    private Cassandra311Peer(Path dir, int thriftPort, Process process) {
        this.dir = dir;
        this.thriftPort = thriftPort;
        this.process = process;
    }

    /**
     * The run's node (RandomPartitioner), started by the first caller; later callers get the same one, or the same
     * failure.
     */
    static synchronized Cassandra311Peer shared() throws IOException, InterruptedException {
        if (shared != null) return shared;
        if (sharedFailure != null) throw sharedFailure;
        long began = System.nanoTime();
        try {
            shared = start(Files.createTempDirectory("sibyl-c311-"), RANDOM_PARTITIONER);
        } catch (IOException e) {
            sharedFailure = new UncheckedIOException(e);
            throw e;
        } catch (RuntimeException e) {
            sharedFailure = e;
            throw e;
        }
        Cassandra311Peer node = shared;
        System.out.println("Cassandra 3.11 serves Thrift on port " + node.thriftPort + " after "
                + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began) + " s (" + node.dir + ")");
        Runtime.getRuntime().addShutdownHook(new Thread(node::close, "stop Cassandra 3.11"));
        return node;
    }

    /**
     * Starts a node of {@code partitioner} (a class name) in {@code dir} and waits until its Thrift port accepts
     * connections. Skips the calling test when the jars cannot be resolved off CI.
     */
    static Cassandra311Peer start(Path dir, String partitioner) throws IOException, InterruptedException {
        List<String> classPath = classPath();
        Path jamm = classPath.stream().map(Path::of).filter(p -> p.getFileName().toString().startsWith("jamm-")).findFirst()
                .orElseThrow(() -> new IllegalStateException("no jamm jar on Cassandra 3.11's class path"));
        Path conf = Files.createDirectories(dir.resolve("conf"));
        Files.createDirectories(dir.resolve("logs"));
        int thriftPort = LocalNode.freePort();
        Files.writeString(conf.resolve("cassandra.yaml"), template("cassandra.yaml.in", dir)
                .replace("@PARTITIONER@", partitioner).replace("@RPC_PORT@", String.valueOf(thriftPort))
                .replace("@STORAGE_PORT@", String.valueOf(LocalNode.freePort()))
                .replace("@SSL_STORAGE_PORT@", String.valueOf(LocalNode.freePort()))
                .replace("@NATIVE_TRANSPORT_PORT@", String.valueOf(LocalNode.freePort())));
        Files.writeString(conf.resolve("logback.xml"), template("logback.xml.in", dir));

        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms512m", "-Xmx512m", "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError", "-Xss512k", "-javaagent:" + jamm,
                "-Djava.net.preferIPv4Stack=true"));
        command.addAll(jvmOptions());
        command.addAll(List.of("-Dcassandra.config=" + conf.resolve("cassandra.yaml").toUri(), "-Dcassandra-foreground=yes",
                "-Dcassandra.jmx.local.port=" + LocalNode.freePort(), "-Dlogback.configurationFile=" + conf.resolve("logback.xml"),
                "-Dcassandra.logdir=" + dir.resolve("logs"), "-Dcassandra.storagedir=" + dir,
                "-Dcassandra.skip_wait_for_gossip_to_settle=0", "-cp", conf + ":" + String.join(":", classPath),
                "org.apache.cassandra.service.CassandraDaemon"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("logs/console.log").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        Cassandra311Peer node = new Cassandra311Peer(dir, thriftPort, process);
        try {
            node.awaitThrift(TimeUnit.SECONDS.toNanos(150));
        } catch (IOException | RuntimeException | InterruptedException e) {
            node.close();
            throw e;
        }
        return node;
    }

    /** A file of bench/cassandra311/ shared with bench/lib.sh, its node directory ({@code @DIR@}) filled in. */
    private static String template(String name, Path dir) throws IOException {
        return Files.readString(LocalNode.home().resolve("bench/cassandra311").resolve(name)).replace("@DIR@", dir.toString());
    }

    /** bench/cassandra311/jvm17.options, shared with bench/lib.sh. */
    private static List<String> jvmOptions() throws IOException {
        return Files.readAllLines(LocalNode.home().resolve("bench/cassandra311/jvm17.options")).stream()
                .map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
    }

    /**
     * The jars of Cassandra 3.11, as bench/cassandra311/pom.xml writes them to its target/cassandra.classpath;
     * resolved (from Maven Central, the first time) when that file is missing or names a jar that is gone.
     */
    private static List<String> classPath() throws IOException, InterruptedException {
        return MavenClassPath.of(LocalNode.home().resolve("bench/cassandra311/pom.xml"), "cassandra.classpath")
                .jars("Cassandra 3.11's jars");
    }

    /** Polls the Thrift port until it accepts a connection; fails when the process exits or the time is up. */
    private void awaitThrift(long limitNanos) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + limitNanos;
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Cassandra 3.11 exited (status " + process.exitValue() + ") before serving Thrift:\n"
                        + logs());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", thriftPort), 1000);
                return;
            } catch (IOException notYet) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Cassandra 3.11 did not open its Thrift port " + thriftPort + " within "
                            + TimeUnit.NANOSECONDS.toSeconds(limitNanos) + " s:\n" + logs());
                }
                Thread.sleep(100);
            }
        }
    }

    int thriftPort() {
        return thriftPort;
    }

    /** The node's directory: conf/, data, logs/ (system.log, console.log). */
    Path dir() {
        return dir;
    }

    /** An open client over framed transport (3.11 serves no other); close it with {@link #close(Cassandra.Client)}. */
    Cassandra.Client client() throws TTransportException {
        return framedClient(thriftPort);
    }

    /** An open 0.7+ client over framed transport to a Thrift port of 127.0.0.1. */
    static Cassandra.Client framedClient(int port) throws TTransportException {
        TFramedTransport transport = new TFramedTransport(new TSocket("127.0.0.1", port, 30_000));
        transport.open();
        return new Cassandra.Client(new TBinaryProtocol(transport));
    }

    /**
     * Makes keyspace {@code name} anew with {@code tables}, SimpleStrategy with one replica: a node shared by the run
     * may have it from a run before.
     */
    static void recreateKeyspace(Cassandra.Client c, String name, List<CfDef> tables) throws TException {
        try {
            c.describe_keyspace(name);
            c.system_drop_keyspace(name);
        } catch (NotFoundException absent) {
            // the usual case: a fresh node
        }
        c.system_add_keyspace(new KsDef(name, "org.apache.cassandra.locator.SimpleStrategy", tables)
                .setStrategy_options(Map.of("replication_factor", "1")));
    }

    static void close(Cassandra.Client client) {
        client.getInputProtocol().getTransport().close();
    }

    /** The last lines of its console and system log. */
    String logs() throws IOException {
        return tail(dir.resolve("logs/console.log")) + "\n--- system.log:\n" + tail(dir.resolve("logs/system.log"));
    }

    private static String tail(Path file) throws IOException {
        if (!Files.exists(file)) return "(no " + file.getFileName() + ")";
        List<String> lines = Files.readAllLines(file);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 25), lines.size()));
    }

    /** Stops the node (SIGTERM, then SIGKILL after 20 s) and removes its directory. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(20, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind is no reason to fail the run that is ending
        }
    }
}
