package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/nodetool reloadconf} against {@code bin/server} as an operator runs them: the node's
 * storage-conf.xml edited while it serves, then reloaded. A new keyspace and a resized cache apply at once
 * (one printed line each; the keyspace served on a connection opened before, and shown by cfstats); a
 * changed comparator refuses the whole file in one line and exit status 1, and the node serves on as before.
 */
class ReloadConfIT {
    private static final String USERS = "<ColumnFamily Name=\"Users\" CompareWith=\"UTF8Type\"/>";

    @TempDir
    Path dir;

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String keyspace(String name, String columnFamilies) {
        return "<Keyspace Name=\"" + name + "\">" + columnFamilies
                + "<ReplicaPlacementStrategy>org.apache.cassandra.locator.RackUnawareStrategy</ReplicaPlacementStrategy>"
                + "<ReplicationFactor>1</ReplicationFactor>"
                + "<EndPointSnitch>org.apache.cassandra.locator.EndPointSnitch</EndPointSnitch></Keyspace>";
    }

    private static void edit(Path file, String target, String replacement) throws Exception {
        String xml = Files.readString(file);
        assertTrue(xml.contains(target), () -> "the file has " + target);
        Files.writeString(file, xml.replace(target, replacement));
    }

    @Test
    void reloadconfAppliesChangesAndRefusesAWholeFileInOneLine() throws Exception {
        LocalNode node = new LocalNode(dir);
        Path file = dir.resolve("conf/storage-conf.xml");
        node.start("server");
        Cassandra.Client client = node.client();
        try {
            LocalNode.Result unchanged = node.nodetool("reloadconf");
            assertEquals(new LocalNode.Result(0, "no changes\n"), unchanged);

            edit(file, "</Keyspaces>", keyspace("Reloaded", USERS) + "</Keyspaces>");
            edit(file, "KeysCached=\"100%\"", "KeysCached=\"10\"");
            LocalNode.Result applied = node.nodetool("reloadconf");
            assertEquals(new LocalNode.Result(0,
                    "Storage/Keyspaces/Keyspace[@Name='Keyspace1']/ColumnFamily[@Name='Standard2']/@KeysCached:"
                            + " changed from 100% to 10\n"
                            + "Storage/Keyspaces/Keyspace[@Name='Reloaded']: new keyspace with column families Users\n"),
                    applied);

            ColumnPath name = new ColumnPath("Users").setColumn(bytes("name"));
            client.insert("Reloaded", "jsmith", name, bytes("John"), 1, ConsistencyLevel.ONE);
            assertEquals("John", new String(client.get("Reloaded", "jsmith", name, ConsistencyLevel.ONE).getColumn()
                    .getValue(), StandardCharsets.UTF_8));
            String cfstats = node.nodetool("cfstats").output();
            assertTrue(cfstats.contains("Keyspace: Reloaded") && cfstats.contains("Column Family: Users"), cfstats);

            edit(file, "<ColumnFamily Name=\"Standard2\" CompareWith=\"UTF8Type\"",
                    "<ColumnFamily Name=\"Standard2\" CompareWith=\"BytesType\"");
            edit(file, "</Keyspaces>", keyspace("NotAdded", USERS) + "</Keyspaces>");
            LocalNode.Result refused = node.nodetool("reloadconf");
            assertEquals(1, refused.status(), refused.output());
            assertEquals("nodetool: reloadconf failed: " + file + ": Storage/Keyspaces/Keyspace[@Name='Keyspace1']/"
                    + "ColumnFamily[@Name='Standard2']/@CompareWith: changed from UTF8Type to BytesType; stored names"
                    + " are sorted by the comparator, so it cannot change under them; add a column family of another"
                    + " name instead\n", refused.output());
            assertFalse(client.describe_keyspaces().contains("NotAdded"));
            assertEquals("org.apache.cassandra.db.marshal.UTF8Type",
                    client.describe_keyspace("Keyspace1").get("Standard2").get("CompareWith"));
            assertTrue(node.alive());
        } finally {
            LocalNode.close(client);
            node.stop();
        }
    }

    @Test
    void reloadconfHasHelpAndTakesNoArguments() throws Exception {
        LocalNode node = new LocalNode(dir);
        LocalNode.Result help = node.nodetool("reloadconf", "--help");
        assertEquals(0, help.status(), help.output());
        assertTrue(help.output().contains("reloadconf        reread the node's storage-conf.xml"), help.output());
        LocalNode.Result extra = node.nodetool("reloadconf", "Keyspace1");
        assertEquals(new LocalNode.Result(2, "nodetool: too many arguments for reloadconf: Keyspace1"
                + " (--help shows the usage)\n"), extra);
    }
}
