package sibyl.client.stress;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * The bytes of one connection's calls, without the I/O: a call is encoded by the generated client into a
 * {@link RequestBuffer}; reply bytes are gathered in a growing array until the generated client can read the whole
 * reply from them. Unframed replies carry no length, so an attempt to read one that runs out of bytes just means
 * more must arrive. Shared by the event loop's connections and the blocking ones of a thread per connection, so
 * that both put the same bytes on the wire and read replies alike. One call at a time; one thread at a time.
 */
final class ThriftExchange {
    private final boolean framed;
    private final int maxReplyBytes;
    private final RequestBuffer request = new RequestBuffer();
    private final TMemoryInputTransport replyReader;
    private final StressClient client;
    private byte[] reply = new byte[4096];
    /** A view of {@link #reply} for channel reads, made again only when the array grows. */
    private ByteBuffer replyView = ByteBuffer.wrap(reply);
    private int replyLength;

    ThriftExchange(boolean framed, int maxReplyBytes) {
        this.framed = framed;
        this.maxReplyBytes = maxReplyBytes;
        TConfiguration configuration = TConfiguration.custom().setMaxMessageSize(maxReplyBytes).build();
        try {
            this.replyReader = new TMemoryInputTransport(configuration);
        } catch (TTransportException e) {
            throw new IllegalStateException("an empty memory transport cannot fail", e);
        }
        this.client = new StressClient(new TBinaryProtocol(replyReader), new TBinaryProtocol(request));
    }

    /**
     * Encodes {@code call}'s request (with its frame length when framed) and forgets any reply bytes gathered.
     *
     * @return the request's bytes, valid until the next encode
     */
    ByteBuffer encode(StressCall call) throws TException {
        replyLength = 0;
        request.clear(framed ? 4 : 0);
        call.send(client);
        if (framed) {
            request.writeFrameLength();
        }
        return request.contents();
    }

    /**
     * Reads once from {@code channel} into the reply (a blocking channel waits for bytes).
     *
     * @return the bytes read, or -1 at the end of the stream
     * @throws IOException from the channel, or if the reply grows beyond the limit
     */
    int readFrom(ReadableByteChannel channel) throws IOException {
        if (replyLength == reply.length) {
            if (reply.length >= maxReplyBytes + 4) {
                throw new IOException("a reply longer than " + maxReplyBytes + " bytes");
            }
            grow(Math.min(reply.length * 2, maxReplyBytes + 4));
        }
        replyView.limit(reply.length).position(replyLength);
        int n = channel.read(replyView);
        if (n > 0) {
            replyLength += n;
        }
        return n;
    }

    /** Reply bytes gathered and not yet taken by a call. */
    int pending() {
        return replyLength;
    }

    /**
     * Hands the reply to {@code call} if all of it has arrived.
     *
     * @return false if more bytes must arrive first; true once the call has taken its reply
     * @throws TException the failure the server reported (the reply was taken), or an undecodable reply
     * @throws IOException a frame length out of bounds
     */
    boolean tryReceive(StressCall call) throws TException, IOException {
        if (framed) {
            if (replyLength < 4) {
                return false;
            }
            int frame = (reply[0] & 0xff) << 24 | (reply[1] & 0xff) << 16 | (reply[2] & 0xff) << 8 | reply[3] & 0xff;
            if (frame < 0 || frame > maxReplyBytes) {
                throw new IOException("a reply frame of " + frame + " bytes");
            }
            if (replyLength < 4 + frame) {
                if (reply.length < 4 + frame) {
                    grow(4 + frame);
                }
                return false;
            }
            replyReader.reset(reply, 4, frame);
        } else {
            replyReader.reset(reply, 0, replyLength);
        }
        try {
            call.receive(client);
        } catch (TTransportException e) {
            // An unframed reply carries no length: a read that used up every byte received ran into the end of the
            // part that has arrived (libthrift says so with END_OF_FILE or, from readAll, with no type at all).
            if (!framed && replyReader.getBytesRemainingInBuffer() == 0) {
                return false;
            }
            replyLength = 0;
            throw e;
        } catch (TException | RuntimeException e) {
            replyLength = 0;
            throw e;
        }
        replyLength = 0;
        return true;
    }

    private void grow(int length) {
        byte[] bigger = new byte[length];
        System.arraycopy(reply, 0, bigger, 0, replyLength);
        reply = bigger;
        replyView = ByteBuffer.wrap(reply);
    }
}
