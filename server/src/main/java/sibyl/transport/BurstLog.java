package sibyl.transport;

import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * Logs a run of like events (a burst) as one WARN line at its first event and one INFO line with the count when it
 * ends, instead of a line per event. Thread-safe; under a race a burst may log its first line twice, never more.
 */
final class BurstLog {
    private final Logger log;
    private final String what;
    private final AtomicLong eventsInBurst = new AtomicLong();
    private final AtomicLong events = new AtomicLong();

    /** @param what names the events in the closing line, e.g. "connections refused" */
    BurstLog(Logger log, String what) {
        this.log = log;
        this.what = what;
    }

    /** Records an event; the first of a burst is logged with {@code firstLine} (an SLF4J pattern). */
    void event(String firstLine, Object... args) {
        events.incrementAndGet();
        if (eventsInBurst.getAndIncrement() == 0) {
            log.warn(firstLine + " (more like it are counted, not logged, until this passes)", args);
        }
    }

    /** Events recorded since start, in every burst. */
    long total() {
        return events.get();
    }

    /** Ends the burst, if any, logging how many events it had. */
    void calm() {
        if (eventsInBurst.get() != 0) {
            long events = eventsInBurst.getAndSet(0);
            if (events > 0) {
                log.info("{} during the last burst: {}", what, events);
            }
        }
    }
}
