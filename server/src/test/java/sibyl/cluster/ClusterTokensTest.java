package sibyl.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Which cluster partitioner each of Sibyl's meets, and a ByteOrderedPartitioner token as an OrderPreservingPartitioner
 * one: its UTF-8 text, up to the first stray byte.
 */
class ClusterTokensTest {

    @Test
    void wellFormedBytesAreTheirText() {
        assertEquals("user:é1", ClusterTokens.utf8Prefix("user:é1".getBytes(StandardCharsets.UTF_8)));
        assertEquals("", ClusterTokens.utf8Prefix(new byte[0]));
    }

    @Test
    void textEndsBeforeTheFirstByteThatIsNotUtf8() {
        assertEquals("ab", ClusterTokens.utf8Prefix(new byte[] {'a', 'b', (byte) 0xff, 'c'}));
        assertEquals("a", ClusterTokens.utf8Prefix(new byte[] {'a', (byte) 0xc3})); // a sequence cut short
        assertEquals("", ClusterTokens.utf8Prefix(new byte[] {(byte) 0x80, 'a'}));
    }

    @Test
    void eachPartitionerMeetsOnlyClustersThatOrderRowsAsItDoes() {
        String dht = "org.apache.cassandra.dht.";
        assertEquals(java.util.Optional.of(ClusterTokens.Kind.MURMUR3), ClusterTokens.kind(dht + "Murmur3Partitioner",
                dht + "Murmur3Partitioner"));
        assertEquals(java.util.Optional.of(ClusterTokens.Kind.RANDOM), ClusterTokens.kind(dht + "RandomPartitioner",
                dht + "RandomPartitioner"));
        assertEquals(java.util.Optional.of(ClusterTokens.Kind.BYTES), ClusterTokens.kind(dht + "ByteOrderedPartitioner",
                dht + "ByteOrderedPartitioner"));
        assertEquals(java.util.Optional.of(ClusterTokens.Kind.KEYS), ClusterTokens.kind(dht + "OrderPreservingPartitioner",
                dht + "ByteOrderedPartitioner"));
        for (String[] misfit : new String[][] {{"Murmur3Partitioner", "RandomPartitioner"},
                {"RandomPartitioner", "Murmur3Partitioner"}, {"ByteOrderedPartitioner", "OrderPreservingPartitioner"},
                {"OrderPreservingPartitioner", "Murmur3Partitioner"}, {"CollatingOrderPreservingPartitioner", "ByteOrderedPartitioner"},
                {"Murmur3Partitioner", ""}}) {
            assertEquals(java.util.Optional.empty(), ClusterTokens.kind(dht + misfit[0], misfit[1].isEmpty() ? "" : dht + misfit[1]),
                    misfit[0] + " over " + misfit[1]);
        }
    }
}
