package sibyl.hardening;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Says, independently of the server's code, whether bytes form exactly one well-formed TBinaryProtocol call the
 * server must answer and stay in step: a strict or old-style CALL header, then an argument struct whose every
 * field and container element is walked by its type codes, nesting at most {@link #MAX_NESTING} levels below the
 * argument struct, non-empty containers naming real element types, and no byte left over.
 *
 * <p>Anything else (truncated, trailing bytes, unknown types, negative sizes, a ONEWAY or reply type) is not a
 * call the server must answer; for those the fuzzer half-closes and only asks that the server close in time.
 */
final class RequestShape {
    /** Structs and containers the server walks below the argument struct (its stack holds 64 levels). */
    static final int MAX_NESTING = 63;

    /** The call header, when the bytes are exactly one answerable call; null otherwise. */
    record Call(String method, int seqId) {
    }

    private final ByteBuffer bytes;

    private RequestShape(byte[] message) {
        this.bytes = ByteBuffer.wrap(message);
    }

    /**
     * @param message         the message bytes (frame length excluded)
     * @param framed          whether the connection sends frames
     * @param firstOnConnection whether these are the connection's first bytes, from which the server tells its mode
     */
    static Call answerable(byte[] message, boolean framed, boolean firstOnConnection) {
        if (firstOnConnection && !looksLike(message, framed)) {
            return null;
        }
        try {
            return new RequestShape(message).walk();
        } catch (RuntimeException notACall) { // BufferUnderflow, negative sizes, bad types: not a call
            return null;
        }
    }

    /** Mirrors the documented mode detection: which mode the server takes these first bytes for. */
    private static boolean looksLike(byte[] message, boolean framed) {
        if (message.length < 2) {
            return false;
        }
        boolean strict = (message[0] & 0xff) == 0x80 && message[1] == 0x01;
        if (framed) {
            return strict || message[0] == 0; // byte 4 of the connection, after the frame length
        }
        if (strict) {
            return true;
        }
        return message.length > 4 && message[4] != 0 && (message[4] & 0xff) != 0x80;
    }

    private Call walk() {
        int word = bytes.getInt();
        String name;
        byte type;
        int seqId;
        if (word < 0) {
            if ((word & 0xffff0000) != 0x80010000) {
                return null;
            }
            type = (byte) word;
            name = string();
            seqId = bytes.getInt();
        } else {
            name = string(word);
            type = bytes.get();
            seqId = bytes.getInt();
        }
        if (type != 1) { // only CALL: a ONEWAY call gets no reply whose arrival could be awaited
            return null;
        }
        struct(0);
        return bytes.hasRemaining() ? null : new Call(name, seqId);
    }

    private void struct(int depth) {
        while (true) {
            byte type = bytes.get();
            if (type == 0) {
                return;
            }
            check(isValueType(type));
            bytes.getShort();
            value(type, depth);
        }
    }

    private void value(byte type, int depth) {
        switch (type) {
            case 2, 3 -> bytes.get();
            case 6 -> bytes.getShort();
            case 8 -> bytes.getInt();
            case 4, 10 -> bytes.getLong();
            case 11 -> string();
            case 12 -> {
                check(depth < MAX_NESTING);
                struct(depth + 1);
            }
            case 13 -> {
                check(depth < MAX_NESTING);
                byte key = bytes.get();
                byte val = bytes.get();
                int size = size();
                check(size == 0 ? isValueOrEmpty(key) && isValueOrEmpty(val) : isValueType(key) && isValueType(val));
                for (int i = 0; i < size; i++) {
                    value(key, depth + 1);
                    value(val, depth + 1);
                }
            }
            case 14, 15 -> {
                check(depth < MAX_NESTING);
                byte element = bytes.get();
                int size = size();
                check(size == 0 ? isValueOrEmpty(element) : isValueType(element));
                for (int i = 0; i < size; i++) {
                    value(element, depth + 1);
                }
            }
            default -> throw new IllegalArgumentException("type " + type);
        }
    }

    private String string() {
        return string(size());
    }

    private String string(int length) {
        check(length >= 0 && length <= bytes.remaining());
        byte[] b = new byte[length];
        bytes.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    private int size() {
        int size = bytes.getInt();
        check(size >= 0 && size <= bytes.remaining());
        return size;
    }

    private static boolean isValueType(byte type) {
        return switch (type) {
            case 2, 3, 4, 6, 8, 10, 11, 12, 13, 14, 15 -> true;
            default -> false;
        };
    }

    private static boolean isValueOrEmpty(byte type) {
        return isValueType(type) || type == 0 || type == 1;
    }

    private static void check(boolean condition) {
        if (!condition) {
            throw new IllegalArgumentException("not a call");
        }
    }
}
