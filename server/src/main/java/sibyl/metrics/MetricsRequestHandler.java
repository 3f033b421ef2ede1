package sibyl.metrics;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers one connection's HTTP requests: the scrape at /metrics, errors for anything else. A client that
 * sends requests without reading the answers stops being read once its answers back up (the channel is not
 * writable), so it holds at most about one answer of the server's memory.
 */
final class MetricsRequestHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Logger log = LoggerFactory.getLogger(MetricsRequestHandler.class);
    static final String PATH = "/metrics";

    private final MetricsRegistry registry;

    MetricsRequestHandler(MetricsRegistry registry) {
        this.registry = registry;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (!request.decoderResult().isSuccess()) {
            send(ctx, request, error(HttpResponseStatus.BAD_REQUEST, "cannot read this request\n"), false);
            return;
        }
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        if (!new QueryStringDecoder(request.uri()).path().equals(PATH)) {
            send(ctx, request, error(HttpResponseStatus.NOT_FOUND, "not found; the metrics are at " + PATH + "\n"),
                    keepAlive);
            return;
        }
        HttpMethod method = request.method();
        if (!method.equals(HttpMethod.GET) && !method.equals(HttpMethod.HEAD)) {
            FullHttpResponse response = error(HttpResponseStatus.METHOD_NOT_ALLOWED, "use GET\n");
            response.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
            send(ctx, request, response, keepAlive);
            return;
        }
        String text;
        try {
            text = registry.scrape();
        } catch (RuntimeException e) {
            log.error("A metrics scrape failed", e);
            send(ctx, request, error(HttpResponseStatus.INTERNAL_SERVER_ERROR, "the scrape failed: " + e + "\n"),
                    keepAlive);
            return;
        }
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                method.equals(HttpMethod.HEAD) ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, ExpositionWriter.CONTENT_TYPE);
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        send(ctx, request, response, keepAlive);
    }

    private static FullHttpResponse error(HttpResponseStatus status, String message) {
        ByteBuf content = Unpooled.copiedBuffer(message, StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes());
        return response;
    }

    private static void send(ChannelHandlerContext ctx, FullHttpRequest request, FullHttpResponse response,
                             boolean keepAlive) {
        HttpUtil.setKeepAlive(response.headers(), request.protocolVersion(), keepAlive);
        if (keepAlive) {
            ctx.writeAndFlush(response);
            if (!ctx.channel().isWritable()) ctx.channel().config().setAutoRead(false);
        } else {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().isWritable()) ctx.channel().config().setAutoRead(true);
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event instanceof IdleStateEvent) {
            ctx.close();
        } else {
            super.userEventTriggered(ctx, event);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!(cause instanceof IOException)) log.debug("Closing a metrics connection after an error", cause);
        ctx.close();
    }
}
