package sibyl.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.thrift.protocol.TMessageType;
import org.junit.jupiter.api.Test;

class WireModeTest {
    private static final int LIMIT = 64 * 1024;

    private static final byte[] STRICT = WireBytes.call("describe_version", 1, new Cassandra.describe_version_args(), true);
    private static final byte[] OLD = WireBytes.call("describe_version", 1, new Cassandra.describe_version_args(), false);

    @Test
    void unframedStrictAndOldStyle() throws Exception {
        assertEquals(WireMode.UNFRAMED, detect(STRICT));
        assertEquals(WireMode.UNFRAMED, detect(OLD));
        assertEquals(WireMode.UNFRAMED, detect(new WireBytes().oldHeader("", TMessageType.CALL, 1).stop().toArray()));
    }

    @Test
    void framedStrictAndOldStyle() throws Exception {
        assertEquals(WireMode.FRAMED, detect(WireBytes.framed(STRICT)));
        assertEquals(WireMode.FRAMED, detect(WireBytes.framed(OLD)));
    }

    @Test
    void waitsForTheBytesThatDecide() throws Exception {
        assertNull(detect(new byte[0]));
        assertNull(detect(Arrays.copyOf(STRICT, 1)));
        assertNull(detect(Arrays.copyOf(OLD, 4)), "a length alone could be either");
        assertNull(detect(Arrays.copyOf(WireBytes.framed(STRICT), 3)));
        assertEquals(WireMode.UNFRAMED, detect(Arrays.copyOf(STRICT, 2)));
    }

    @Test
    void refusesAnHttpRequest() {
        MalformedMessageException refused = assertThrows(MalformedMessageException.class,
                () -> detect("GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII)));
        assertTrue(refused.getMessage().contains("47 45 54 20 2f 20 48 54 (\"GET / HT\")"), refused.getMessage());
        assertTrue(refused.getMessage().contains("1195725856 exceeds the 65536-byte message limit"), refused.getMessage());
    }

    @Test
    void refusesTwoGigabyteFrames() {
        assertThrows(MalformedMessageException.class, () -> detect(new WireBytes().i32(Integer.MAX_VALUE).raw(STRICT).toArray()));
        assertThrows(MalformedMessageException.class, () -> detect(new WireBytes().i32(Integer.MIN_VALUE).raw(STRICT).toArray()));
        assertThrows(MalformedMessageException.class, () -> detect(new WireBytes().i32(LIMIT + 1).toArray()));
    }

    @Test
    void refusesNegativeFirstWords() {
        assertThrows(MalformedMessageException.class, () -> detect(new byte[] {(byte) 0xff, 0}));
        assertThrows(MalformedMessageException.class, () -> detect(new byte[] {(byte) 0x82, 0x21})); // compact protocol
    }

    private static WireMode detect(byte[] bytes) throws MalformedMessageException {
        return WireMode.detect(Unpooled.wrappedBuffer(bytes), LIMIT);
    }
}
