package sibyl.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * A connection's first handler: decides from its first bytes how it delimits messages ({@link WireMode#detect}),
 * once, then puts the {@link ThriftMessageDecoder} of that mode in its place, which is handed every byte this
 * buffered. First bytes that cannot start a request close the connection, as the decoders refuse what follows.
 * It holds at most the few bytes the decision needs, so it reserves nothing of the {@link RequestBudget}.
 */
final class WireModeDetector extends ByteToMessageDecoder {
    private final int maxMessageBytes;
    private final RequestBudget budget;
    private final BurstLog overload;
    private boolean refused;

    /** The arguments of the decoder it puts in its place. */
    WireModeDetector(int maxMessageBytes, RequestBudget budget, BurstLog overload) {
        this.maxMessageBytes = maxMessageBytes;
        this.budget = budget;
        this.overload = overload;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (refused) {
            in.skipBytes(in.readableBytes());
            return;
        }
        WireMode mode;
        try {
            mode = WireMode.detect(in, maxMessageBytes);
        } catch (MalformedMessageException e) {
            refused = true;
            ThriftMessageDecoder.refuse(ctx, in, e);
            return;
        }
        if (mode != null) {
            // Once this decode returns, ByteToMessageDecoder hands the buffered bytes on to the replacement.
            ctx.pipeline().replace(this, ctx.name(), ThriftMessageDecoder.of(mode, maxMessageBytes, budget, overload));
        }
    }

    /** Called only while this is in place: {@link #decode} has seen the bytes and too few came to tell the mode. */
    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        ThriftMessageDecoder.dropUnfinished(ctx, in);
    }
}
