package sibyl.transport;

/**
 * Input that is not a well-formed TBinaryProtocol request within the limits, so the connection cannot be kept in
 * step with the client. The message is the reason, written for the operator reading the log.
 */
final class MalformedMessageException extends Exception {
    MalformedMessageException(String reason) {
        super(reason, null, false, false);
    }
}
