package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransportException;

/**
 * bin/server in the foreground (-f), in its own process, with a configuration installed under a
 * test directory. bin/server execs the JVM, so the process is the server itself: killing it
 * kills the JVM, with no wrapper shell left to absorb the signal.
 */
public final class ForkedServer {
    private static final Pattern SERVING = Pattern.compile("Sibyl is serving on ([^\\s:]+):(\\d+)");

    private final Process process;
    private final int port;

    private ForkedServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    public static Path home() {
        return Path.of(System.getProperty("sibyl.home", "..")).toAbsolutePath().normalize();
    }

    /** Installs the shipped conf, edited, into {@code dir}/conf with its data under {@code dir}/var: the conf dir. */
    public static Path installConf(Path dir, UnaryOperator<String> edit) throws IOException {
        Path conf = Files.createDirectories(dir.resolve("conf"));
        String xml = Files.readString(home().resolve("conf/storage-conf.xml"))
                .replaceFirst("<ThriftPort>\\d+</ThriftPort>", "<ThriftPort>0</ThriftPort>")
                .replaceFirst("<ThriftAddress>[^<]*</ThriftAddress>", "<ThriftAddress>127.0.0.1</ThriftAddress>")
                .replace("var/", dir.toAbsolutePath() + "/var/");
        Files.writeString(conf.resolve("storage-conf.xml"), edit.apply(xml));
        Files.copy(home().resolve("conf/logback.xml"), conf.resolve("logback.xml"));
        return conf;
    }

    /** A config edit to CommitLogSync=batch with the given window. */
    public static UnaryOperator<String> batchSync(String windowMs) {
        return xml -> xml.replaceFirst("<CommitLogSync>[^<]*</CommitLogSync>", "<CommitLogSync>batch</CommitLogSync>")
                .replaceFirst("<CommitLogSyncPeriodInMS>\\d+</CommitLogSyncPeriodInMS>",
                        "<CommitLogSyncBatchWindowInMS>" + windowMs + "</CommitLogSyncBatchWindowInMS>");
    }

    /** A config edit to CommitLogSync=periodic with the given period. */
    public static UnaryOperator<String> periodicSync(int periodMs) {
        return xml -> xml.replaceFirst("<CommitLogSyncPeriodInMS>\\d+</CommitLogSyncPeriodInMS>",
                "<CommitLogSyncPeriodInMS>" + periodMs + "</CommitLogSyncPeriodInMS>");
    }

    /** Starts bin/server -f on {@code conf}, its output in {@code out}, and waits until it serves. */
    public static ForkedServer start(Path conf, Path out) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(home().resolve("bin/server").toString(), "-f", "--conf", conf.toString())
                .redirectErrorStream(true).redirectOutput(out.toFile());
        // A small heap starts faster; JVM_OPTS comes after bin/server's own options, so it wins.
        pb.environment().put("JVM_OPTS", "-Xms64m -Xmx512m -XX:TieredStopAtLevel=1");
        Process process = pb.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            Matcher m = SERVING.matcher(Files.readString(out));
            if (m.find()) {
                ForkedServer server = new ForkedServer(process, Integer.parseInt(m.group(2)));
                server.checkItIsTheJvm();
                return server;
            }
            if (!process.isAlive()) fail("bin/server exited with " + process.exitValue() + ":\n" + Files.readString(out));
            Thread.sleep(20);
        }
        process.destroyForcibly();
        throw new AssertionError("bin/server did not serve within 90 s:\n" + Files.readString(out));
    }

    private void checkItIsTheJvm() {
        String command = process.info().command().orElse("");
        assertTrue(command.endsWith("/java") || command.endsWith("java"), "the forked process is the JVM: " + command);
        assertTrue(process.descendants().findAny().isEmpty(), "no child processes");
    }

    /** The Thrift port it serves, for clients of the 0.7+ dialect. */
    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    /** An open unframed client; the caller closes its transport via {@link #close(Cassandra.Client)}. */
    public Cassandra.Client client() throws TTransportException {
        TSocket socket = new TSocket("127.0.0.1", port, 10_000);
        socket.open();
        return new Cassandra.Client(new TBinaryProtocol(socket));
    }

    public static void close(Cassandra.Client client) {
        client.getInputProtocol().getTransport().close();
    }

    /** Whether the server process is still running (it has not crashed or been stopped). */
    public boolean alive() {
        return process.isAlive();
    }

    /** SIGKILL: no shutdown hook runs, nothing is flushed or synced on the way out. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "killed server exits");
        assertTrue(process.exitValue() == 137, "died of SIGKILL (exit 137), not " + process.exitValue());
    }

    /** SIGTERM, as an operator stops it: the shutdown hook closes the node. */
    public void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("server did not stop on SIGTERM within 60 s");
        }
    }
}
