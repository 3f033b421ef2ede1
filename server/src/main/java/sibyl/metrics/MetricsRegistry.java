package sibyl.metrics;

import java.util.List;

/** The collectors of a node, in the order their families appear in a scrape. */
public final class MetricsRegistry {
    private final List<Collector> collectors;

    public MetricsRegistry(List<Collector> collectors) {
        this.collectors = List.copyOf(collectors);
    }

    /** Every collector's families, as one exposition in the text format. */
    public String scrape() {
        ExpositionWriter out = new ExpositionWriter();
        for (Collector c : collectors) c.collect(out);
        return out.text();
    }
}
