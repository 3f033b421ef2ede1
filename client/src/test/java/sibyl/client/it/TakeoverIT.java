package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.TokenRange;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A Cassandra 0.6 node taken over where it stands, as an operator does it: its directories and its own
 * storage-conf.xml, bin/server started on them. Each fixture is a real 0.6.5 node's directories after it was
 * killed, drained or stopped (server/src/test/resources/c06/README.md); the node must serve exactly what 0.6
 * served just before it stopped, keep 0.6's files as they were, and go on doing so across restarts and once
 * nodetool upgradesstables has rewritten them.
 */
class TakeoverIT {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"random-killed", "opp-drained", "copp-stopped"})
    void servesExactlyWhatTheNodeServedAndKeepsItsFiles(String name) throws Exception {
        Cassandra06Fixture fixture = new Cassandra06Fixture(name);
        LocalNode node = LocalNode.configuredBy(dir, fixture.storageConf());
        fixture.copyInto(node.data(), node.commitLog());
        Map<String, Long> logBefore = Cassandra06Fixture.checksums(node.commitLog());
        Map<String, Long> dataBefore = Cassandra06Fixture.checksums(node.data());

        node.start("takeover");
        try {
            assertServesTheFixture(node, fixture);
        } finally {
            node.stop();
        }
        // 0.6's commit log is never deleted or written; its SSTables are only ever removed by a compaction
        // that replaced them, never changed.
        Map<String, Long> logAfter = Cassandra06Fixture.checksums(node.commitLog());
        for (Map.Entry<String, Long> f : logBefore.entrySet()) assertEquals(f.getValue(), logAfter.get(f.getKey()), f.getKey());
        Map<String, Long> dataAfter = Cassandra06Fixture.checksums(node.data());
        for (Map.Entry<String, Long> f : dataBefore.entrySet()) {
            if (dataAfter.containsKey(f.getKey())) assertEquals(f.getValue(), dataAfter.get(f.getKey()), f.getKey());
        }

        // Replayed once: a restart (the 0.6 segments still there) serves the same, and so does one after a crash.
        node.start("restart");
        assertServesTheFixture(node, fixture);
        node.kill();
        node.start("after-kill");
        try {
            assertServesTheFixture(node, fixture);
            LocalNode.Result upgraded = node.nodetool("upgradesstables");
            assertEquals(0, upgraded.status(), upgraded.output());
            assertTrue(upgraded.output().contains(" rewritten in Sibyl's format"), upgraded.output());
            assertServesTheFixture(node, fixture);
            assertEquals(List.of(), live06SSTables(node.data()), "every 0.6 SSTable in use was rewritten and removed");
        } finally {
            node.stop();
        }
        node.start("upgraded");
        try {
            assertServesTheFixture(node, fixture);
        } finally {
            node.stop();
        }
    }

    /**
     * kill -9 while nodetool upgradesstables rewrites the 0.6 SSTables, at several moments: each restart serves what
     * 0.6 served, and an upgrade after it finishes the job. The moments are random (the seed is printed).
     */
    @ParameterizedTest
    @ValueSource(strings = {"random-killed"})
    void aKillDuringTheUpgradeLosesNothing(String name) throws Exception {
        long seed = Long.getLong("takeover.seed", System.nanoTime());
        System.out.println("TakeoverIT.aKillDuringTheUpgradeLosesNothing seed " + seed);
        Random random = new Random(seed);
        Cassandra06Fixture fixture = new Cassandra06Fixture(name);
        LocalNode node = LocalNode.configuredBy(dir, fixture.storageConf());
        fixture.copyInto(node.data(), node.commitLog());
        for (int round = 0; round < 4; round++) {
            node.start("kill-" + round);
            assertServesTheFixture(node, fixture);
            Process upgrade = node.nodetoolInBackground("upgradesstables");
            // nodetool's JVM takes a few hundred ms to reach the node; the upgrade of this fixture as long again
            int delay = 300 + random.nextInt(900);
            Thread.sleep(delay);
            node.kill();
            upgrade.destroyForcibly();
            System.out.println("killed after " + delay + " ms: " + live06SSTables(node.data()).size()
                    + " 0.6 SSTables left");
        }
        node.start("after-kills");
        try {
            assertServesTheFixture(node, fixture);
            LocalNode.Result upgraded = node.nodetool("upgradesstables");
            assertEquals(0, upgraded.status(), upgraded.output());
            assertServesTheFixture(node, fixture);
            assertEquals(List.of(), live06SSTables(node.data()), "seed " + seed);
        } finally {
            node.stop();
        }
    }

    private static void assertServesTheFixture(LocalNode node, Cassandra06Fixture fixture) throws Exception {
        Cassandra.Client client = node.client();
        try {
            for (Map.Entry<String, String> cf : fixture.rangeAnswers().entrySet()) {
                String[] ksCf = cf.getKey().split("\\.");
                assertEquals(cf.getValue(), Cassandra06Fixture.rangeAnswer(client, ksCf[0], ksCf[1]),
                        fixture.name() + ": get_range_slices over " + cf.getKey());
            }
            for (String query : fixture.sliceAnswers()) {
                assertEquals(query, Cassandra06Fixture.sliceAnswer(client, query), fixture.name());
            }
            List<TokenRange> ring = client.describe_ring(keyspaceOf(fixture));
            assertEquals(fixture.token(), ring.get(0).getEnd_token(), fixture.name() + ": the node's token");
        } finally {
            LocalNode.close(client);
        }
    }

    /**
     * The Data files of 0.6 SSTables in the keyspace directories that a node would read: those without Sibyl's
     * Statistics file, leaving out the ones 0.6 itself marked compacted (an empty marker), which stay as 0.6 left them.
     */
    private static List<Path> live06SSTables(Path data) throws IOException {
        try (Stream<Path> files = Files.walk(data)) {
            return files.filter(f -> f.getFileName().toString().endsWith("-Data.db"))
                    .filter(f -> !f.getParent().getFileName().toString().startsWith("snapshots")
                            && !f.toString().contains("/snapshots/"))
                    .filter(f -> {
                        String base = f.getFileName().toString().replace("-Data.db", "");
                        Path marker = f.resolveSibling(base + "-Compacted");
                        try {
                            boolean marked06 = Files.exists(marker) && Files.size(marker) == 0;
                            return !Files.exists(f.resolveSibling(base + "-Statistics.db")) && !marked06;
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    })
                    .toList();
        }
    }

    private static String keyspaceOf(Cassandra06Fixture fixture) throws Exception {
        return fixture.rangeAnswers().keySet().iterator().next().split("\\.")[0];
    }

    @ParameterizedTest
    @ValueSource(strings = {"random-killed"})
    void refusesToStartOnFilesItDoesNotKnowAndTouchesNothing(String name) throws Exception {
        Cassandra06Fixture fixture = new Cassandra06Fixture(name);
        LocalNode node = LocalNode.configuredBy(dir, fixture.storageConf());
        fixture.copyInto(node.data(), node.commitLog());
        Path keyspace = node.data().resolve("Keyspace1");
        Files.writeString(keyspace.resolve("notes.txt"), "an operator's notes");
        Files.write(keyspace.resolve("Standard1-e-1-Data.db"), new byte[] {0, 1, 2, 3});
        Files.write(node.commitLog().resolve("CommitLog-3-1700000000000.log"), new byte[] {0, 0, 0, 3});
        Map<String, Long> dataBefore = Cassandra06Fixture.checksums(node.data());
        Map<String, Long> logBefore = Cassandra06Fixture.checksums(node.commitLog());

        LocalNode.Result refused = node.startRefused("refused");
        assertNotEquals(0, refused.status(), refused.output());
        for (String file : List.of("notes.txt", "Standard1-e-1-Data.db", "CommitLog-3-1700000000000.log")) {
            assertTrue(refused.output().contains(file), "names " + file + ":\n" + refused.output());
        }
        assertEquals(dataBefore, Cassandra06Fixture.checksums(node.data()), "nothing in the data directory changed");
        assertEquals(logBefore, Cassandra06Fixture.checksums(node.commitLog()), "nothing in the commit log changed");
    }
}
