package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/server as a user runs it: in the background with a pidfile, then stopped by SIGTERM. */
class BinServerIT {
    @TempDir
    Path dir;

    private static Path home() {
        return Path.of(System.getProperty("sibyl.home", "..")).toAbsolutePath().normalize();
    }

    /** A conf dir like the shipped one, with data under {@code dir} and the given port. */
    private Path conf(int port) throws IOException {
        Path conf = Files.createDirectories(dir.resolve("conf"));
        String xml = Files.readString(home().resolve("conf/storage-conf.xml"))
                .replaceFirst("<ThriftPort>\\d+</ThriftPort>", "<ThriftPort>" + port + "</ThriftPort>")
                .replace("var/", dir.toAbsolutePath() + "/var/");
        Files.writeString(conf.resolve("storage-conf.xml"), xml);
        Files.copy(home().resolve("conf/logback.xml"), conf.resolve("logback.xml"));
        return conf;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static Process run(Path outFile, String... args) throws IOException {
        String[] cmd = new String[args.length + 1];
        cmd[0] = home().resolve("bin/server").toString();
        System.arraycopy(args, 0, cmd, 1, args.length);
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(outFile.toFile()).start();
    }

    @Test
    void startsInTheBackgroundServesAndStopsOnSigterm() throws Exception {
        int port = freePort();
        Path conf = conf(port);
        Path pidfile = dir.resolve("sibyl.pid");
        Path out = dir.resolve("out.txt");
        Process script = run(out, "-p", pidfile.toString(), "--conf", conf.toString());
        assertTrue(script.waitFor(120, TimeUnit.SECONDS), "bin/server returned");
        assertEquals(0, script.exitValue(), Files.readString(out));
        assertTrue(Files.readString(out).contains("Sibyl is serving on"), Files.readString(out));

        long pid = Long.parseLong(Files.readString(pidfile).trim());
        ProcessHandle server = ProcessHandle.of(pid).orElseThrow();
        try (TSocket socket = new TSocket("127.0.0.1", port, 10_000)) {
            socket.open();
            assertEquals("2.2.0", new Cassandra.Client(new TBinaryProtocol(socket)).describe_version());
        } finally {
            server.destroy(); // SIGTERM
        }
        server.onExit().get(60, TimeUnit.SECONDS);
        assertTrue(Files.notExists(pidfile), "pidfile removed on shutdown");
    }

    @Test
    void badConfigurationIsNamedAndRefused() throws Exception {
        Path conf = conf(freePort());
        Files.writeString(conf.resolve("storage-conf.xml"),
                Files.readString(conf.resolve("storage-conf.xml")).replaceFirst("<CommitLogSync>[^<]*</CommitLogSync>", ""));
        Path out = dir.resolve("bad.txt");
        Process script = run(out, "-f", "--conf", conf.toString());
        assertTrue(script.waitFor(120, TimeUnit.SECONDS));
        String text = Files.readString(out);
        assertNotEquals(0, script.exitValue(), text);
        assertTrue(text.contains("storage-conf.xml") && text.contains("CommitLogSync"), text);
    }

    /**
     * Cluster mode with contact points nobody serves: the script, run as README shows it, says which
     * contact points it tried and what failed at each, and exits non-zero once ConnectTimeoutInSeconds
     * has passed, not before and not much after.
     */
    @Test
    void unreachableClusterIsNamedAndRefusedAfterTheConnectTimeout() throws Exception {
        int connectTimeoutSeconds = 3;
        String first = "127.0.0.1:" + freePort();
        String second = "127.0.0.2:" + freePort();
        Path conf = conf(freePort());
        Files.writeString(conf.resolve("storage-conf.xml"), Files.readString(conf.resolve("storage-conf.xml"))
                .replace("</Storage>", "<Cluster><ContactPoints><ContactPoint>" + first + "</ContactPoint><ContactPoint>"
                        + second + "</ContactPoint></ContactPoints><LocalDatacenter>datacenter1</LocalDatacenter>"
                        + "<ConnectTimeoutInSeconds>" + connectTimeoutSeconds + "</ConnectTimeoutInSeconds></Cluster>\n"
                        + "</Storage>"));
        Path out = dir.resolve("unreachable.txt");
        long start = System.nanoTime();
        Process script = run(out, "--conf", conf.toString());
        assertTrue(script.waitFor(120, TimeUnit.SECONDS), "bin/server returned");
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        String text = Files.readString(out);
        assertNotEquals(0, script.exitValue(), text);
        assertTrue(text.contains("Storage/Cluster/ContactPoints") && text.contains(first) && text.contains(second)
                && text.contains("within " + connectTimeoutSeconds + " s (ConnectTimeoutInSeconds)"), text);
        assertTrue(text.contains(first + ": ") && text.contains("Connection refused"), "what failed at each: " + text);
        assertTrue(seconds >= connectTimeoutSeconds, "gave up after " + seconds + " s");
        // The JVM's start and stop on a loaded machine, beside the timeout: bounded, not a hang.
        assertTrue(seconds < connectTimeoutSeconds + 60, "gave up after " + seconds + " s");
    }
}
