package sibyl.transport;

import java.net.SocketAddress;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Counts open connections against the limit. Refusals are logged once per burst. Thread-safe. */
final class ConnectionLimiter {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionLimiter.class);

    private final int maxConnections;
    private final AtomicInteger open = new AtomicInteger();
    private final BurstLog refusals = new BurstLog(LOG, "Thrift connections refused at the connection limit");

    ConnectionLimiter(int maxConnections) {
        this.maxConnections = maxConnections;
    }

    /** Counts a new connection in, or refuses it if the limit is reached; a connection counted in must be released. */
    boolean tryAcquire(SocketAddress peer) {
        if (open.incrementAndGet() > maxConnections) {
            open.decrementAndGet();
            refusals.event("Refusing Thrift connection from {}: the limit of {} open connections is reached",
                    peer, maxConnections);
            return false;
        }
        refusals.calm();
        return true;
    }

    void release() {
        open.decrementAndGet();
    }

    /** Connections counted in now. */
    int open() {
        return open.get();
    }

    /** Connections refused at the limit since start. */
    long refused() {
        return refusals.total();
    }
}
