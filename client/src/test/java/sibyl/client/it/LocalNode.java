package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransportException;

/**
 * A node as an operator runs one: the shipped configuration installed under a test directory (its
 * data in {@code var/}, free Thrift and JMX ports), {@code bin/server -f} started and stopped with
 * SIGTERM as often as a test needs, and {@code bin/nodetool} run against it.
 */
final class LocalNode {
    private final Path dir;
    /** Where bin/ is: this checkout, or an unpacked release archive. */
    private final Path install;
    private final Path conf;
    private final int thriftPort;
    private final int jmxPort;
    private Process process;
    private Path output;

    LocalNode(Path dir) throws IOException {
        this(dir, home());
    }

    /** A node of the install at {@code install} (its bin/ and shipped conf/), its data under {@code dir}. */
    LocalNode(Path dir, Path install) throws IOException {
        this(dir, install, Files.readString(install.resolve("conf/storage-conf.xml"))
                .replace("var/", dir.toAbsolutePath() + "/var/"));
    }

    /**
     * A node of this checkout configured by {@code storageConf} (a 0.6 node's own file, say) with its addresses,
     * ports and directories moved: Thrift and JMX on free ports of 127.0.0.1, the data directory to
     * {@link #data}, the commit log to {@link #commitLog} and saved caches under {@code dir}.
     */
    static LocalNode configuredBy(Path dir, String storageConf) throws IOException {
        String moved = storageConf
                .replaceFirst("<CommitLogDirectory>[^<]*</CommitLogDirectory>",
                        "<CommitLogDirectory>" + dir.toAbsolutePath() + "/var/commitlog</CommitLogDirectory>")
                .replaceFirst("<DataFileDirectory>[^<]*</DataFileDirectory>",
                        "<DataFileDirectory>" + dir.toAbsolutePath() + "/var/data</DataFileDirectory>")
                .replaceFirst("<SavedCachesDirectory>[^<]*</SavedCachesDirectory>",
                        "<SavedCachesDirectory>" + dir.toAbsolutePath() + "/var/saved_caches</SavedCachesDirectory>");
        return new LocalNode(dir, home(), moved);
    }

    private LocalNode(Path dir, Path install, String storageConf) throws IOException {
        this.dir = dir;
        this.install = install;
        this.thriftPort = freePort();
        this.jmxPort = freePort();
        this.conf = Files.createDirectories(dir.resolve("conf"));
        String xml = storageConf
                .replaceFirst("<ThriftPort>\\d+</ThriftPort>", "<ThriftPort>" + thriftPort + "</ThriftPort>")
                .replaceFirst("<ThriftAddress>[^<]*</ThriftAddress>", "<ThriftAddress>127.0.0.1</ThriftAddress>")
                .replaceFirst("<ListenAddress>[^<]*</ListenAddress>", "<ListenAddress>127.0.0.1</ListenAddress>");
        xml = xml.contains("<JmxPort>") ? xml.replaceFirst("<JmxPort>\\d+</JmxPort>", "<JmxPort>" + jmxPort + "</JmxPort>")
                : xml.replace("</Storage>", "  <JmxPort>" + jmxPort + "</JmxPort>\n</Storage>");
        Files.writeString(conf.resolve("storage-conf.xml"), xml);
        Files.copy(install.resolve("conf/logback.xml"), conf.resolve("logback.xml"));
    }

    /** The Thrift port of 127.0.0.1 this node serves on. */
    int thriftPort() {
        return thriftPort;
    }

    static Path home() {
        return Path.of(System.getProperty("sibyl.home", "..")).toAbsolutePath().normalize();
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** DataFileDirectory. */
    Path data() {
        return dir.resolve("var/data");
    }

    /** CommitLogDirectory. */
    Path commitLog() {
        return dir.resolve("var/commitlog");
    }

    /** Starts bin/server -f, its console in {@code name}.out, and waits until it serves. */
    void start(String name) throws IOException, InterruptedException {
        output = dir.resolve(name + ".out");
        ProcessBuilder pb = new ProcessBuilder(install.resolve("bin/server").toString(), "-f", "--conf", conf.toString())
                .redirectErrorStream(true).redirectOutput(output.toFile());
        pb.environment().put("JVM_OPTS", "-Xms64m -Xmx512m -XX:TieredStopAtLevel=1");
        process = pb.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!Files.readString(output).contains("Sibyl is serving on")) {
            if (!process.isAlive()) fail("bin/server exited with " + process.exitValue() + ":\n" + Files.readString(output));
            if (System.nanoTime() > deadline) {
                process.destroyForcibly();
                fail("bin/server did not serve within 90 s:\n" + Files.readString(output));
            }
            Thread.sleep(20);
        }
    }

    /** Runs bin/server -f expecting it to refuse to start: its exit status and what it printed. */
    Result startRefused(String name) throws IOException, InterruptedException {
        output = dir.resolve(name + ".out");
        ProcessBuilder pb = new ProcessBuilder(install.resolve("bin/server").toString(), "-f", "--conf", conf.toString())
                .redirectErrorStream(true).redirectOutput(output.toFile());
        pb.environment().put("JVM_OPTS", "-Xms64m -Xmx512m -XX:TieredStopAtLevel=1");
        Process p = pb.start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("bin/server did not exit within 90 s:\n" + Files.readString(output));
        }
        return new Result(p.exitValue(), Files.readString(output));
    }

    /** SIGKILL, as a crash stops the node; waits until it has. */
    void kill() throws InterruptedException {
        if (process == null) return;
        process.destroyForcibly();
        process.waitFor(60, TimeUnit.SECONDS);
        process = null;
    }

    /** SIGTERM, as an operator stops the node; waits until it has. */
    void stop() throws InterruptedException {
        if (process == null) return;
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("bin/server did not stop on SIGTERM within 60 s");
        }
        process = null;
    }

    boolean alive() {
        return process != null && process.isAlive();
    }

    /** What the running (or last) node printed. */
    String console() throws IOException {
        return Files.readString(output);
    }

    /** An open unframed client; close it with {@link #close(Cassandra.Client)}. */
    Cassandra.Client client() throws TTransportException {
        TSocket socket = new TSocket("127.0.0.1", thriftPort, 30_000);
        socket.open();
        return new Cassandra.Client(new TBinaryProtocol(socket));
    }

    static void close(Cassandra.Client client) {
        client.getInputProtocol().getTransport().close();
    }

    record Result(int status, String output) {
    }

    /** bin/nodetool against this node, not waited for (its output is dropped). */
    Process nodetoolInBackground(String... command) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(install.resolve("bin/nodetool").toString(), "-h", "127.0.0.1", "-p",
                String.valueOf(jmxPort)));
        cmd.addAll(List.of(command));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
    }

    /** bin/nodetool against this node, its output (stdout and stderr) as the operator sees it. */
    Result nodetool(String... command) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(install.resolve("bin/nodetool").toString(), "-h", "127.0.0.1", "-p",
                String.valueOf(jmxPort)));
        cmd.addAll(List.of(command));
        Path out = Files.createTempFile(dir, "nodetool", ".txt");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "finished: " + cmd);
        return new Result(p.exitValue(), Files.readString(out));
    }
}
