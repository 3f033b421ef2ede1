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
}
