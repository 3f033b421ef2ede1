package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.cassandra.thrift.Cassandra;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/sstableloader as an operator merging a 0.6 ring runs it: the SSTables of a real 0.6.5 node that was
 * drained (server/src/test/resources/c06/opp-drained, whose expected answers are what its SSTables hold)
 * copied as if from three nodes, each SSTable under the same generation in its node's directory, with the
 * SSTables 0.6 had marked compacted beside them, loaded into a fresh bin/server started with that node's own
 * storage-conf.xml. The node then answers every range and slice as 0.6 did, also after a restart, and the
 * copied files are as they were.
 */
class SSTableLoaderIT {
    @TempDir
    Path dir;

    record Result(int status, String out, String err) {
    }

    private static Result sstableloader(Path cwd, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(LocalNode.home().resolve("bin/sstableloader").toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(cwd, "loader", ".out");
        Path err = Files.createTempFile(cwd, "loader", ".err");
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().put("JVM_OPTS", "-Xmx256m -XX:TieredStopAtLevel=1");
        Process p = pb.start();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "bin/sstableloader finished: " + command);
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    /**
     * opp-drained's Keyspace1 as three nodes' copies: the SSTables 0.6 loaded spread over the nodes, each renamed
     * to generation 7, and those it had marked compacted, with their markers, under their own names on node 1.
     */
    private List<Path> threeNodes() throws IOException {
        Path from = LocalNode.home().resolve("server/src/test/resources/c06/opp-drained/data/Keyspace1");
        List<Path> nodes = new ArrayList<>();
        for (int n = 1; n <= 3; n++) nodes.add(Files.createDirectories(dir.resolve("copies/node" + n + "/Keyspace1")));
        Map<String, Integer> next = new TreeMap<>();
        Pattern dataFile = Pattern.compile("(\\w+)-(\\d+)-Data\\.db");
        try (Stream<Path> files = Files.list(from)) {
            for (Path data : files.sorted().toList()) {
                Matcher m = dataFile.matcher(data.getFileName().toString());
                if (!m.matches()) continue;
                String cf = m.group(1);
                String base = cf + "-" + m.group(2) + "-";
                boolean compacted = Files.exists(from.resolve(base + "Compacted"));
                Path to = compacted ? nodes.get(0) : nodes.get(next.merge(cf, 1, Integer::sum) % 3);
                String newBase = compacted ? base : cf + "-7-";
                for (String component : List.of("Data.db", "Index.db", "Filter.db", "Compacted")) {
                    if (Files.exists(from.resolve(base + component))) {
                        Files.copy(from.resolve(base + component), to.resolve(newBase + component));
                    }
                }
            }
        }
        return nodes;
    }

    @Test
    void sstablesOfADrainedZeroSixNodeCopiedAsFromThreeNodesLoadIntoAFreshNodeThatAnswersAsZeroSixDid() throws Exception {
        Cassandra06Fixture fixture = new Cassandra06Fixture("opp-drained");
        LocalNode node = LocalNode.configuredBy(dir.resolve("server"), fixture.storageConf());
        List<Path> nodes = threeNodes();
        Map<String, Long> before = Cassandra06Fixture.checksums(dir.resolve("copies"));
        Path conf = dir.resolve("server/conf");
        node.start("loaded");
        try {
            for (String cf : List.of("Standard1", "StdUTF8", "Super1")) {
                List<String> args = new ArrayList<>(List.of("--conf", conf.toString(), "-K", "Keyspace1", "-c", cf));
                if (cf.equals("StdUTF8")) args.add("--framed");
                for (Path n : nodes) args.add(n.toString());
                Result loaded = sstableloader(dir, args.toArray(String[]::new));
                assertEquals(0, loaded.status(), loaded.out() + loaded.err());
                // Super1's one SSTable 0.6 loaded went to node 2, and the ones it had marked compacted to node 1.
                assertEquals(cf.equals("Super1") ? "sstableloader: " + nodes.get(2) + ": holds no SSTable of Super1\n" : "",
                        loaded.err());
                assertTrue(loaded.out().contains(" of Keyspace1." + cf + ":\n"), loaded.out());
                if (cf.equals("StdUTF8")) { // one SSTable on each node, all three of generation 7
                    for (Path n : nodes) {
                        assertTrue(loaded.out().contains(n.resolve("StdUTF8-7-Data.db") + " (Cassandra 0.6): "), loaded.out());
                    }
                }
                assertTrue(Pattern.compile("Sent \\d+ rows to 127\\.0\\.0\\.1:\\d+ in \\d+ batch_mutate calls: \\d+"
                        + " columns, \\d+ tombstones").matcher(loaded.out()).find(), loaded.out());
                assertTrue(Pattern.compile("Elapsed \\d+\\.\\d s \\(\\d+ rows/s\\)").matcher(loaded.out()).find(),
                        loaded.out());
                if (cf.equals("Super1")) {
                    assertTrue(loaded.out().contains("Skipped " + nodes.get(0).resolve("Super1-1-Compacted")), loaded.out());
                }
            }
            assertAnswersAsZeroSixDid(node, fixture);
        } finally {
            node.stop();
        }
        node.start("restarted");
        try {
            assertAnswersAsZeroSixDid(node, fixture);
        } finally {
            node.stop();
        }
        assertEquals(before, Cassandra06Fixture.checksums(dir.resolve("copies")), "the copies only read");
    }

    private static void assertAnswersAsZeroSixDid(LocalNode node, Cassandra06Fixture fixture) throws Exception {
        Cassandra.Client client = node.client();
        try {
            for (Map.Entry<String, String> cf : fixture.rangeAnswers().entrySet()) {
                String[] ksCf = cf.getKey().split("\\.");
                assertEquals(cf.getValue(), Cassandra06Fixture.rangeAnswer(client, ksCf[0], ksCf[1]), cf.getKey());
            }
            for (String query : fixture.sliceAnswers()) {
                assertEquals(query, Cassandra06Fixture.sliceAnswer(client, query));
            }
        } finally {
            LocalNode.close(client);
        }
    }

    @Test
    void refusalsAndBadCommandLinesSayWhyInOneLine() throws Exception {
        List<Path> nodes = threeNodes();
        Files.writeString(nodes.get(1).resolve("notes.txt"), "copied from node 2");
        Cassandra06Fixture fixture = new Cassandra06Fixture("opp-drained");
        LocalNode.configuredBy(dir.resolve("server"), fixture.storageConf()); // writes its conf; never started
        String conf = dir.resolve("server/conf").toString();

        Result foreign = sstableloader(dir, "--conf", conf, "-K", "Keyspace1", "-c", "Standard1", nodes.get(0).toString(),
                nodes.get(1).toString());
        assertEquals(1, foreign.status(), foreign.out() + foreign.err());
        assertEquals("", foreign.out());
        assertTrue(foreign.err().startsWith("sstableloader: a file given is not part of an SSTable of Standard1 that can"
                + " be read; nothing was sent:\n  " + nodes.get(1).resolve("notes.txt")), foreign.err());

        Result notRunning = sstableloader(dir, "--conf", conf, "-K", "Keyspace1", "-c", "Standard1",
                nodes.get(2).toString());
        assertEquals(1, notRunning.status());
        assertEquals(1, notRunning.err().lines().count(), notRunning.err());
        assertTrue(notRunning.err().startsWith("sstableloader: cannot connect to 127.0.0.1:"), notRunning.err());

        Result bad = sstableloader(dir, "--conf", conf, "-K", "Keyspace1", nodes.get(0).toString());
        assertEquals(2, bad.status());
        assertTrue(bad.err().startsWith("sstableloader: -K KEYSPACE and -c COLUMNFAMILY are required\nUsage:"), bad.err());

        Result help = sstableloader(dir, "--help");
        assertEquals(0, help.status());
        assertTrue(help.out().startsWith("Usage: sstableloader"), help.out());
    }
}
