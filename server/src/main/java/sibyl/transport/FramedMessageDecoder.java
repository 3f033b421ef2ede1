package sibyl.transport;

import io.netty.buffer.ByteBuf;

/**
 * The messages of a framed connection (TFramedTransport): each preceded by its length, a 4-byte big-endian integer
 * within the message limit, and filling its frame exactly. Empty frames between them are passed over.
 */
final class FramedMessageDecoder extends ThriftMessageDecoder {
    private final int maxMessageBytes;
    /** The length of the frame now arriving. */
    private int frameLength;

    FramedMessageDecoder(int maxMessageBytes, RequestBudget budget, BurstLog overload) {
        super(WireMode.FRAMED, budget, overload);
        this.maxMessageBytes = maxMessageBytes;
    }

    @Override
    int startMessage(ByteBuf in) throws MalformedMessageException {
        if (in.readableBytes() < WireMode.FRAME_HEADER_BYTES) {
            return MessageScanner.NEED_MORE;
        }
        int length = in.getInt(in.readerIndex());
        while (length == 0) {
            // An empty frame holds no message: TFramedTransport sends one when flushed with nothing written, as
            // Hector's connections are on close. Cassandra's framed transport reads on to the next frame; so do we.
            in.skipBytes(WireMode.FRAME_HEADER_BYTES);
            if (in.readableBytes() < WireMode.FRAME_HEADER_BYTES) {
                return MessageScanner.NEED_MORE;
            }
            length = in.getInt(in.readerIndex());
        }
        if (length < 0) {
            throw new MalformedMessageException("frame length " + Integer.toUnsignedLong(length) + " ("
                    + String.format("%08x", length) + ") is not a length from 0 to " + maxMessageBytes + " bytes");
        }
        if (length > maxMessageBytes) {
            throw new MalformedMessageException("frame length " + length + " exceeds the " + maxMessageBytes
                    + "-byte message limit");
        }
        frameLength = length;
        return length;
    }

    @Override
    int framingBytes() {
        return WireMode.FRAME_HEADER_BYTES;
    }

    @Override
    int messageBytes(int available) {
        return Math.min(available, frameLength);
    }

    @Override
    void checkComplete(int length) throws MalformedMessageException {
        if (length != frameLength) {
            throw new MalformedMessageException("a " + frameLength + "-byte frame holds a " + length
                    + "-byte message and " + (frameLength - length) + " bytes more");
        }
    }
}
