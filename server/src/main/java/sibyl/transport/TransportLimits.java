package sibyl.transport;

/**
 * Limits the Thrift front end enforces for every connection, and for all of them together.
 *
 * @param maxMessageBytes    largest request message (or frame) accepted; a client declaring or sending more is
 *                           disconnected
 * @param maxConnections     most client connections open at once; further connections are closed as they arrive
 * @param idleTimeoutSeconds a connection with no call under way that neither sent nor received anything for this
 *                           long is closed; 0 disables the timeout
 * @param maxHeldBytes       most bytes of requests held at once over all connections: messages arriving, waiting
 *                           for a worker or being run. A message that would pass it is read and dropped, and its
 *                           call answered with an overload error instead of being run (see {@link RequestBudget}).
 *                           At least {@code maxMessageBytes}, so that one largest message can always be served.
 */
public record TransportLimits(int maxMessageBytes, int maxConnections, int idleTimeoutSeconds, long maxHeldBytes) {
    /** Room for this many largest messages at once, by default, within a quarter of the heap. */
    static final int DEFAULT_HELD_MESSAGES = 64;

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
        if (maxHeldBytes < maxMessageBytes) {
            throw new IllegalArgumentException("maxHeldBytes must be at least maxMessageBytes (" + maxMessageBytes
                    + "), not " + maxHeldBytes);
        }
    }

    /** Limits with the default {@link #maxHeldBytes}: see {@link #defaultMaxHeldBytes}. */
    public TransportLimits(int maxMessageBytes, int maxConnections, int idleTimeoutSeconds) {
        this(maxMessageBytes, maxConnections, idleTimeoutSeconds, defaultMaxHeldBytes(maxMessageBytes));
    }

    /**
     * Room for {@value #DEFAULT_HELD_MESSAGES} largest messages, but no more than a quarter of the heap, and never
     * less than one message: 1 GiB for the shipped 16 MB message limit on a heap of 4 GiB or more.
     */
    public static long defaultMaxHeldBytes(int maxMessageBytes) {
        long quarterHeap = Runtime.getRuntime().maxMemory() / 4;
        return Math.max(maxMessageBytes, Math.min((long) DEFAULT_HELD_MESSAGES * maxMessageBytes, quarterHeap));
    }
}
