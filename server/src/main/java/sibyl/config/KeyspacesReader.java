package sibyl.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reads {@code Storage/Keyspaces}: each keyspace and its column families, in file order. */
final class KeyspacesReader {
    private static final Logger log = LoggerFactory.getLogger(StorageConfLoader.class);

    private static final Set<String> KEYSPACE_CHILDREN =
            Set.of("ReplicaPlacementStrategy", "ReplicationFactor", "EndPointSnitch", "ColumnFamily");
    private static final Set<String> KNOWN_STRATEGIES = Set.of(
            "org.apache.cassandra.locator.RackUnawareStrategy", "org.apache.cassandra.locator.RackAwareStrategy");
    private static final Set<String> KNOWN_SNITCHES = Set.of(
            "org.apache.cassandra.locator.EndPointSnitch", "org.apache.cassandra.locator.PropertyFileEndPointSnitch");
    /** The keyspace Sibyl keeps for itself, like 0.6; no configured keyspace may take the name. */
    private static final String SYSTEM_KEYSPACE = "system";

    private final ColumnFamilyReader columnFamilies = new ColumnFamilyReader();

    List<KeyspaceConf> read(ConfigNode storage) throws ConfigurationException {
        Optional<ConfigNode> container = storage.child("Keyspaces");
        List<ConfigNode> nodes = new ArrayList<>();
        if (container.isPresent()) {
            container.get().warnUnknown(Set.of("Keyspace"), Set.of());
            nodes = container.get().namedChildren("Keyspace");
        }
        if (nodes.isEmpty()) {
            throw storage.error("Keyspaces/Keyspace", "no keyspaces configured; at least one is required");
        }
        List<KeyspaceConf> keyspaces = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (ConfigNode node : nodes) {
            KeyspaceConf keyspace = readKeyspace(node);
            if (!names.add(keyspace.name())) {
                throw node.error("duplicate keyspace '" + keyspace.name() + "'");
            }
            keyspaces.add(keyspace);
        }
        return keyspaces;
    }

    private KeyspaceConf readKeyspace(ConfigNode node) throws ConfigurationException {
        node.warnUnknown(KEYSPACE_CHILDREN, Set.of("Name"));
        ConfigValue name = node.attribute("Name")
                .orElseThrow(() -> node.error("@Name", "required attribute is missing"));
        if (name.text().toLowerCase(Locale.ROOT).equals(SYSTEM_KEYSPACE)) {
            throw name.error("'" + name.text() + "' is reserved for the system keyspace; choose another name");
        }
        String strategy = node.requiredValue("ReplicaPlacementStrategy").text();
        if (!KNOWN_STRATEGIES.contains(strategy)) {
            log.warn("{}: {}/ReplicaPlacementStrategy '{}' is not one Sibyl knows; accepted, since a single "
                    + "node places no replicas", node.file(), node.path(), strategy);
        }
        int replicationFactor = node.requiredValue("ReplicationFactor").asInt(1, Integer.MAX_VALUE);
        String snitch = node.requiredValue("EndPointSnitch").text();
        if (!KNOWN_SNITCHES.contains(snitch)) {
            log.warn("{}: {}/EndPointSnitch '{}' is not one Sibyl knows; accepted, since a single node "
                    + "needs no snitch", node.file(), node.path(), snitch);
        }
        List<ColumnFamilyConf> cfs = new ArrayList<>();
        Set<String> cfNames = new HashSet<>();
        for (ConfigNode cfNode : node.namedChildren("ColumnFamily")) {
            ColumnFamilyConf cf = columnFamilies.read(cfNode);
            if (!cfNames.add(cf.name())) {
                throw cfNode.error("duplicate column family '" + cf.name() + "' in keyspace '" + name.text() + "'");
            }
            cfs.add(cf);
        }
        return new KeyspaceConf(name.text(), strategy, replicationFactor, snitch, cfs);
    }
}
