package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive mvn package makes, unpacked as an operator would: its bin/server starts a node
 * from its own lib/ (no Maven, no source beside it) that serves clients, and {@code --version} says
 * what it is.
 */
class ReleaseArchiveIT {
    @TempDir
    Path dir;

    private static Path archive() throws IOException {
        try (Stream<Path> files = Files.list(LocalNode.home().resolve("client/target"))) {
            List<Path> found = files.filter(f -> f.getFileName().toString().matches("sibyl-.+\\.tar\\.gz")).toList();
            assertEquals(1, found.size(), "one release archive in client/target: " + found);
            return found.get(0);
        }
    }

    private Path unpack() throws IOException, InterruptedException {
        Path into = Files.createDirectories(dir.resolve("unpacked"));
        Process tar = new ProcessBuilder("tar", "-xzf", archive().toString(), "-C", into.toString()).inheritIO().start();
        assertTrue(tar.waitFor(60, TimeUnit.SECONDS) && tar.exitValue() == 0, "tar -xzf");
        try (Stream<Path> top = Files.list(into)) {
            List<Path> dirs = top.toList();
            assertEquals(1, dirs.size(), "one directory at the top: " + dirs);
            return dirs.get(0);
        }
    }

    @Test
    void anUnpackedReleaseRunsANodeFromItsOwnLib() throws Exception {
        Path install = unpack();
        for (String part : List.of("bin/server", "bin/cli", "bin/nodetool", "bin/sstable2json", "bin/json2sstable",
                "bin/sstableloader",
                "conf/storage-conf.xml", "docs/differences.md", "lib/sibyl-server.jar", "lib/sibyl-client.jar",
                "README.md")) {
            assertTrue(Files.exists(install.resolve(part)), part);
        }
        assertTrue(Files.isExecutable(install.resolve("bin/server")));
        assertFalse(Files.exists(install.resolve("server")), "no source tree in the archive");

        Path out = dir.resolve("version.txt");
        Process version = new ProcessBuilder(install.resolve("bin/server").toString(), "--version")
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertTrue(version.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, version.exitValue(), Files.readString(out));
        String text = Files.readString(out);
        assertTrue(text.startsWith("Sibyl " + install.getFileName().toString().substring("sibyl-".length())
                + ", Thrift API 2.2.0"), text);

        LocalNode node = new LocalNode(dir.resolve("node"), install);
        node.start("release");
        try {
            Cassandra.Client client = node.client();
            ColumnPath path = new ColumnPath("Standard1");
            path.setColumn("c".getBytes(StandardCharsets.UTF_8));
            client.insert("Keyspace1", "k", path, ByteBuffer.wrap("v".getBytes(StandardCharsets.UTF_8)), 1,
                    ConsistencyLevel.ONE);
            assertEquals("v", new String(client.get("Keyspace1", "k", path, ConsistencyLevel.ONE).getColumn()
                    .getValue(), StandardCharsets.UTF_8));
            LocalNode.close(client);
            LocalNode.Result info = node.nodetool("info");
            assertEquals(0, info.status(), info.output());
        } finally {
            node.stop();
        }
    }
}
