package sibyl.transport;

import org.apache.thrift.protocol.TMessageType;

/**
 * One whole request message as cut from a connection, with what its header says.
 *
 * @param mode    how the connection frames its messages, and so its replies
 * @param message the message bytes, header included, frame length excluded. Owned by the call: the processor may
 *                hand out views of it (libthrift reads binary fields as ByteBuffers wrapping this array), which
 *                stay valid for as long as anyone holds them. Empty for a refused call.
 * @param methodName the method the header names
 * @param refused whether the message was dropped, unread, because the server held too many request bytes: the
 *                call is answered with an overload error instead of being run. A refused call holds none of the
 *                {@link RequestBudget}; any other holds {@code message.length} bytes of it until it has run.
 */
record ThriftCall(WireMode mode, byte[] message, String methodName, byte messageType, int seqId, boolean refused) {
    private static final byte[] NO_MESSAGE = new byte[0];

    /** A call refused for overload, of which only the header is kept. */
    static ThriftCall refused(WireMode mode, String methodName, byte messageType, int seqId) {
        return new ThriftCall(mode, NO_MESSAGE, methodName, messageType, seqId, true);
    }

    boolean isOneway() {
        return messageType == TMessageType.ONEWAY;
    }

    /** The bytes of the {@link RequestBudget} this call holds. */
    long heldBytes() {
        return refused ? 0 : message.length;
    }
}
