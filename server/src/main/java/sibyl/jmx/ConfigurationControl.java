package sibyl.jmx;

import java.nio.file.Path;
import java.util.List;
import sibyl.config.ConfigurationException;

/** The node's configuration as nodetool reaches it over JMX. */
final class ConfigurationControl implements ConfigurationMBean {
    private final Path file;
    private final NodeBeans.Reload reload;

    ConfigurationControl(Path file, NodeBeans.Reload reload) {
        this.file = file;
        this.reload = reload;
    }

    @Override
    public String getFile() {
        return file.toString();
    }

    /**
     * The refusal reaches nodetool as a plain IllegalArgumentException carrying the message alone: nodetool has
     * none of the server's classes to read a ConfigurationException with. One line, whatever the message it
     * quotes (a parser's, a driver's) held.
     */
    @Override
    public List<String> reload() throws InterruptedException {
        try {
            return reload.reload();
        } catch (ConfigurationException e) {
            throw new IllegalArgumentException(e.getMessage().replaceAll("\\s*\\R\\s*", " "));
        }
    }
}
