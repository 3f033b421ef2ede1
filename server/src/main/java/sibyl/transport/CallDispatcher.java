package sibyl.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.apache.thrift.TProcessor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of a connection: runs its calls on the worker pool one at a time, in the order they arrived,
 * and writes each reply before the next call starts, so replies leave in request order.
 *
 * <p>A call the {@link CallPlacement} deems quick runs on the event loop itself; a call the processor defers
 * ({@link DeferringProcessor}) starts on the event loop and posts its reply back from the thread that finishes it;
 * any other is handed to a worker, which posts its reply back. All fields are used on the connection's event loop only.
 * Back-pressure: reading stops while {@value #MAX_QUEUED_CALLS} calls or a message limit's worth of bytes wait, and
 * no call starts while the channel is not writable (a client that does not read its replies).
 *
 * <p>Each call holds its message's bytes in the server's {@link RequestBudget} until it has run or been dropped; a
 * call the decoder {@linkplain ThriftCall#refused refused} for want of budget is answered, in its turn, with an
 * overload error instead of being run.
 *
 * <p>A client that shuts down its output (half-closes) still gets the replies to the calls it sent, like the
 * thread-per-connection server of Cassandra 0.6; the connection closes after the last one is written. When the
 * connection closes, calls not yet started are dropped, as their replies could not be delivered; the close actions
 * run once the call under way, if any, has finished.
 *
 * <p>Replies are encoded by the worker into the connection's reply buffer, a heap buffer reused from call to call
 * (there is one call at a time), and copied into a network buffer allocated on the event loop. Allocating pooled
 * network buffers on the workers instead, which the event loop then frees, made every reply miss the workers'
 * thread-local caches and contend for the shared pool arenas.
 */
final class CallDispatcher extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(CallDispatcher.class);
    static final int MAX_QUEUED_CALLS = 16;
    private static final int INITIAL_REPLY_BYTES = 256;
    /** A reply buffer grown past this by a large reply is dropped once the reply is sent, not kept for the next. */
    private static final int MAX_KEPT_REPLY_BYTES = 64 * 1024;

    private final ProcessorFactory processorFactory;
    private final CallRunner runner;
    private final RequestBudget budget;
    private final Executor workers;
    private final CallPlacement placement;
    private final BurstLog overload;
    private final long maxQueuedBytes;
    private final UnfinishedConnections unfinished;

    private final ArrayDeque<ThriftCall> waiting = new ArrayDeque<>();
    private long waitingBytes;
    private ChannelHandlerContext ctx;
    private Connection connection;
    private TProcessor processor;
    private CallCodec codec;
    /** Written by the worker running this connection's call, read on the event loop once it has finished. */
    private ByteBuf replyBuffer;
    private boolean callRunning;
    private boolean inputShutdown;
    /** Set once the close after a half-closed client's last reply has been arranged. */
    private boolean closingAfterReplies;
    private boolean closed;

    /**
     * @param overload   where refusals by a full worker pool are logged; shared by all connections
     * @param unfinished counts this connection from its start until its close actions have run
     */
    CallDispatcher(ProcessorFactory processorFactory, CallRunner runner, RequestBudget budget, Executor workers,
            CallPlacement placement, BurstLog overload, int maxMessageBytes, UnfinishedConnections unfinished) {
        this.processorFactory = processorFactory;
        this.runner = runner;
        this.budget = budget;
        this.workers = workers;
        this.placement = placement;
        this.overload = overload;
        this.maxQueuedBytes = maxMessageBytes;
        this.unfinished = unfinished;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        unfinished.opened();
        connection = new Connection(ctx.channel().remoteAddress(), unfinished::finished);
        replyBuffer = Unpooled.buffer(INITIAL_REPLY_BYTES);
        codec = runner.newCodec();
        try {
            processor = processorFactory.newProcessor(connection);
            if (processor == null) {
                throw new NullPointerException("the processor factory returned null");
            }
        } catch (RuntimeException e) {
            LOG.error("Closing {}: no processor for it", connection, e);
            ctx.close();
            return;
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ThriftCall call)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (closed || processor == null) {
            budget.release(call.heldBytes());
            return;
        }
        waiting.add(call);
        waitingBytes += call.message().length;
        if (waiting.size() >= MAX_QUEUED_CALLS || waitingBytes >= maxQueuedBytes) {
            ctx.channel().config().setAutoRead(false);
        }
        startNextCall();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        startNextCall();
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof IdleStateEvent) {
            // A call that takes long is not idleness; the idle handler asks again a timeout later. Calls can only
            // be waiting here because the client reads no replies, which is idleness.
            if (!callRunning) {
                LOG.debug("Closing idle {}", connection);
                ctx.close();
            }
        } else if (event instanceof ChannelInputShutdownEvent) {
            inputShutdown = true;
            closeIfInputDone();
        } else {
            ctx.fireUserEventTriggered(event);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closed = true;
        waiting.forEach(call -> budget.release(call.heldBytes()));
        waiting.clear();
        waitingBytes = 0;
        if (!callRunning && connection != null) {
            connection.closed();
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof IOException) {
            LOG.debug("{} failed: {}", connection, cause.toString());
        } else {
            LOG.warn("Closing {} after an unexpected error", connection, cause);
        }
        ctx.close();
    }

    private void startNextCall() {
        while (!callRunning && !closed && !waiting.isEmpty() && ctx.channel().isActive() && ctx.channel().isWritable()) {
            ThriftCall call = waiting.poll();
            waitingBytes -= call.message().length;
            if (waiting.isEmpty()) {
                ctx.channel().config().setAutoRead(true);
            }
            if (call.refused()) {
                refuse(call, "the server holds its limit of " + budget.limit() + " bytes of requests");
                continue;
            }
            if (processor instanceof DeferringProcessor deferring && deferring.defers(call.methodName())) {
                startDeferred(deferring, call);
                continue;
            }
            long start = System.nanoTime();
            if (placement.onNetworkThread(call, start)) {
                runHere(call, start);
                continue;
            }
            callRunning = true;
            try {
                workers.execute(() -> runCall(call));
                overload.calm();
            } catch (RejectedExecutionException e) {
                // The queue holds a call per connection, but a connection that closes leaves its queued call behind
                // and its place to a new connection, so under churn the queue can fill up.
                callRunning = false;
                budget.release(call.heldBytes());
                overload.event("Refusing a call of {}: the queue of calls waiting for a worker is full", connection);
                refuse(call, "the queue of calls waiting for a worker is full");
            }
        }
    }

    /**
     * Runs a quick call on this network thread and writes its reply, encoded straight into a network buffer. The
     * connection's state is as if a worker had run it and finished: the caller's loop goes on to the next call.
     */
    private void runHere(ThriftCall call, long start) {
        ByteBuf reply = ctx.alloc().ioBuffer(INITIAL_REPLY_BYTES);
        boolean replied;
        try {
            replied = runner.run(processor, codec, call, reply, connection.remoteAddress());
        } catch (Throwable t) { // only a fatal error gets out of the runner
            reply.release();
            budget.release(call.heldBytes());
            LOG.error("Closing {}: fatal error while processing a call", connection, t);
            ctx.close();
            return;
        }
        placement.ranOnNetworkThread(call, start, System.nanoTime());
        budget.release(call.heldBytes());
        if (replied) {
            ctx.writeAndFlush(reply); // on a closed channel the write fails and releases the reply
        } else {
            reply.release();
        }
        closeIfInputDone();
    }

    /** Answers a call that will not run with an overload error, in its turn. */
    private void refuse(ThriftCall call, String why) {
        ByteBuf reply = runner.overloadReply(call, ctx.alloc(), why);
        if (reply != null) {
            ctx.writeAndFlush(reply);
        }
    }

    /** On a worker thread. */
    private void runCall(ThriftCall call) {
        boolean replied = false;
        Throwable failure = null;
        try {
            replied = runner.run(processor, codec, call, replyBuffer, connection.remoteAddress());
        } catch (Throwable t) { // only a fatal error gets out of the runner
            failure = t;
        }
        ranElsewhere(call, replied, failure);
    }

    /**
     * Starts a call that finishes on another thread; its reply is encoded, like a worker's, into the connection's
     * reply buffer by the thread that completes it.
     */
    private void startDeferred(DeferringProcessor deferring, ThriftCall call) {
        callRunning = true;
        CompletionStage<DeferringProcessor.Reply> started;
        try {
            started = runner.start(deferring, codec, call, replyBuffer, connection.remoteAddress());
        } catch (Throwable t) { // only a fatal error gets out of the runner
            codec.end();
            ranElsewhere(call, false, t);
            return;
        }
        started.whenComplete((reply, failure) -> {
            boolean replied = false;
            Throwable fatal = null;
            try {
                replied = runner.finish(codec, call, reply, failure, replyBuffer, connection.remoteAddress());
            } catch (Throwable t) {
                fatal = t;
            }
            ranElsewhere(call, replied, fatal);
        });
    }

    /** After a call run off the network thread (or finished there later): hands its reply to the network thread. */
    private void ranElsewhere(ThriftCall call, boolean replied, Throwable failure) {
        // The message has been read; the reply is not counted, as a client not reading it stops this connection.
        budget.release(call.heldBytes());
        try {
            ctx.executor().execute(() -> callFinished(replied, failure));
        } catch (RejectedExecutionException e) {
            // The event loop has shut down, so the server is closing and the channel is gone.
            connection.closed();
        }
    }

    private void callFinished(boolean replied, Throwable failure) {
        callRunning = false;
        if (failure != null) {
            LOG.error("Closing {}: fatal error while processing a call", connection, failure);
            ctx.close();
        }
        if (replied) {
            ByteBuf reply = ctx.alloc().ioBuffer(replyBuffer.readableBytes());
            reply.writeBytes(replyBuffer, replyBuffer.readerIndex(), replyBuffer.readableBytes());
            if (replyBuffer.capacity() > MAX_KEPT_REPLY_BYTES) {
                replyBuffer = Unpooled.buffer(INITIAL_REPLY_BYTES);
            }
            ctx.writeAndFlush(reply); // on a closed channel the write fails and releases the reply
        }
        if (closed) {
            connection.closed();
        } else {
            startNextCall();
            closeIfInputDone();
        }
    }

    /** Once a half-closed client has all its replies, closes the connection, after the writes under way. */
    private void closeIfInputDone() {
        if (inputShutdown && !callRunning && waiting.isEmpty() && !closingAfterReplies) {
            closingAfterReplies = true;
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
