package sibyl.transport;

import java.nio.charset.StandardCharsets;
import org.apache.thrift.protocol.TMessageType;

/**
 * One whole request message as cut from a connection, with what its header says.
 *
 * @param mode    how the connection frames its messages, and so its replies
 * @param message the message bytes, header included, frame length excluded. Owned by the call: the processor may
 *                hand out views of it (libthrift reads binary fields as ByteBuffers wrapping this array), which
 *                stay valid for as long as anyone holds them. For a refused call, only the method name.
 * @param refused whether the message was dropped, unread, because the server held too many request bytes: the
 *                call is answered with an overload error instead of being run. A refused call holds none of the
 *                {@link RequestBudget}; any other holds {@code message.length} bytes of it until it has run.
 */
record ThriftCall(WireMode mode, byte[] message, int nameOffset, int nameLength, byte messageType, int seqId,
        boolean refused) {

    /** A call refused for overload, of which only the header is kept. */
    static ThriftCall refused(WireMode mode, byte[] name, byte messageType, int seqId) {
        return new ThriftCall(mode, name, 0, name.length, messageType, seqId, true);
    }

    String methodName() {
        return new String(message, nameOffset, nameLength, StandardCharsets.UTF_8);
    }

    boolean isOneway() {
        return messageType == TMessageType.ONEWAY;
    }

    /** The bytes of the {@link RequestBudget} this call holds. */
    long heldBytes() {
        return refused ? 0 : message.length;
    }
}
