package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node whose Partitioner was changed over its data directory is refused at start-up, naming the new partitioner,
 * even when nothing was flushed yet: the token it saved is not one of the new partitioner's (docs/semantics.md
 * §Partitioners).
 */
class PartitionerChangeTest {
    @TempDir
    Path dir;

    @Test
    void aTokenOfAnotherPartitionerStopsTheStart() throws Exception {
        String beyondALong = "1267650600228229401496703205376"; // 2^100, a RandomPartitioner token
        try (TestNode node = TestNode.start(dir, ConfEdits.set("InitialToken", beyondALong))) {
            node.client().insert("Keyspace1", "k", new ColumnPath("Standard1").setColumn(ByteBuffer.wrap(
                    "c".getBytes(StandardCharsets.UTF_8))), ByteBuffer.wrap(new byte[] {1}), 1, ConsistencyLevel.ONE);
            assertEquals("org.apache.cassandra.dht.RandomPartitioner", node.client().describe_partitioner());
        }
        Exception refused = assertThrows(Exception.class, () -> TestNode.start(dir,
                ConfEdits.partitioner("org.apache.cassandra.dht.Murmur3Partitioner")).close());
        String why = String.valueOf(refused.getMessage());
        assertTrue(why.contains(beyondALong) && why.contains("org.apache.cassandra.dht.Murmur3Partitioner")
                && why.contains("Invalid token for Murmur3Partitioner"), why);
        // Under the partitioner it was written with, the node starts and serves its row again.
        try (TestNode node = TestNode.start(dir)) {
            assertEquals(1, node.client().get_count("Keyspace1", "k", new org.apache.cassandra.thrift.ColumnParent("Standard1"),
                    ConsistencyLevel.ONE));
        }
    }
}
