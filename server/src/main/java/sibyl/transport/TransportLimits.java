package sibyl.transport;

/**
 * Limits the Thrift front end enforces for every connection.
 *
 * @param maxMessageBytes largest request message (or frame) accepted; a client declaring or sending more is
 *                        disconnected
 * @param maxConnections  most client connections open at once; further connections are closed as they arrive
 * @param idleTimeoutSeconds a connection with no call under way that neither sent nor received anything for this
 *                           long is closed; 0 disables the timeout
 */
public record TransportLimits(int maxMessageBytes, int maxConnections, int idleTimeoutSeconds) {
    public TransportLimits {
        if (maxMessageBytes < 1) {
            throw new IllegalArgumentException("maxMessageBytes must be positive, not " + maxMessageBytes);
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be at least 1, not " + maxConnections);
        }
        if (idleTimeoutSeconds < 0) {
            throw new IllegalArgumentException("idleTimeoutSeconds must be 0 (no timeout) or positive, not " + idleTimeoutSeconds);
        }
    }
}
