package sibyl.service;

import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.config.ConfigChange;
import sibyl.config.ConfigDiff;
import sibyl.config.ConfigurationException;
import sibyl.config.StorageConf;
import sibyl.config.StorageConfLoader;

/**
 * Reads storage-conf.xml again and applies what changed to the running backend, or refuses it as
 * a whole (docs/configuration.md §Reloading without a restart). In order, each step before anything
 * changes: the file is loaded in full (a file that does not load is refused with the loader's
 * message), compared with the configuration the node runs with ({@link ConfigDiff} refuses what
 * takes a restart), then handed to the backend, which refuses what only it can judge (a removed
 * column family holding data) and otherwise applies it all at once. Only then does the reloaded
 * file become the running configuration.
 *
 * <p>One reload at a time. The outcome is logged: one INFO line per change (or one saying there
 * was none), or one ERROR line with the refusal.
 */
public final class ConfigReloader {
    private static final Logger log = LoggerFactory.getLogger(ConfigReloader.class);

    private final NodeSchema schema;
    private StorageConf running; // guarded by this

    /**
     * @param running the configuration the node started with
     * @param schema  the node's schema, whose storage-conf.xml part a reload replaces (the keyspaces made by API stay)
     */
    public ConfigReloader(StorageConf running, NodeSchema schema) {
        this.running = Objects.requireNonNull(running, "running");
        this.schema = Objects.requireNonNull(schema, "schema");
    }

    /** The configuration the node runs with: the one it started with, or the last reload applied. */
    public synchronized StorageConf running() {
        return running;
    }

    /**
     * Reloads the file the running configuration came from.
     *
     * @return the changes applied, in the file's order; empty when there were none
     * @throws ConfigurationException the refusal, naming the file and element; nothing was applied
     */
    public synchronized List<ConfigChange> reload() throws ConfigurationException, InterruptedException {
        try {
            StorageConf reloaded = StorageConfLoader.load(running.configFile(), running.installDirectory());
            ConfigDiff diff = ConfigDiff.between(running, reloaded);
            if (!diff.isEmpty()) schema.reload(reloaded);
            running = reloaded;
            if (diff.isEmpty()) {
                log.info("Configuration reloaded from {}: no changes", reloaded.configFile());
            }
            for (ConfigChange change : diff.changes()) log.info("Configuration reloaded: {}", change);
            return diff.changes();
        } catch (ConfigurationException e) {
            log.error("Configuration reload refused, nothing changed: {}", e.getMessage());
            throw e;
        } catch (RuntimeException e) {
            log.error("Configuration reload failed", e);
            throw e;
        }
    }
}
