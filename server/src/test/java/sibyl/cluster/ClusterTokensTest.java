package sibyl.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A ByteOrderedPartitioner token as an OrderPreservingPartitioner one: its UTF-8 text, up to the first stray byte. */
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
}
