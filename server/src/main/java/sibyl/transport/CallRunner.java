package sibyl.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.net.SocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.TException;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TTransportException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one call through a connection's processor, on a worker thread, and returns the reply ready to write; or
 * starts a deferred one ({@link DeferringProcessor}) and writes its reply once it has its answer.
 *
 * <p>The processor reads the whole message from memory and writes its reply into a growable buffer; replies use
 * the strict header, like libthrift's default TBinaryProtocol, whichever header the request had. libthrift's
 * generated processor already answers an exception from the handler with an INTERNAL_ERROR reply; anything that
 * still escapes it (an Error such as an AssertionError, a result it cannot write) is answered the same way here.
 * Since messages are cut by the transport, not by the processor, the connection stays in step and stays open.
 */
final class CallRunner {
    private static final Logger LOG = LoggerFactory.getLogger(CallRunner.class);
    private static final int INITIAL_REPLY_BYTES = 256;
    /** How the answer to a call refused for overload begins. */
    static final String OVERLOADED = "Server overloaded";

    private final int maxMessageBytes;
    private final TConfiguration inputConfiguration;

    CallRunner(int maxMessageBytes) {
        this.maxMessageBytes = maxMessageBytes;
        this.inputConfiguration = TConfiguration.custom()
                .setMaxMessageSize(maxMessageBytes)
                .setMaxFrameSize(maxMessageBytes)
                .build();
    }

    /** The protocol objects for one connection's calls. */
    CallCodec newCodec() {
        return new CallCodec(inputConfiguration, maxMessageBytes);
    }

    /**
     * Writes the reply into {@code reply}, which is cleared first: length-prefixed if the call came framed.
     *
     * @param codec the connection's codec; not in use by another call
     * @param reply a buffer of the caller's, reused from call to call: the connection's reply buffer (see
     *              {@link CallDispatcher})
     * @return whether there is a reply; false for a oneway call
     * @throws VirtualMachineError a fatal error out of the processor (other than a stack overflow, which has unwound)
     */
    boolean run(TProcessor processor, CallCodec codec, ThriftCall call, ByteBuf reply, SocketAddress peer) {
        int bodyStart = bodyStart(call);
        TProtocol in = begin(codec, call, reply);
        TProtocol out = codec.out();
        try {
            processor.process(in, out);
        } catch (TTransportException e) {
            reply.writerIndex(bodyStart);
            if (!call.isOneway()) {
                writeUnreadable(out, call, e, peer);
            }
        } catch (Throwable t) {
            rethrowIfFatal(t);
            reply.writerIndex(bodyStart);
            if (!call.isOneway()) {
                writeInternalError(out, call, t, peer);
            }
        } finally {
            codec.end();
        }
        if (reply.writerIndex() == bodyStart) {
            return false;
        }
        frame(reply, bodyStart);
        return true;
    }

    /**
     * Starts a deferred call on the network thread: readies the codec to write its reply into {@code reply} later
     * and reads and starts the call. The returned stage always completes with a reply to write: a call whose
     * arguments cannot be read, or that fails to start, has its error reply at once.
     *
     * @throws VirtualMachineError a fatal error out of the processor (other than a stack overflow, which has unwound)
     */
    CompletionStage<DeferringProcessor.Reply> start(DeferringProcessor processor, CallCodec codec, ThriftCall call,
                                                    ByteBuf reply, SocketAddress peer) {
        TProtocol in = begin(codec, call, reply);
        try {
            return processor.start(in);
        } catch (TTransportException e) {
            return CompletableFuture.completedFuture(out -> writeUnreadable(out, call, e, peer));
        } catch (Throwable t) {
            rethrowIfFatal(t);
            return CompletableFuture.failedFuture(t);
        }
    }

    /**
     * Writes the reply of a deferred call once it has its answer ({@code result}, or {@code failure}, answered as
     * INTERNAL_ERROR), on whichever thread that is, and lets go of the codec. Returns whether there is a reply.
     *
     * @throws VirtualMachineError a fatal error out of the reply's writer
     */
    boolean finish(CallCodec codec, ThriftCall call, DeferringProcessor.Reply result, Throwable failure,
                   ByteBuf reply, SocketAddress peer) {
        int bodyStart = bodyStart(call);
        TProtocol out = codec.out();
        try {
            if (call.isOneway()) {
                return false;
            }
            if (failure == null) {
                try {
                    result.writeTo(out);
                } catch (Throwable t) {
                    rethrowIfFatal(t);
                    failure = t;
                }
            }
            if (failure != null) {
                reply.writerIndex(bodyStart);
                writeInternalError(out, call, failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure, peer);
            }
        } finally {
            codec.end();
        }
        frame(reply, bodyStart);
        return true;
    }

    /** Where a reply's message begins: after the frame length, for a framed call. */
    private static int bodyStart(ThriftCall call) {
        return call.mode() == WireMode.FRAMED ? WireMode.FRAME_HEADER_BYTES : 0;
    }

    /** Readies {@code codec} for the call, its reply to go into {@code reply}, emptied but for the frame length. */
    private static TProtocol begin(CallCodec codec, ThriftCall call, ByteBuf reply) {
        reply.clear();
        reply.writeZero(bodyStart(call));
        return codec.begin(call.message(), reply);
    }

    /** Sets a framed reply's length, once its body is written. */
    private static void frame(ByteBuf reply, int bodyStart) {
        if (bodyStart > 0) {
            reply.setInt(0, reply.writerIndex() - bodyStart);
        }
    }

    /** A fatal error goes on up; a stack overflow has unwound and is answered like any other failure. */
    private static void rethrowIfFatal(Throwable t) {
        if (t instanceof VirtualMachineError fatal && !(t instanceof StackOverflowError)) {
            throw fatal;
        }
    }

    /**
     * The handler does no I/O, so a transport exception came from reading the message: the generated readers check
     * a field's type but not a container's element types, so arguments of the wrong shape can run past the end of
     * the message. libthrift answers arguments it cannot read with PROTOCOL_ERROR.
     */
    private static void writeUnreadable(TProtocol out, ThriftCall call, TTransportException e, SocketAddress peer) {
        LOG.debug("Unreadable arguments of {} from {}: {}", call.methodName(), peer, e.getMessage());
        writeException(out, call, TApplicationException.PROTOCOL_ERROR, "Cannot read the arguments of "
                + call.methodName() + ": " + e.getMessage());
    }

    private static void writeInternalError(TProtocol out, ThriftCall call, Throwable t, SocketAddress peer) {
        LOG.error("Internal error processing {} for {}", call.methodName(), peer, t);
        writeException(out, call, TApplicationException.INTERNAL_ERROR, "Internal error processing "
                + call.methodName());
    }

    /**
     * The answer to a call refused for overload: a TApplicationException (type UNKNOWN, as no standard type means
     * "overloaded") saying "Server overloaded: {@code why}; the method was not run, retry later". Null for a oneway
     * call, which gets no reply.
     */
    ByteBuf overloadReply(ThriftCall call, ByteBufAllocator allocator, String why) {
        if (call.isOneway()) {
            return null;
        }
        int bodyStart = bodyStart(call);
        ByteBuf reply = allocator.buffer(INITIAL_REPLY_BYTES);
        reply.writeZero(bodyStart);
        String method = call.methodName();
        try {
            TProtocol out = new TBinaryProtocol(new ByteBufTransport(reply));
            out.writeMessageBegin(new TMessage(method, TMessageType.EXCEPTION, call.seqId()));
            new TApplicationException(TApplicationException.UNKNOWN, OVERLOADED + ": " + why + "; " + method
                    + " was not run, retry later").write(out);
            out.writeMessageEnd();
        } catch (TException e) {
            reply.release();
            throw new IllegalStateException("writing to memory cannot fail", e);
        }
        frame(reply, bodyStart);
        return reply;
    }

    /** An EXCEPTION reply, as libthrift's generated processor writes when a handler throws (INTERNAL_ERROR). */
    private static void writeException(TProtocol out, ThriftCall call, int type, String message) {
        try {
            out.writeMessageBegin(new TMessage(call.methodName(), TMessageType.EXCEPTION, call.seqId()));
            new TApplicationException(type, message).write(out);
            out.writeMessageEnd();
        } catch (TException e) {
            throw new IllegalStateException("writing to memory cannot fail", e);
        }
    }
}
