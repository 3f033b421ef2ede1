package sibyl.service;

import java.io.IOException;
import java.util.List;
import sibyl.config.ConfigurationException;
import sibyl.config.StorageConf;
import sibyl.db.CFMetaData;
import sibyl.db.KSMetaData;
import sibyl.db.LogPosition;

/**
 * A backend that takes a changed configuration while it serves (docs/configuration.md §Reloading
 * without a restart): keyspaces and column families added or removed, a column family's caches and
 * GCGraceSeconds, the memtable thresholds. The caller has already refused what cannot change live
 * ({@link sibyl.config.ConfigDiff}); the backend refuses what only it can judge.
 */
public interface Reconfigurable {
    /**
     * Checks that everything can be applied and prepares it (a new column family's SSTables found on
     * disk, a cluster's tables), then applies it all at once: requests see the schema before or
     * after, never a mix. A refusal applies nothing.
     *
     * @param conf      the configuration as reloaded
     * @param keyspaces its keyspaces, {@code system} included ({@link ConfiguredSchema#keyspaces})
     * @throws ConfigurationException naming {@code conf}'s file and the element at fault: a removed column family
     *                                or keyspace that holds data, a new column family whose files or table cannot be
     *                                used
     */
    void reconfigure(StorageConf conf, List<KSMetaData> keyspaces) throws ConfigurationException, InterruptedException;

    /**
     * As {@link #reconfigure}, where the column families of {@code dropped}, which {@code keyspaces} no longer
     * hold, leave with what they hold (a drop by API, docs/configuration.md §Keyspaces made by API): their data is
     * set aside, never deleted, and a column family made again under one of their names starts empty.
     *
     * @return where the store's write log stood once none of them took writes any more: what a column family made
     *         again under the name must not replay; {@link LogPosition#NONE} for a store without a log
     * @throws ConfigurationException as {@link #reconfigure}, for what is refused; nothing changed then
     * @throws IOException            when their data could not be set aside; they are dropped all the same
     */
    LogPosition drop(StorageConf conf, List<KSMetaData> keyspaces, List<CFMetaData> dropped)
            throws ConfigurationException, IOException, InterruptedException;
}
