package sibyl.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.faults.AckedRows.CF;
import static sibyl.faults.AckedRows.KS;
import static sibyl.faults.AckedRows.assertHoldsExactly;
import static sibyl.faults.AckedRows.writeAll;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.it.ForkedServer;
import sibyl.jmx.StorageServiceMBean;

/**
 * bin/server with its data directory on a small tmpfs, asked for snapshots over JMX (as
 * bin/nodetool snapshot does) while the disk is full: first full of data, so the flush a snapshot
 * begins with cannot be written; then out of inodes, so the snapshot's directories and hard links
 * cannot be made (half-way, as the disk has room for a few). Each time the caller is told why,
 * nothing of the snapshot is left on disk, the node's log says so in a line, and the node goes on
 * serving every acknowledged row; once there is room the same snapshot succeeds. Needs root.
 */
class SnapshotDiskFullIT {
    private static final int DISK_MB = 16;
    private static final int INODES = 400;

    @TempDir
    Path dir;

    @Test
    void aSnapshotOnAFullDiskFailsSayingWhyAndLeavesNothing() throws Exception {
        try (SmallDisk disk = SmallDisk.mount(dir.resolve("disk"), DISK_MB, INODES)) {
            Path data = disk.path().resolve("data");
            int jmxPort = NodeJmx.freePort();
            Path conf = ForkedServer.installConf(dir, ForkedServer.batchSync("1").andThen(xml -> xml
                    .replaceFirst("<DataFileDirectory>[^<]*<", "<DataFileDirectory>" + data + "<")
                    .replaceFirst("<ListenAddress>[^<]*<", "<ListenAddress>127.0.0.1<")
                    .replaceFirst("<JmxPort>\\d+</JmxPort>", "<JmxPort>" + jmxPort + "</JmxPort>"))::apply);
            Path log = dir.resolve("snapshot.out");
            ForkedServer server = ForkedServer.start(conf, log);
            try (NodeJmx jmx = NodeJmx.connect(jmxPort)) {
                StorageServiceMBean node = jmx.storageService();
                WriteLedger ledger = new WriteLedger();
                writeAll(server, ledger, "flushed-", 50);
                node.forceTableFlush(KS, CF);

                // Full of data: the snapshot's flush of the rows written since cannot be written.
                writeAll(server, ledger, "in-memory-", 50);
                disk.fillLeaving(0);
                IOException flushFailed = assertThrows(IOException.class, () -> node.takeAllSnapshotWithin(2, "full"));
                assertTrue(flushFailed.getMessage().startsWith("snapshot not taken: flush of keyspace ")
                        && flushFailed.getMessage().contains("did not finish within 2000 ms; the last flush failure: ")
                        && flushFailed.getMessage().contains("No space left on device"), flushFailed.getMessage());
                assertNoSnapshot(data);
                assertHoldsExactly(server, ledger, "after the snapshot's flush failed");
                disk.freeFiller();
                node.forceTableFlushWithin(60, KS, CF);

                // Out of inodes, with room for a few: the snapshot fails while it links.
                int fillers = disk.fillInodesLeaving(4);
                IOException linkFailed = assertThrows(IOException.class, () -> node.takeAllSnapshot("full"));
                System.out.printf("snapshot: %d inodes filled; the snapshot failed with: %s%n", fillers,
                        linkFailed.getMessage());
                assertTrue(linkFailed.getMessage().matches("snapshot \\d+-full failed: could not (create|link) .*: No"
                        + " space left on device; nothing of it is kept"), linkFailed.getMessage());
                assertNoSnapshot(data);
                assertTrue(server.alive(), "the node survives failed snapshots");
                assertHoldsExactly(server, ledger, "after the snapshot's links failed");
                String output = Files.readString(log);
                assertEquals(1, ServerLog.count(output, linkFailed.getMessage()), "the node logs it in a line:\n" + output);
                assertFalse(output.contains("\n\tat "), "no stack trace:\n" + output);

                disk.freeInodes();
                List<String> taken = node.takeAllSnapshot("full");
                assertEquals(1, taken.size(), taken.toString());
                Path snapshot = Path.of(taken.get(0));
                assertTrue(snapshot.getFileName().toString().matches("\\d+-full") && snapshot.startsWith(data.resolve(KS)),
                        snapshot.toString());
                try (Stream<Path> files = Files.list(snapshot)) {
                    assertEquals(2 * 5, files.count(), "both SSTables of " + CF + ", five components each");
                }
                assertHoldsExactly(server, ledger, "after the snapshot");
            } finally {
                server.stop();
            }
        }
    }

    /** No snapshot directory, finished or not, anywhere under the data directory. */
    private static void assertNoSnapshot(Path data) throws IOException {
        try (Stream<Path> all = Files.walk(data)) {
            List<Path> left = all.filter(p -> p.toString().contains("/snapshots/")).toList();
            assertEquals(List.of(), left, "nothing of a failed snapshot is left");
        }
    }
}
