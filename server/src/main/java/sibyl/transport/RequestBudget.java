package sibyl.transport;

import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bytes of requests the server holds, over all connections, against {@link TransportLimits#maxHeldBytes}: bytes
 * of messages still arriving (held by each connection's decoder) and whole messages waiting for a worker or being
 * run (held by their {@link ThriftCall}). Without it, a thousand connections each sending a message near the size
 * limit would hold gigabytes. Thread-safe.
 *
 * <p>Who reserves releases: a decoder releases what it reserved for its buffered bytes as it consumes them or when
 * its connection closes; a call's bytes are released when it has run or been dropped.
 */
final class RequestBudget {
    private static final Logger LOG = LoggerFactory.getLogger(RequestBudget.class);

    private final long limit;
    private final AtomicLong held = new AtomicLong();

    RequestBudget(long limit) {
        this.limit = limit;
    }

    /** Reserves {@code bytes} if that stays within the limit; otherwise reserves nothing and says so. */
    boolean tryReserve(long bytes) {
        long now;
        do {
            now = held.get();
            if (now + bytes > limit) {
                return false;
            }
        } while (!held.compareAndSet(now, now + bytes));
        return true;
    }

    /** Releases what was reserved. Never throws: it runs on workers, where a throw would leave a call unanswered. */
    void release(long bytes) {
        long after = held.addAndGet(-bytes);
        if (after < 0) {
            LOG.error("Request budget released {} bytes more than were reserved; counting from zero again", -after);
            held.addAndGet(-after);
        }
    }

    long held() {
        return held.get();
    }

    long limit() {
        return limit;
    }
}
