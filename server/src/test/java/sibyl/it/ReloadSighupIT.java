package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.it.Requests.b;
import static sibyl.it.Requests.path;
import static sibyl.it.Requests.text;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -HUP} to bin/server rereads storage-conf.xml (docs/configuration.md §Reloading without a
 * restart): the outcome is in the log (one INFO line per change, one ERROR line for a refusal), the node
 * serves on in every case, and a new keyspace is served at once on the connection opened before.
 */
class ReloadSighupIT {
    @TempDir
    Path dir;

    private static void hangUp(ForkedServer server) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(server.pid())).inheritIO().start();
        assertTrue(kill.waitFor(30, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -HUP sent");
    }

    /** Waits for the server's console to show {@code line} for the {@code n}th time. */
    private static String awaitLog(Path out, String line, int n) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            String log = Files.readString(out);
            List<String> found = log.lines().filter(l -> l.contains(line)).toList();
            if (found.size() >= n) return found.get(n - 1);
            if (System.nanoTime() > deadline) throw new AssertionError("no '" + line + "' (" + n + ") in:\n" + log);
            Thread.sleep(20);
        }
    }

    @Test
    void sighupReloadsTheConfigurationAndTheNodeServesOn() throws Exception {
        // JMX off: the test needs no port of its own beyond the client's.
        Path conf = ForkedServer.installConf(dir, xml -> xml.replaceFirst("<JmxPort>\\d+</JmxPort>",
                "<JmxPort>0</JmxPort>"));
        Path file = conf.resolve("storage-conf.xml");
        Path out = dir.resolve("server.out");
        ForkedServer server = ForkedServer.start(conf, out);
        Cassandra.Client client = server.client();
        try {
            assertFalse(client.describe_keyspaces().contains("Hup"));
            String shipped = Files.readString(file);
            Files.writeString(file, ConfEdits.addKeyspace(ConfEdits.keyspace("Hup", 1,
                    "<ColumnFamily Name=\"Users\" CompareWith=\"UTF8Type\"/>")).apply(shipped));

            hangUp(server);
            String applied = awaitLog(out, "Configuration reloaded: ", 1);
            assertTrue(applied.contains("INFO") && applied.endsWith("Configuration reloaded: Storage/Keyspaces/"
                    + "Keyspace[@Name='Hup']: new keyspace with column families Users"), applied);

            assertTrue(client.describe_keyspaces().contains("Hup"));
            client.insert("Hup", "k", path("Users", "name"), b("v"), 1, ConsistencyLevel.ONE);
            assertEquals("v", text(client.get("Hup", "k", path("Users", "name"), ConsistencyLevel.ONE).getColumn()
                    .bufferForValue()));

            // A change that takes a restart: one ERROR line, nothing applied, the node serves on.
            Files.writeString(file, Files.readString(file).replaceFirst("<ThriftPort>\\d+</ThriftPort>",
                    "<ThriftPort>1</ThriftPort>").replace("<ColumnFamily Name=\"Users\" CompareWith=\"UTF8Type\"/>",
                    "<ColumnFamily Name=\"Users\" CompareWith=\"UTF8Type\"/><ColumnFamily Name=\"More\"/>"));
            hangUp(server);
            String refused = awaitLog(out, "Configuration reload refused", 1);
            assertTrue(refused.contains("ERROR") && refused.contains(file + ": Storage/ThriftPort: changed from 0 to 1"),
                    refused);
            assertTrue(server.alive(), "SIGHUP does not stop the node");
            assertFalse(client.describe_keyspace("Hup").containsKey("More"), "nothing of the refused file applied");
            assertEquals("v", text(client.get("Hup", "k", path("Users", "name"), ConsistencyLevel.ONE).getColumn()
                    .bufferForValue()));
            assertEquals(1, Files.readString(out).lines().filter(l -> l.contains("Configuration reloaded: ")).count(),
                    "one INFO line per change");
        } finally {
            ForkedServer.close(client);
            server.stop();
        }
    }
}
