package sibyl.metrics;

/**
 * Writes some of a node's metrics at each scrape, reading them from where they are kept; nothing
 * is copied in between scrapes. Called on the metrics server's thread, so it must not block: it
 * reads counters and sizes, and takes no lock a request holds for long.
 */
@FunctionalInterface
public interface Collector {
    void collect(ExpositionWriter out);
}
