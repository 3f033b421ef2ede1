package sibyl.transport;

import io.netty.buffer.ByteBuf;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TType;

/**
 * Finds where one TBinaryProtocol request message ends, in bytes that arrive piecemeal, without blocking and
 * without decoding anything: it walks the message header and then the argument struct (fields, nested structs,
 * lists, sets, maps, strings) by the type codes and sizes on the wire.
 *
 * <p>The walk is resumable: {@link #scan} picks up where the previous call stopped, so each byte is looked at once
 * however the message is split. Nothing is allocated by a declared size. Every declared size is checked against the
 * bytes the message could still occupy (its bound: the message limit, or the frame length in framed mode) before it
 * is believed, so a message that cannot fit is refused as soon as its size is seen rather than after buffering it.
 *
 * <p>Offsets are relative to the start of the message. The caller passes the buffer and where the message starts at
 * every call, as the buffer may have been copied or compacted in between.
 */
final class MessageScanner {
    /** {@link #scan} result: the message is not complete yet. */
    static final int NEED_MORE = -1;

    static final int DEFAULT_MAX_DEPTH = 64;

    private static final int VERSION_MASK = 0xffff0000;
    private static final int VERSION_1 = 0x80010000;
    private static final int TYPE_MASK = 0x000000ff;
    /** No value is pending; STOP is never the type of a value. */
    private static final byte NO_VALUE = TType.STOP;

    private final int maxDepth;
    // The stack of structs and containers being walked; level 0 is the argument struct.
    private final byte[] kind;
    private final byte[] keyType;   // list or set: the element type; map: the key type
    private final byte[] valueType; // map: the value type
    private final long[] remaining; // containers: elements still to walk; a map counts keys and values separately

    private long bound;
    private boolean framed;
    private boolean headerDone;
    private int depth;
    /** Bytes of the message walked so far; may run ahead of the bytes present after a string's length was read. */
    private int pos;
    /** Type of a value whose field header or container slot has been walked but the value itself not yet. */
    private byte pendingValue;

    private int nameOffset;
    private int nameLength;
    private byte messageType;
    private int seqId;

    // Valid only during scan().
    private ByteBuf buf;
    private int start;
    private int available;

    MessageScanner() {
        this(DEFAULT_MAX_DEPTH);
    }

    MessageScanner(int maxDepth) {
        if (maxDepth < 1) {
            throw new IllegalArgumentException("maxDepth must be positive, not " + maxDepth);
        }
        this.maxDepth = maxDepth;
        this.kind = new byte[maxDepth];
        this.keyType = new byte[maxDepth];
        this.valueType = new byte[maxDepth];
        this.remaining = new long[maxDepth];
    }

    /**
     * Starts on a new message.
     *
     * @param bound  the most bytes the message may occupy
     * @param framed whether the bound is a frame length (only changes how a violation is worded)
     */
    void reset(int bound, boolean framed) {
        this.bound = bound;
        this.framed = framed;
        this.headerDone = false;
        this.depth = 0;
        this.pos = 0;
        this.pendingValue = NO_VALUE;
    }

    /**
     * Walks on through the message.
     *
     * @param buf       holds the message bytes received so far
     * @param start     index in {@code buf} where the message starts
     * @param available how many bytes from {@code start} on are present (bytes past the message are allowed)
     * @return the length of the message once it is complete, else {@link #NEED_MORE}
     * @throws MalformedMessageException if the bytes cannot be a request within the bound
     */
    int scan(ByteBuf buf, int start, int available) throws MalformedMessageException {
        this.buf = buf;
        this.start = start;
        this.available = available;
        try {
            if (!headerDone && !scanHeader()) {
                return NEED_MORE;
            }
            while (depth > 0) {
                if (pendingValue == NO_VALUE && !scanSlot()) {
                    return NEED_MORE;
                }
                if (pendingValue != NO_VALUE) {
                    if (!scanValue(pendingValue)) {
                        return NEED_MORE;
                    }
                    pendingValue = NO_VALUE;
                }
            }
            return pos;
        } finally {
            this.buf = null;
        }
    }

    /** Whether the message header has been walked, so that its name, type and sequence id are known. */
    boolean headerDone() {
        return headerDone;
    }

    /**
     * Bytes of the message walked so far, which may run ahead of the bytes present after a string's length was
     * read. Once the header is done, bytes before this offset are never looked at again.
     */
    int position() {
        return pos;
    }

    /** Offset of the method name in the message; valid once the header has been walked. */
    int nameOffset() {
        return nameOffset;
    }

    int nameLength() {
        return nameLength;
    }

    /** {@link TMessageType#CALL} or {@link TMessageType#ONEWAY}. */
    byte messageType() {
        return messageType;
    }

    int seqId() {
        return seqId;
    }

    /**
     * The strict header is {@code 0x8001 00 type}, name length, name, sequence id; the old one is name length, name,
     * type byte, sequence id. As in libthrift, the byte after the version is not looked at.
     */
    private boolean scanHeader() throws MalformedMessageException {
        if (!have(4)) {
            return false;
        }
        int word = intAt(0);
        if (word < 0) {
            if ((word & VERSION_MASK) != VERSION_1) {
                throw malformed(String.format("message header %08x is not TBinaryProtocol version 1", word));
            }
            if (!have(8)) {
                return false;
            }
            int length = intAt(4);
            checkSize("method name length", length, length, 8);
            if (!have(8L + length + 4)) {
                return false;
            }
            messageType = (byte) (word & TYPE_MASK);
            nameOffset = 8;
            nameLength = length;
            seqId = intAt(8 + length);
            pos = 12 + length;
        } else {
            int length = word;
            checkSize("method name length", length, length, 4);
            if (!have(4L + length + 5)) {
                return false;
            }
            messageType = byteAt(4 + length);
            nameOffset = 4;
            nameLength = length;
            seqId = intAt(5 + length);
            pos = 9 + length;
        }
        if (messageType != TMessageType.CALL && messageType != TMessageType.ONEWAY) {
            throw malformed("message type " + messageType + " is not a call");
        }
        headerDone = true;
        push(TType.STRUCT, NO_VALUE, NO_VALUE, 0);
        return true;
    }

    /** Walks to the next value of the innermost struct or container, or past its end. */
    private boolean scanSlot() throws MalformedMessageException {
        int top = depth - 1;
        if (kind[top] == TType.STRUCT) {
            if (!have(1)) {
                return false;
            }
            byte type = byteAt(pos);
            if (type == TType.STOP) {
                pos += 1;
                depth--;
                return true;
            }
            if (!isValueType(type)) {
                throw malformed("unknown field type " + type + " at offset " + pos);
            }
            if (!have(3)) { // type and field id
                return false;
            }
            pos += 3;
            pendingValue = type;
        } else if (remaining[top] == 0) {
            depth--;
        } else {
            boolean mapValue = kind[top] == TType.MAP && (remaining[top] & 1) == 1;
            pendingValue = mapValue ? valueType[top] : keyType[top];
            remaining[top]--;
        }
        return true;
    }

    private boolean scanValue(byte type) throws MalformedMessageException {
        switch (type) {
            case TType.BOOL, TType.BYTE:
                return skip(1);
            case TType.I16:
                return skip(2);
            case TType.I32:
                return skip(4);
            case TType.I64, TType.DOUBLE:
                return skip(8);
            case TType.STRING: {
                if (!have(4)) {
                    return false;
                }
                int length = intAt(pos);
                checkSize("string length", length, length, pos + 4);
                pos += 4 + length; // the bytes themselves may still be on their way
                return true;
            }
            case TType.STRUCT:
                push(TType.STRUCT, NO_VALUE, NO_VALUE, 0);
                return true;
            case TType.LIST, TType.SET: {
                if (!have(5)) {
                    return false;
                }
                byte element = byteAt(pos);
                int size = intAt(pos + 1);
                String what = type == TType.LIST ? "list" : "set";
                checkElementType(what, element, size);
                checkSize(what + " size", size, (long) size * minBytes(element), pos + 5);
                pos += 5;
                push(type, element, element, size);
                return true;
            }
            case TType.MAP: {
                if (!have(6)) {
                    return false;
                }
                byte key = byteAt(pos);
                byte value = byteAt(pos + 1);
                int size = intAt(pos + 2);
                checkElementType("map key", key, size);
                checkElementType("map value", value, size);
                checkSize("map size", size, (long) size * (minBytes(key) + minBytes(value)), pos + 6);
                pos += 6;
                push(TType.MAP, key, value, 2L * size);
                return true;
            }
            default:
                throw new AssertionError("not a value type: " + type);
        }
    }

    private void push(byte containerKind, byte key, byte value, long elements) throws MalformedMessageException {
        if (depth == maxDepth) {
            throw malformed("structs and containers nested deeper than " + maxDepth + " levels");
        }
        kind[depth] = containerKind;
        keyType[depth] = key;
        valueType[depth] = value;
        remaining[depth] = elements;
        depth++;
    }

    /** Like libthrift, an empty container may name STOP or VOID as its element type; a non-empty one may not. */
    private void checkElementType(String what, byte type, int size) throws MalformedMessageException {
        boolean acceptable = isValueType(type) || (size == 0 && (type == TType.STOP || type == TType.VOID));
        if (!acceptable) {
            throw malformed("unknown " + what + " type " + type + " at offset " + pos);
        }
    }

    /**
     * @param declared the size on the wire
     * @param minBytes the fewest bytes that many elements can occupy
     * @param from     offset where those bytes would start
     */
    private void checkSize(String what, int declared, long minBytes, long from) throws MalformedMessageException {
        if (declared < 0) {
            throw malformed("negative " + what + " " + declared + " at offset " + pos);
        }
        if (from + minBytes > bound) {
            throw malformed("declared " + what + " " + declared + " at offset " + pos
                    + (framed ? " does not fit in its " + bound + "-byte frame" : " exceeds the " + bound + "-byte message limit"));
        }
    }

    private boolean skip(int bytes) throws MalformedMessageException {
        if (!have(bytes)) {
            return false;
        }
        pos += bytes;
        return true;
    }

    /** Whether the next {@code bytes} bytes are present; fails if they would pass the bound. */
    private boolean have(long bytes) throws MalformedMessageException {
        long end = pos + bytes;
        if (end > bound) {
            throw malformed(framed ? "message runs past the end of its " + bound + "-byte frame"
                    : "message exceeds the " + bound + "-byte limit");
        }
        return end <= available;
    }

    private byte byteAt(int offset) {
        return buf.getByte(start + offset);
    }

    private int intAt(int offset) {
        return buf.getInt(start + offset);
    }

    private static boolean isValueType(byte type) {
        return switch (type) {
            case TType.BOOL, TType.BYTE, TType.DOUBLE, TType.I16, TType.I32, TType.I64,
                    TType.STRING, TType.STRUCT, TType.MAP, TType.SET, TType.LIST -> true;
            default -> false;
        };
    }

    /** The fewest bytes a value of the type occupies on the wire. */
    private static int minBytes(byte type) {
        return switch (type) {
            case TType.BOOL, TType.BYTE, TType.STRUCT -> 1; // a struct has at least its STOP
            case TType.I16 -> 2;
            case TType.I32, TType.STRING -> 4;
            case TType.I64, TType.DOUBLE -> 8;
            case TType.SET, TType.LIST -> 5;
            case TType.MAP -> 6;
            default -> 0; // STOP or VOID, allowed only for empty containers
        };
    }

    private static MalformedMessageException malformed(String reason) {
        return new MalformedMessageException(reason);
    }
}
