package sibyl.thrift20;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The timestamps the server gives counter increments and counter deletions, which 3.11 takes itself rather than from
 * the client: microseconds since the epoch, each one above the last it gave, so that a remove_counter of a row and
 * an add after it on the same node never share a timestamp (docs/semantics.md §Counters).
 */
final class MicrosClock {
    private static final AtomicLong LAST = new AtomicLong();

    private MicrosClock() {
    }

    static long next() {
        long now = System.currentTimeMillis() * 1000;
        return LAST.updateAndGet(last -> Math.max(now, last + 1));
    }
}
