package sibyl.transport;

import io.netty.buffer.ByteBuf;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * The Thrift protocol objects one connection decodes its calls and encodes its replies with, reused from call to
 * call: libthrift's protocols allocate scratch arrays when built, which per call made a fifth of the bytes an insert
 * allocated. A connection runs one call at a time, so one codec serves all of its calls, on whichever thread runs
 * each.
 *
 * <p>Between calls the codec refers to neither the last message nor the last reply buffer, so an idle connection
 * holds on to no request bytes (they are accounted in the {@link RequestBudget} only while a call runs).
 */
final class CallCodec {
    private static final byte[] NO_BYTES = new byte[0];

    private final TMemoryInputTransport input;
    private final CallInputProtocol in;
    private final ByteBufTransport output = new ByteBufTransport(null);
    private final ReplyProtocol out = new ReplyProtocol(output);

    /** @param maxMessageBytes the longest string, binary or container a message may declare */
    CallCodec(TConfiguration inputConfiguration, int maxMessageBytes) {
        try {
            this.input = new TMemoryInputTransport(inputConfiguration, NO_BYTES);
        } catch (TTransportException e) {
            throw new IllegalStateException("a memory transport over no bytes cannot fail", e);
        }
        this.in = new CallInputProtocol(input, maxMessageBytes, maxMessageBytes);
    }

    /** Readies the codec for {@code message}, writing its reply to {@code reply}; returns the input protocol. */
    TBinaryProtocol begin(byte[] message, ByteBuf reply) {
        input.reset(message);
        output.target(reply);
        return in;
    }

    TBinaryProtocol out() {
        return out;
    }

    /** Lets go of the message and the reply buffer of the call just run. */
    void end() {
        input.reset(NO_BYTES);
        output.target(null);
    }
}
