package sibyl.client.stress;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The listening half of the fake servers bin/stress's tests talk to: a loopback port, and a daemon thread per accepted
 * connection that runs the server's own conversation on it. Closing it closes the port and every connection still
 * open, so that no conversation outlives its test.
 */
final class ConnectionThreads implements AutoCloseable {
    /** What a fake server says on one connection, until it or the client ends it. */
    @FunctionalInterface
    interface Conversation {
        /** An IOException ends the conversation quietly: the client went away, or the test closed the server. */
        void serve(Socket s) throws IOException;
    }

    private final ServerSocket socket;
    private final Thread acceptor;
    private final String name;
    private final Conversation conversation;
    private final AtomicInteger accepted = new AtomicInteger();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();

    /**
     * Listens on a free loopback port and starts accepting.
     *
     * @param name         names the threads: {@code name-accept}, and {@code name-N} for the Nth connection
     * @param conversation serves one connection; the socket is closed after it, and need not be by it
     */
    ConnectionThreads(String name, Conversation conversation) throws IOException {
        this.name = name;
        this.conversation = conversation;
        this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::accept, name + "-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return socket.getLocalPort();
    }

    /** Connections accepted so far. */
    int accepted() {
        return accepted.get();
    }

    /** Whether {@link #close} has begun: a conversation that fails after it was ended by the test. */
    boolean closed() {
        return socket.isClosed();
    }

    private void accept() {
        while (!socket.isClosed()) {
            Socket s;
            try {
                s = socket.accept();
            } catch (IOException e) {
                return; // closed
            }
            open.add(s);
            Thread t = new Thread(() -> serve(s), name + "-" + accepted.incrementAndGet());
            t.setDaemon(true);
            t.start();
        }
    }

    private void serve(Socket s) {
        try (s) {
            s.setTcpNoDelay(true); // a reply is one write; without this each waits out the client's delayed ack
            conversation.serve(s);
        } catch (IOException e) {
            // the client went away
        } finally {
            open.remove(s);
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        socket.close();
        acceptor.join(5_000); // before the sockets: one it accepts meanwhile is then in the set
        for (Socket s : open) s.close();
    }
}
