package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;
import org.apache.cassandra.thrift.TokenRange;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * bin/nodetool against a node in cluster mode, as an operator runs it: a local Apache Cassandra 5
 * (bin/cassandra-local, on free ports), bin/server from conf/cluster/ in front of it, and bin/nodetool.
 * The storage commands say in one line that the cluster owns the data and exit 1; info, ring and
 * cfstats show what the node knows.
 */
class NodeToolClusterModeIT {
    @TempDir
    static Path dir;

    private static int cqlPort;
    private static int thriftPort;
    private static int jmxPort;
    private static Process server;
    private static Path cassandraDir;

    @BeforeAll
    static void start() throws Exception {
        cqlPort = LocalNode.freePort();
        thriftPort = LocalNode.freePort();
        jmxPort = LocalNode.freePort();
        cassandraDir = dir.resolve("cassandra");
        Result cassandra = cassandraLocal("start", "1");
        assertEquals(0, cassandra.status(), cassandra.output());

        Path conf = Files.createDirectories(dir.resolve("conf"));
        String xml = Files.readString(LocalNode.home().resolve("conf/cluster/storage-conf.xml"))
                .replaceFirst("<ThriftPort>\\d+</ThriftPort>", "<ThriftPort>" + thriftPort + "</ThriftPort>")
                .replaceFirst("<ThriftAddress>[^<]*</ThriftAddress>", "<ThriftAddress>127.0.0.1</ThriftAddress>")
                .replaceFirst("<ListenAddress>[^<]*</ListenAddress>", "<ListenAddress>127.0.0.1</ListenAddress>")
                .replaceFirst("<JmxPort>\\d+</JmxPort>", "<JmxPort>" + jmxPort + "</JmxPort>")
                .replaceFirst("<ContactPoint>127\\.0\\.0\\.1:9042</ContactPoint>",
                        "<ContactPoint>127.0.0.1:" + cqlPort + "</ContactPoint>")
                .replaceFirst("<ContactPoint>127\\.0\\.0\\.2:9042</ContactPoint>", "")
                .replace("var/", dir.toAbsolutePath() + "/var/");
        Files.writeString(conf.resolve("storage-conf.xml"), xml);
        Files.copy(LocalNode.home().resolve("conf/logback.xml"), conf.resolve("logback.xml"));
        Path out = dir.resolve("server.out");
        ProcessBuilder pb = new ProcessBuilder(LocalNode.home().resolve("bin/server").toString(), "-f", "--conf", conf.toString())
                .redirectErrorStream(true).redirectOutput(out.toFile());
        pb.environment().put("JVM_OPTS", "-Xms64m -Xmx512m -XX:TieredStopAtLevel=1");
        server = pb.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300); // it creates its tables in the cluster
        while (!Files.readString(out).contains("Sibyl is serving on")) {
            assertTrue(server.isAlive(), "bin/server exited:\n" + Files.readString(out));
            assertTrue(System.nanoTime() < deadline, "bin/server did not serve within 300 s:\n" + Files.readString(out));
            Thread.sleep(50);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.destroy();
            if (!server.waitFor(60, TimeUnit.SECONDS)) server.destroyForcibly();
        }
        if (cassandraDir != null) cassandraLocal("stop");
    }

    record Result(int status, String output) {
    }

    private static Result run(List<String> command, Map<String, String> env) throws Exception {
        Path out = Files.createTempFile(dir, "out", ".txt");
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().putAll(env);
        Process p = pb.start();
        assertTrue(p.waitFor(600, TimeUnit.SECONDS), "finished: " + command);
        return new Result(p.exitValue(), Files.readString(out));
    }

    private static Result cassandraLocal(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(LocalNode.home().resolve("bin/cassandra-local").toString()));
        cmd.addAll(List.of(args));
        return run(cmd, Map.of("CASSANDRA_LOCAL_DIR", cassandraDir.toString(),
                "CASSANDRA_LOCAL_NATIVE_PORT", String.valueOf(cqlPort),
                "CASSANDRA_LOCAL_STORAGE_PORT", String.valueOf(LocalNode.freePort()),
                "CASSANDRA_LOCAL_JMX_PORT", String.valueOf(LocalNode.freePort()),
                "CASSANDRA_LOCAL_HEAP", "256m"));
    }

    private static Result nodetool(String... command) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(LocalNode.home().resolve("bin/nodetool").toString(), "-h", "127.0.0.1", "-p",
                String.valueOf(jmxPort)));
        cmd.addAll(List.of(command));
        return run(cmd, Map.of());
    }

    private static <T> T withClient(ThriftCall<T> call) throws Exception {
        TSocket socket = new TSocket("127.0.0.1", thriftPort, 30_000);
        socket.open();
        try {
            return call.apply(new Cassandra.Client(new TBinaryProtocol(socket)));
        } finally {
            socket.close();
        }
    }

    interface ThriftCall<T> {
        T apply(Cassandra.Client client) throws Exception;
    }

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @ValueSource(strings = {"flush", "flush Keyspace1 Standard1", "compact", "drain", "snapshot", "snapshot nightly",
            "clearsnapshot", "scrub", "scrub Keyspace1", "refresh Keyspace1 Standard1"})
    void storageCommandsSayTheClusterOwnsTheData(String command) throws Exception {
        Result r = nodetool(command.split(" "));
        assertEquals(1, r.status(), r.output());
        String[] lines = r.output().strip().split("\n");
        assertEquals(1, lines.length, "one line: " + r.output());
        String name = command.split(" ")[0];
        assertTrue(lines[0].startsWith("nodetool: " + name + " does not apply in cluster mode: this node keeps no"
                + " data, the Apache Cassandra cluster at 127.0.0.1:" + cqlPort + " owns the storage; "), lines[0]);
        // nothing was stopped or refused: the node still takes writes and serves reads (drain would stop writes)
        String key = "after-" + name + "-" + System.nanoTime();
        withClient(c -> {
            ColumnPath path = new ColumnPath("Standard1").setColumn(bytes("c"));
            c.insert("Keyspace1", key, path, bytes("v"), System.currentTimeMillis() * 1000, ConsistencyLevel.ONE);
            assertEquals(bytes("v"), c.get("Keyspace1", key, path, ConsistencyLevel.ONE).getColumn().bufferForValue());
            return null;
        });
    }

    @Test
    void infoNamesTheClusterAndCountsRequests() throws Exception {
        Result before = nodetool("info");
        assertEquals(0, before.status(), before.output());
        assertTrue(before.output().contains("Storage          : Apache Cassandra cluster 'Sibyl Local'"
                + " (org.apache.cassandra.dht.RandomPartitioner), 1 of 1 node up, through 127.0.0.1:" + cqlPort + "\n"),
                before.output());
        assertTrue(before.output().contains("Load             : none on this node\n"), before.output());
        long reads = count(before.output(), "Reads");
        withClient(c -> {
            SlicePredicate all = new SlicePredicate().setSlice_range(new SliceRange(bytes(""), bytes(""), false, 10));
            for (int i = 0; i < 5; i++) {
                c.get_slice("Keyspace1", "info-" + i, new ColumnParent("Standard1"), all, ConsistencyLevel.ONE);
            }
            return null;
        });
        Result after = nodetool("info");
        assertEquals(reads + 5, count(after.output(), "Reads"), after.output());
        assertTrue(after.output().matches("(?s).*Uptime \\(seconds\\) : \\d+\n.*"), after.output());
    }

    private static long count(String info, String label) {
        Matcher m = Pattern.compile(Pattern.quote(label) + " +: (\\d+) since start, mean (?:[0-9.]+|NaN) ms").matcher(info);
        assertTrue(m.find(), label + " in:\n" + info);
        return Long.parseLong(m.group(1));
    }

    @Test
    void ringShowsTheClustersRing() throws Exception {
        Result r = nodetool("ring");
        assertEquals(0, r.status(), r.output());
        Set<String> shown = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^127\\.0\\.0\\.1 +Up +\\? +(\\d+) ").matcher(r.output());
        while (m.find()) shown.add(m.group(1));
        Set<String> ring = new TreeSet<>();
        for (TokenRange range : withClient(c -> c.describe_ring("Keyspace1"))) ring.add(range.getEnd_token());
        assertEquals(ring, shown, r.output());
        assertEquals(16, shown.size(), "bin/cassandra-local's node has 16 tokens:\n" + r.output());
    }

    @Test
    void cfstatsCountsTheRequestsOfEachColumnFamily() throws Exception {
        withClient(c -> {
            ColumnPath path = new ColumnPath("StatusAudits").setColumn(bytes("name"));
            for (int i = 0; i < 3; i++) {
                c.insert("Twitter", "cfstats-" + i, path, bytes("Ada"), System.currentTimeMillis() * 1000,
                        ConsistencyLevel.ONE);
            }
            c.get("Twitter", "cfstats-0", path, ConsistencyLevel.ONE);
            return null;
        });
        Result r = nodetool("cfstats");
        assertEquals(0, r.status(), r.output());
        Matcher m = Pattern.compile("Column Family: StatusAudits\n\t\tRead Count: (\\d+)\n\t\tRead Latency: ([0-9.]+) ms.\n"
                + "\t\tWrite Count: (\\d+)\n\t\tWrite Latency: ([0-9.]+) ms.\n").matcher(r.output());
        assertTrue(m.find(), r.output());
        assertEquals("1", m.group(1));
        assertEquals("3", m.group(3));
        assertTrue(Double.parseDouble(m.group(4)) > 0, r.output());
        assertTrue(!r.output().contains("SSTable count"), "no store figures in cluster mode:\n" + r.output());
    }
}
