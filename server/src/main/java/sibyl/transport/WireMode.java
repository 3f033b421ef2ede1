package sibyl.transport;

import io.netty.buffer.ByteBuf;

/** How a connection delimits its messages; decided once per connection from its first bytes. */
enum WireMode {
    /** Messages follow one another directly, as TSocket clients send them. */
    UNFRAMED,
    /** Each message is preceded by its length as a 4-byte big-endian integer, as TFramedTransport sends them. */
    FRAMED;

    static final int FRAME_HEADER_BYTES = 4;

    /** How many of a connection's first bytes a refusal shows. */
    private static final int SHOWN_BYTES = 8;

    /**
     * Decides the mode from the first bytes of a connection.
     * <ul>
     * <li>{@code 80 01}: a strict (versioned) message header, so unframed.</li>
     * <li>Any other first byte with its top bit set: neither a header nor a length, so not Thrift.</li>
     * <li>Otherwise the first four bytes are a length, of an old-style header's method name or of a frame, and must
     * be within the message limit. Byte 4 tells which: a frame holds a message, which starts either with {@code 80}
     * (strict) or with the top byte of a method-name length, which is {@code 00} for any name under 16 MiB; a method
     * name starts with neither (NUL, or a UTF-8 continuation byte). So {@code 80} or {@code 00} there means framed,
     * anything else unframed. An empty old-style name is followed by the message type (1 or 4): unframed.</li>
     * </ul>
     * What follows is checked message by message; a wrong guess on garbage only changes the reason given.
     *
     * @param in the connection's bytes so far, from its first byte (not consumed)
     * @return the mode, or null while too few bytes have arrived to tell
     * @throws MalformedMessageException if the bytes cannot start a request of either mode
     */
    static WireMode detect(ByteBuf in, int maxMessageBytes) throws MalformedMessageException {
        int first = in.readerIndex();
        int readable = in.readableBytes();
        if (readable < 2) {
            return null;
        }
        int byte0 = in.getUnsignedByte(first);
        if (byte0 == 0x80 && in.getUnsignedByte(first + 1) == 0x01) {
            return UNFRAMED;
        }
        if (byte0 >= 0x80) {
            throw notThrift(in, "");
        }
        if (readable < 4) {
            return null;
        }
        int length = in.getInt(first);
        if (length > maxMessageBytes) {
            throw notThrift(in, ": taken as a frame or method-name length, " + length + " exceeds the "
                    + maxMessageBytes + "-byte message limit");
        }
        if (readable < 5) {
            return null;
        }
        int byte4 = in.getUnsignedByte(first + 4);
        return byte4 == 0x80 || byte4 == 0x00 ? FRAMED : UNFRAMED;
    }

    private static MalformedMessageException notThrift(ByteBuf in, String detail) {
        int shown = Math.min(SHOWN_BYTES, in.readableBytes());
        StringBuilder hex = new StringBuilder();
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < shown; i++) {
            int b = in.getUnsignedByte(in.readerIndex() + i);
            hex.append(i == 0 ? "" : " ").append(String.format("%02x", b));
            text.append(b >= 0x20 && b < 0x7f ? (char) b : '.');
        }
        return new MalformedMessageException("first bytes " + hex + " (\"" + text + "\") do not start a "
                + "TBinaryProtocol message, framed or unframed" + detail);
    }
}
