package sibyl.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cuts a connection's bytes into whole request messages ({@link ThriftCall}s), once {@link WireModeDetector} has
 * decided how the connection delimits them: {@link FramedMessageDecoder} and {@link UnframedMessageDecoder} say
 * what precedes a message and how long it may be, the rest is common and here. Runs on the event loop and never
 * blocks: each message is walked by a {@link MessageScanner} as its bytes arrive, and handed on only when complete.
 *
 * <p>Input that cannot be a request within the limits closes the connection, with one WARN line naming the peer
 * and the reason; nothing more is read from it.
 *
 * <p>Every byte this decoder buffers is reserved in the server's {@link RequestBudget}. When the budget is spent,
 * the message arriving is <em>dropped</em>: once its header is known, its bytes are walked and discarded as they
 * come, and the call is handed on as {@linkplain ThriftCall#refused refused}, to be answered with an overload error
 * in its turn. The connection stays in step and the server holds no more than the budget (plus one network read
 * and one message header per connection).
 */
abstract class ThriftMessageDecoder extends ByteToMessageDecoder {
    private static final Logger LOG = LoggerFactory.getLogger(ThriftMessageDecoder.class);
    /** Bytes a dropped message may have buffered before its header is complete. */
    static final int MAX_UNRESERVED_HEADER_BYTES = 4096;

    private final WireMode mode;
    private final RequestBudget budget;
    private final BurstLog overload;
    private final MessageScanner scanner = new MessageScanner();
    /** Whether the scanner has been reset for the message now arriving. */
    private boolean inMessage;
    private boolean refused;
    /** Bytes of the buffer reserved in the budget; never more than the buffer holds. */
    private long reserved;
    /** Whether the message now arriving is being dropped for want of budget. */
    private boolean dropping;
    /** Bytes of the message now arriving (frame length included) already discarded while dropping it. */
    private int discarded;
    /** The method name of the message being dropped, kept once its first bytes are discarded. */
    private byte[] droppedName;
    private byte[] lastNameBytes = new byte[0];
    private String lastName = "";

    /** @param overload where refusals for want of budget are logged; shared by all connections */
    ThriftMessageDecoder(WireMode mode, RequestBudget budget, BurstLog overload) {
        this.mode = mode;
        this.budget = budget;
        this.overload = overload;
    }

    /** The decoder of a connection whose messages are delimited as {@code mode} says. */
    static ThriftMessageDecoder of(WireMode mode, int maxMessageBytes, RequestBudget budget, BurstLog overload) {
        return mode == WireMode.FRAMED ? new FramedMessageDecoder(maxMessageBytes, budget, overload)
                : new UnframedMessageDecoder(maxMessageBytes, budget, overload);
    }

    // ---- what the framing decides

    /**
     * Reads what precedes the message now arriving, at the start of {@code in} (not consumed).
     *
     * @return the most bytes the message may have, or {@link MessageScanner#NEED_MORE} until enough has arrived
     */
    abstract int startMessage(ByteBuf in) throws MalformedMessageException;

    /** The bytes that precede each message: a frame's length, or none. */
    abstract int framingBytes();

    /** Of {@code available} bytes after the framing, how many the message now arriving may take. */
    abstract int messageBytes(int available);

    /** Refuses a complete message of {@code length} bytes that is not what its framing announced. */
    abstract void checkComplete(int length) throws MalformedMessageException;

    // ---- the connection's input

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
            refuse(ctx, in, e);
        } finally {
            settleReservation(in);
        }
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        decode(ctx, in, out);
        dropUnfinished(ctx, in);
        settleReservation(in);
    }

    /** Closes a connection whose input cannot be a request within the limits, with one WARN line why. */
    static void refuse(ChannelHandlerContext ctx, ByteBuf in, MalformedMessageException e) {
        in.skipBytes(in.readableBytes());
        LOG.warn("Closing Thrift connection from {}: {}", ctx.channel().remoteAddress(), e.getMessage());
        ctx.close();
    }

    /** At the end of a connection's input: discards the start of a message that will not be completed. */
    static void dropUnfinished(ChannelHandlerContext ctx, ByteBuf in) {
        if (in.isReadable()) {
            LOG.debug("Thrift connection from {} closed in the middle of a message ({} bytes received)",
                    ctx.channel().remoteAddress(), in.readableBytes());
            in.skipBytes(in.readableBytes());
        }
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        budget.release(reserved);
        reserved = 0;
    }

    /** The next whole message in {@code in}, consumed, or null if it has not all arrived. */
    private ThriftCall nextCall(ByteBuf in) throws MalformedMessageException {
        if (!inMessage) {
            int bound = startMessage(in);
            if (bound == MessageScanner.NEED_MORE) {
                return null;
            }
            scanner.reset(bound, mode == WireMode.FRAMED);
            inMessage = true;
            dropping = false;
            discarded = 0;
            droppedName = null;
        }
        if (!dropping && !reserveBuffered(in)) {
            dropping = true;
            overload.event("Refusing Thrift calls: the server holds {} bytes of requests, its limit of {} is reached",
                    budget.held(), budget.limit());
        }
        // While dropping, the buffer no longer starts with the message: its first `discarded` bytes are gone.
        int headerBytes = framingBytes();
        int start = in.readerIndex() + headerBytes - discarded;
        int available = messageBytes(in.readableBytes() + discarded - headerBytes);
        int length = scanner.scan(in, start, available);
        if (length == MessageScanner.NEED_MORE) {
            if (dropping && scanner.headerDone()) {
                discardWalkedBytes(in, start, headerBytes, available);
            } else if (dropping && in.readableBytes() > MAX_UNRESERVED_HEADER_BYTES) {
                throw new MalformedMessageException("a message header longer than " + MAX_UNRESERVED_HEADER_BYTES
                        + " bytes arrives while the server holds its limit of " + budget.limit() + " bytes of requests");
            }
            return null;
        }
        checkComplete(length);
        inMessage = false;
        if (dropping) {
            byte[] name = droppedName != null ? droppedName : nameBytes(in, start);
            in.skipBytes(headerBytes + length - discarded);
            return ThriftCall.refused(mode, methodName(name, 0, name.length), scanner.messageType(), scanner.seqId());
        }
        byte[] message = new byte[length];
        in.getBytes(start, message);
        in.skipBytes(headerBytes + length);
        // The bytes move from the buffer's reservation to the call's.
        settleReservation(in);
        if (!budget.tryReserve(length)) {
            overload.event("Refusing Thrift calls: the server holds {} bytes of requests, its limit of {} is reached",
                    budget.held(), budget.limit());
            return ThriftCall.refused(mode, methodName(message, scanner.nameOffset(), scanner.nameLength()),
                    scanner.messageType(), scanner.seqId());
        }
        overload.calm();
        return new ThriftCall(mode, message, methodName(message, scanner.nameOffset(), scanner.nameLength()),
                scanner.messageType(), scanner.seqId(), false);
    }

    /** Reserves budget for all the bytes buffered; false, reserving nothing more, if the budget is spent. */
    private boolean reserveBuffered(ByteBuf in) {
        long more = in.readableBytes() - reserved;
        if (more <= 0) {
            return true;
        }
        if (!budget.tryReserve(more)) {
            return false;
        }
        reserved += more;
        return true;
    }

    /** Releases the reservation for bytes no longer buffered. */
    private void settleReservation(ByteBuf in) {
        long excess = reserved - in.readableBytes();
        if (excess > 0) {
            budget.release(excess);
            reserved -= excess;
        }
    }

    /** While dropping: discards the message bytes walked so far (the name is kept first), releasing their budget. */
    private void discardWalkedBytes(ByteBuf in, int start, int headerBytes, int available) {
        if (droppedName == null) {
            droppedName = nameBytes(in, start);
        }
        int walked = headerBytes + Math.min(scanner.position(), available); // from the start of the frame
        int discard = walked - discarded;
        if (discard > 0) {
            in.skipBytes(discard);
            discarded += discard;
            settleReservation(in);
        }
    }

    private byte[] nameBytes(ByteBuf in, int start) {
        byte[] name = new byte[scanner.nameLength()];
        in.getBytes(start + scanner.nameOffset(), name);
        return name;
    }

    /**
     * The method name in {@code bytes}: the previous call's String when the name is the same, as it mostly is (a
     * client tends to repeat one method), so that a call's name costs no allocation.
     */
    private String methodName(byte[] bytes, int offset, int length) {
        if (!Arrays.equals(bytes, offset, offset + length, lastNameBytes, 0, lastNameBytes.length)) {
            lastNameBytes = Arrays.copyOfRange(bytes, offset, offset + length);
            lastName = new String(lastNameBytes, StandardCharsets.UTF_8);
        }
        return lastName;
    }
}
