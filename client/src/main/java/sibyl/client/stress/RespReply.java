package sibyl.client.stress;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One reply of a Redis server in RESP2, the protocol of Redis 2 and later: a simple string ({@code +OK}), an error
 * ({@code -ERR ...}), an integer ({@code :3}), a bulk string ({@code $5 hello}, or {@code $-1}, nil) or an array of
 * replies ({@code *2 ...}, or {@code *-1}, nil). Read by {@link RespReader}.
 */
sealed interface RespReply {

    /** {@code +text}: a status such as OK or PONG. */
    record SimpleString(String text) implements RespReply {
    }

    /** {@code -text}: the command was refused; by convention the text starts with a code, e.g. {@code ERR} or WRONGTYPE. */
    record ErrorReply(String text) implements RespReply {
    }

    /** {@code :n}. */
    record IntegerReply(long value) implements RespReply {
    }

    /** {@code $n} and n bytes; {@code bytes} is null for nil ({@code $-1}), what GET answers for a missing key. */
    record BulkString(byte[] bytes) implements RespReply {
        boolean isNil() {
            return bytes == null;
        }
    }

    /** {@code *n} and n replies; {@code elements} is null for a nil array ({@code *-1}). */
    record ArrayReply(List<RespReply> elements) implements RespReply {
        public ArrayReply {
            elements = elements == null ? null : List.copyOf(elements);
        }
    }

    /** The reply as an error message would quote it, e.g. {@code +OK}, {@code $-1}, {@code $34 bytes}. */
    static String describe(RespReply reply) {
        if (reply instanceof SimpleString s) {
            return "+" + s.text();
        }
        if (reply instanceof ErrorReply e) {
            return "-" + e.text();
        }
        if (reply instanceof IntegerReply i) {
            return ":" + i.value();
        }
        if (reply instanceof BulkString b) {
            return b.isNil() ? "$-1" : "$" + b.bytes().length + " '" + preview(b.bytes()) + "'";
        }
        ArrayReply a = (ArrayReply) reply;
        return a.elements() == null ? "*-1" : "an array of " + a.elements().size();
    }

    private static String preview(byte[] bytes) {
        String text = new String(bytes, 0, Math.min(bytes.length, 40), StandardCharsets.UTF_8);
        return bytes.length > 40 ? text + "..." : text;
    }
}
