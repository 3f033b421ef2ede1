package sibyl.config;

import java.util.Objects;

/**
 * One difference between the configuration a node runs with and its storage-conf.xml as reloaded,
 * which the node applies without a restart.
 *
 * @param element     where in the file, as {@link ElementPath} names it
 * @param description what changed, e.g. {@code changed from 1000 to 2000} or {@code new keyspace ...}
 */
public record ConfigChange(String element, String description) {
    public ConfigChange {
        Objects.requireNonNull(element, "element");
        Objects.requireNonNull(description, "description");
    }

    /** The line nodetool prints and the log shows: {@code element: description}. */
    @Override
    public String toString() {
        return element + ": " + description;
    }
}
