package sibyl.transport;

import java.net.SocketAddress;

/** What a processor may know about, and hang on, the client connection it serves. */
public interface ConnectionContext {
    /** The client's address. */
    SocketAddress remoteAddress();

    /**
     * Registers an action to run once when the connection has closed and its last call has finished (per-connection
     * state such as the logged-in user is dropped this way). Registered after that point, the action runs at once on
     * the calling thread. Actions may run on any thread; an exception from one is logged and does not stop the others.
     */
    void onClose(Runnable action);
}
