package sibyl.transport;

import org.apache.thrift.TProcessor;

/** Makes the Thrift processor that serves one client connection. */
@FunctionalInterface
public interface ProcessorFactory {
    /**
     * Called once per accepted connection, on a network thread, before any message of that connection is
     * read; the returned processor serves only that connection and is never called concurrently with itself.
     * A failure here closes the connection.
     */
    TProcessor newProcessor(ConnectionContext connection);

    /**
     * Whether calls of {@code method} finish in microseconds without ever waiting (for a disk sync, a lock held
     * across I/O, another server), so that the network thread may run them itself instead of handing them to a
     * worker (see {@link CallPlacement}). May change over time, e.g. while writes wait for flushes; called on
     * network threads, so it must be cheap. None by default.
     */
    default boolean isQuick(String method) {
        return false;
    }
}
