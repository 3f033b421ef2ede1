package sibyl.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads {@code Storage/Keyspaces}: each keyspace as {@link KeyspaceSettings} declares it, in file order. None at all
 * is a valid file, unlike 0.6's: 0.7+ deployments bring their keyspaces by API (docs/configuration.md §Keyspaces
 * made by API).
 */
final class KeyspacesReader {
    private KeyspacesReader() {
    }

    static List<KeyspaceConf> read(ConfigNode storage, StorageConf.Builder global) throws ConfigurationException {
        Optional<ConfigNode> container = storage.child("Keyspaces");
        List<ConfigNode> nodes = new ArrayList<>();
        if (container.isPresent()) {
            container.get().warnUnknown(Set.of("Keyspace"), Set.of());
            nodes = container.get().namedChildren("Keyspace");
        }
        List<KeyspaceConf> keyspaces = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (ConfigNode node : nodes) {
            KeyspaceConf keyspace = readKeyspace(node, global);
            if (!names.add(keyspace.name())) {
                throw node.error("duplicate keyspace '" + keyspace.name() + "'");
            }
            keyspaces.add(keyspace);
        }
        return keyspaces;
    }

    private static KeyspaceConf readKeyspace(ConfigNode node, StorageConf.Builder global)
            throws ConfigurationException {
        ChildValues read = ChildValues.read(KeyspaceSettings.ALL, node, Set.of(), global);
        return new KeyspaceConf(read.get(KeyspaceSettings.NAME), read.get(KeyspaceSettings.REPLICA_PLACEMENT_STRATEGY),
                read.get(KeyspaceSettings.REPLICATION_FACTOR), read.get(KeyspaceSettings.END_POINT_SNITCH),
                read.get(KeyspaceSettings.COLUMN_FAMILIES));
    }
}
