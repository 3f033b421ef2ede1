package sibyl.thrift20;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Names, keys and values of the 0.7+ tests, which the binary API carries as bytes, written as text. */
final class Text {
    private Text() {
    }

    static ByteBuffer b(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    /** The buffer's remaining bytes as UTF-8; the buffer is not moved. */
    static String s(ByteBuffer b) {
        byte[] bytes = new byte[b.remaining()];
        b.duplicate().get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
