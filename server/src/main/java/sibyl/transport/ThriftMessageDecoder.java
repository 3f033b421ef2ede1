package sibyl.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cuts a connection's bytes into whole request messages ({@link ThriftCall}s), framed or unframed as
 * {@link WireMode#detect} decides from its first bytes. Runs on the event loop and never blocks: each message is
 * walked by a {@link MessageScanner} as its bytes arrive, and handed on only when complete.
 *
 * <p>Input that cannot be a request within the limits closes the connection, with one WARN line naming the peer
 * and the reason; nothing more is read from it.
 */
final class ThriftMessageDecoder extends ByteToMessageDecoder {
    private static final Logger LOG = LoggerFactory.getLogger(ThriftMessageDecoder.class);

    private final int maxMessageBytes;
    private final MessageScanner scanner = new MessageScanner();
    private WireMode mode;
    /** Whether the scanner has been reset for the message now arriving. */
    private boolean inMessage;
    /** Framed mode: the length of the frame now arriving. */
    private int frameLength;
    private boolean refused;

    ThriftMessageDecoder(int maxMessageBytes) {
        this.maxMessageBytes = maxMessageBytes;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (refused) {
            in.skipBytes(in.readableBytes());
            return;
        }
        try {
            ThriftCall call = nextCall(in);
            if (call != null) {
                out.add(call);
            }
        } catch (MalformedMessageException e) {
            refused = true;
            in.skipBytes(in.readableBytes());
            LOG.warn("Closing Thrift connection from {}: {}", ctx.channel().remoteAddress(), e.getMessage());
            ctx.close();
        }
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        decode(ctx, in, out);
        if (in.isReadable()) {
            LOG.debug("Thrift connection from {} closed in the middle of a message ({} bytes received)",
                    ctx.channel().remoteAddress(), in.readableBytes());
            in.skipBytes(in.readableBytes());
        }
    }

    /** The next whole message in {@code in}, consumed, or null if it has not all arrived. */
    private ThriftCall nextCall(ByteBuf in) throws MalformedMessageException {
        if (mode == null && (mode = WireMode.detect(in, maxMessageBytes)) == null) {
            return null;
        }
        int headerBytes = 0;
        int available = in.readableBytes();
        if (mode == WireMode.FRAMED) {
            headerBytes = WireMode.FRAME_HEADER_BYTES;
            if (!inMessage) {
                if (available < headerBytes) {
                    return null;
                }
                frameLength = checkFrameLength(in.getInt(in.readerIndex()));
            }
            available = Math.min(available - headerBytes, frameLength);
        }
        if (!inMessage) {
            scanner.reset(mode == WireMode.FRAMED ? frameLength : maxMessageBytes, mode == WireMode.FRAMED);
            inMessage = true;
        }
        int start = in.readerIndex() + headerBytes;
        int length = scanner.scan(in, start, available);
        if (length == MessageScanner.NEED_MORE) {
            return null;
        }
        if (mode == WireMode.FRAMED && length != frameLength) {
            throw new MalformedMessageException("a " + frameLength + "-byte frame holds a " + length
                    + "-byte message and " + (frameLength - length) + " bytes more");
        }
        byte[] message = new byte[length];
        in.getBytes(start, message);
        in.skipBytes(headerBytes + length);
        inMessage = false;
        return new ThriftCall(mode, message, scanner.nameOffset(), scanner.nameLength(), scanner.messageType(),
                scanner.seqId());
    }

    private int checkFrameLength(int length) throws MalformedMessageException {
        if (length <= 0) {
            throw new MalformedMessageException("frame length " + Integer.toUnsignedLong(length) + " ("
                    + String.format("%08x", length) + ") is not a length from 1 to " + maxMessageBytes + " bytes");
        }
        if (length > maxMessageBytes) {
            throw new MalformedMessageException("frame length " + length + " exceeds the " + maxMessageBytes
                    + "-byte message limit");
        }
        return length;
    }
}
