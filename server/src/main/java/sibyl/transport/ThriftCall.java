package sibyl.transport;

import java.nio.charset.StandardCharsets;
import org.apache.thrift.protocol.TMessageType;

/**
 * One whole request message as cut from a connection, with what its header says.
 *
 * @param mode    how the connection frames its messages, and so its replies
 * @param message the message bytes, header included, frame length excluded. Owned by the call: the processor may
 *                hand out views of it (libthrift reads binary fields as ByteBuffers wrapping this array), which
 *                stay valid for as long as anyone holds them.
 */
record ThriftCall(WireMode mode, byte[] message, int nameOffset, int nameLength, byte messageType, int seqId) {

    String methodName() {
        return new String(message, nameOffset, nameLength, StandardCharsets.UTF_8);
    }

    boolean isOneway() {
        return messageType == TMessageType.ONEWAY;
    }
}
