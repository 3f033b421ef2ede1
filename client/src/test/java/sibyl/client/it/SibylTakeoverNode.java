package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
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
 * Sibyl ({@code bin/server -f} of this checkout) started as an operator takes over a Cassandra 0.6 node: with
 * that node's own storage-conf.xml, only its directories and ports moved (data, commit log and saved caches
 * under the test's directory; Thrift, JMX and storage on free ports of 127.0.0.1).
 */
final class SibylTakeoverNode implements AutoCloseable {
    private final Path dir;
    private final Path conf;
    private final int thriftPort;
    private final int jmxPort;
    private Process process;
    private Path output;

    /** A node under {@code dir} configured by {@code storageConf}, a 0.6 node's storage-conf.xml. */
    SibylTakeoverNode(Path dir, String storageConf) throws IOException {
        this.dir = dir;
        this.thriftPort = LocalNode.freePort();
        this.jmxPort = LocalNode.freePort();
        this.conf = Files.createDirectories(dir.resolve("conf"));
        reconfigure(storageConf);
        Files.copy(LocalNode.home().resolve("conf/logback.xml"), conf.resolve("logback.xml"));
    }

    /** Rewrites the node's storage-conf.xml from {@code storageConf} (moved as at construction); read at the next start. */
    void reconfigure(String storageConf) throws IOException {
        String abs = dir.toAbsolutePath().toString();
        String xml = storageConf
                .replaceFirst("<CommitLogDirectory>[^<]*</CommitLogDirectory>",
                        "<CommitLogDirectory>" + abs + "/var/commitlog</CommitLogDirectory>")
                .replaceFirst("<DataFileDirectory>[^<]*</DataFileDirectory>",
                        "<DataFileDirectory>" + abs + "/var/data</DataFileDirectory>")
                .replaceFirst("<ThriftPort>\\d+</ThriftPort>", "<ThriftPort>" + thriftPort + "</ThriftPort>")
                .replaceFirst("<StoragePort>\\d+</StoragePort>", "<StoragePort>" + LocalNode.freePort() + "</StoragePort>")
                .replaceFirst("<ThriftAddress>[^<]*</ThriftAddress>", "<ThriftAddress>127.0.0.1</ThriftAddress>")
                .replaceFirst("<ListenAddress>[^<]*</ListenAddress>", "<ListenAddress>127.0.0.1</ListenAddress>");
        xml = xml.contains("<SavedCachesDirectory>")
                ? xml.replaceFirst("<SavedCachesDirectory>[^<]*</SavedCachesDirectory>",
                        "<SavedCachesDirectory>" + abs + "/var/saved_caches</SavedCachesDirectory>")
                : xml.replace("</Storage>", "  <SavedCachesDirectory>" + abs + "/var/saved_caches</SavedCachesDirectory>\n</Storage>");
        xml = xml.contains("<JmxPort>") ? xml.replaceFirst("<JmxPort>\\d+</JmxPort>", "<JmxPort>" + jmxPort + "</JmxPort>")
                : xml.replace("</Storage>", "  <JmxPort>" + jmxPort + "</JmxPort>\n</Storage>");
        Files.writeString(conf.resolve("storage-conf.xml"), xml);
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
        ProcessBuilder pb = new ProcessBuilder(LocalNode.home().resolve("bin/server").toString(), "-f", "--conf", conf.toString())
                .redirectErrorStream(true).redirectOutput(output.toFile());
        pb.environment().put("JVM_OPTS", "-Xms64m -Xmx768m");
        process = pb.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!Files.readString(output).contains("Sibyl is serving on")) {
            if (!process.isAlive()) fail("bin/server exited with " + process.exitValue() + ":\n" + Files.readString(output));
            if (System.nanoTime() > deadline) {
                process.destroyForcibly();
                fail("bin/server did not serve within 120 s:\n" + Files.readString(output));
            }
            Thread.sleep(20);
        }
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
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("bin/server did not stop on SIGTERM within 90 s");
        }
        process = null;
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }

    /** What the running (or last) node printed. */
    Path console() {
        return output;
    }

    /** An open unframed client; close it with {@link Cassandra06Peer#close(Cassandra.Client)}. */
    Cassandra.Client client() throws TTransportException {
        TSocket socket = new TSocket("127.0.0.1", thriftPort, 60_000);
        socket.open();
        return new Cassandra.Client(new TBinaryProtocol(socket));
    }

    /** bin/nodetool against this node; its output, or a failure saying what it printed. */
    String nodetool(String... command) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(LocalNode.home().resolve("bin/nodetool").toString(), "-h", "127.0.0.1", "-p",
                String.valueOf(jmxPort)));
        cmd.addAll(List.of(command));
        Path out = Files.createTempFile(dir, "nodetool", ".txt");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("bin/nodetool " + String.join(" ", command) + " did not finish within 300 s");
        }
        String printed = Files.readString(out);
        if (p.exitValue() != 0) fail("bin/nodetool " + String.join(" ", command) + " exited with " + p.exitValue() + ":\n" + printed);
        return printed;
    }
}
