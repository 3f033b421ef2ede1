package sibyl.client.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One Apache Cassandra 5 node for the client ITs that put Sibyl in cluster mode, started by bin/cassandra-local on
 * free ports the first time it is asked for and stopped when the JVM exits, so a run starts it once however many
 * tests use it. Each test keeps to keyspaces of a prefix of its own.
 */
final class Cassandra5Node {
    private static Cassandra5Node shared;
    private static RuntimeException sharedFailure;

    private final Path dir;
    private final int nativePort;

    private Cassandra5Node(Path dir, int nativePort) {
        this.dir = dir;
        this.nativePort = nativePort;
    }

    static synchronized Cassandra5Node shared() throws IOException, InterruptedException {
        if (shared != null) return shared;
        if (sharedFailure != null) throw sharedFailure;
        Cassandra5Node node = new Cassandra5Node(Files.createTempDirectory("sibyl-c5-"), LocalNode.freePort());
        try {
            node.run("start", "1");
        } catch (RuntimeException e) {
            sharedFailure = e;
            throw e;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                node.run("stop");
            } catch (IOException | InterruptedException | RuntimeException e) {
                System.err.println("Could not stop the Cassandra 5 node in " + node.dir + ": " + e);
            }
        }, "stop Cassandra 5"));
        shared = node;
        return node;
    }

    /** The node's CQL address, as a Cluster's ContactPoint takes it. */
    String contactPoint() {
        return "127.0.0.1:" + nativePort;
    }

    /** {@code storageConf} storing into this node, under keyspaces named with {@code prefix}. */
    String inCluster(String storageConf, String prefix) {
        return storageConf.replace("</Storage>", "<Cluster><ContactPoints><ContactPoint>" + contactPoint()
                + "</ContactPoint></ContactPoints><LocalDatacenter>datacenter1</LocalDatacenter><KeyspacePrefix>"
                + prefix + "</KeyspacePrefix></Cluster>\n</Storage>");
    }

    private void run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(LocalNode.home().resolve("bin/cassandra-local").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("cassandra-local.out").toFile());
        pb.environment().putAll(Map.of("CASSANDRA_LOCAL_DIR", dir.toString(),
                "CASSANDRA_LOCAL_NATIVE_PORT", String.valueOf(nativePort),
                "CASSANDRA_LOCAL_STORAGE_PORT", String.valueOf(LocalNode.freePort()),
                "CASSANDRA_LOCAL_JMX_PORT", String.valueOf(LocalNode.freePort()),
                "CASSANDRA_LOCAL_HEAP", "512m"));
        Process p = pb.start();
        if (!p.waitFor(6, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("bin/cassandra-local " + String.join(" ", args) + " did not finish in 6"
                    + " minutes:\n" + Files.readString(dir.resolve("cassandra-local.out")));
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException("bin/cassandra-local " + String.join(" ", args) + " exited with "
                    + p.exitValue() + ":\n" + Files.readString(dir.resolve("cassandra-local.out")));
        }
    }
}
