package sibyl.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A TCP forwarder to one server (a Cassandra node's CQL port) that a test can freeze: frozen, it
 * holds every byte it receives, both ways, until thawed, while the connections stay open. To a
 * client the server then seems to stop answering, as a node does under a long GC pause or behind
 * a broken network, without the test stopping a process that others share.
 */
final class FreezableProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "freezable-proxy");
        t.setDaemon(true);
        return t;
    });
    private final List<Socket> sockets = new ArrayList<>();
    private boolean frozen;
    private boolean closed;
    /** Reads that arrived since the last freeze while frozen: data one side sent that the other has not had. */
    private long held;

    private FreezableProxy(ServerSocket listener, InetSocketAddress target) {
        this.listener = listener;
        this.target = target;
    }

    /** Listens on 127.0.0.1 on a free port, forwarding each connection to {@code host:port}. */
    static FreezableProxy start(String host, int port) throws IOException {
        ServerSocket listener = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        FreezableProxy proxy = new FreezableProxy(listener, new InetSocketAddress(host, port));
        proxy.threads.execute(proxy::accept);
        return proxy;
    }

    /** {@code 127.0.0.1:port}, a contact point for the Cluster element. */
    String address() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    synchronized void freeze() {
        frozen = true;
        held = 0;
    }

    synchronized void thaw() {
        frozen = false;
        notifyAll();
    }

    /** How many reads arrived while frozen, since the last freeze. */
    synchronized long held() {
        return held;
    }

    private void accept() {
        while (true) {
            Socket client;
            Socket server;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            try {
                server = new Socket();
                server.connect(target, 5_000);
            } catch (IOException e) {
                closeQuietly(client);
                continue;
            }
            synchronized (this) {
                if (closed) {
                    closeQuietly(client);
                    closeQuietly(server);
                    return;
                }
                sockets.add(client);
                sockets.add(server);
            }
            threads.execute(() -> pump(client, server));
            threads.execute(() -> pump(server, client));
        }
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (!awaitThawed()) return;
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // one side went away: so does the other
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    /** Waits while frozen; false once the proxy is closed. */
    private synchronized boolean awaitThawed() throws InterruptedException {
        if (frozen) held++;
        while (frozen && !closed) wait();
        return !closed;
    }

    @Override
    public void close() {
        List<Socket> open;
        synchronized (this) {
            closed = true;
            notifyAll();
            open = new ArrayList<>(sockets);
        }
        closeQuietly(listener);
        open.forEach(FreezableProxy::closeQuietly);
        threads.shutdownNow();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // closing anyway
        }
    }
}
