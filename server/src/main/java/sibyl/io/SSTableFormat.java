package sibyl.io;

import java.util.List;

/**
 * The on-disk formats an SSTable may be in. Both name their files {@code <CF>-<generation>-<Component>} and
 * share one space of generations per column family; which one a set of files is, start-up tells by their
 * content ({@link DataFileInventory}), and a {@link Descriptor} carries it from then on.
 */
public enum SSTableFormat {
    /** Sibyl's own (FORMAT.md): checksummed, complete exactly when its Statistics file exists. */
    SIBYL(List.of(Component.DATA, Component.INDEX, Component.FILTER, Component.SUMMARY, Component.STATISTICS)),
    /**
     * Apache Cassandra 0.6's (FORMAT.md, "Cassandra 0.6 SSTables"): read in place, never written; compaction
     * rewrites it in Sibyl's format and then deletes it behind a marker of Sibyl's ({@link CompactedMarker}).
     */
    CASSANDRA_06(List.of(Component.DATA, Component.INDEX, Component.FILTER));

    private final List<Component> components;

    SSTableFormat(List<Component> components) {
        this.components = components;
    }

    /** The components an SSTable of this format is made of (all present, but for Sibyl's optional Summary). */
    public List<Component> components() {
        return components;
    }

    /** How messages name an SSTable of this format: "a Cassandra 0.6 SSTable". */
    public String description() {
        return this == SIBYL ? "a Sibyl SSTable" : "a Cassandra 0.6 SSTable";
    }
}
