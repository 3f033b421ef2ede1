package sibyl.jmx;

import java.util.List;

/**
 * Sibyl's own bean, {@code sibyl:type=Configuration}: the node's storage-conf.xml and its reload
 * without a restart (bin/nodetool reloadconf; docs/configuration.md §Reloading without a restart).
 * Served in either storage mode.
 */
public interface ConfigurationMBean {
    /** The storage-conf.xml the node reads. */
    String getFile();

    /**
     * Reads the file again and applies what changed, or nothing.
     *
     * @return one line per change applied ({@code element: what changed}); empty when nothing changed
     * @throws IllegalArgumentException with the refusal in one line (the file, the element, what changed and why
     *                                  it takes a restart, or the loader's message); nothing was applied
     */
    List<String> reload() throws InterruptedException;
}
