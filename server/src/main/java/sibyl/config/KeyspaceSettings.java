package sibyl.config;

import static sibyl.config.Setting.Absent.required;
import static sibyl.config.Setting.Absent.unset;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.config.ChildSetting.OnChange;

/**
 * Every setting of a {@code <Keyspace>}, each declared once ({@link ChildSetting}): its Name
 * attribute, 0.6's three children, and its column families, a structure of their own
 * ({@link ColumnFamilySettings}). Listed in the order they are read and a reload compares them.
 * docs/configuration.md §Keyspaces documents them, and a test holds the two together.
 */
public final class KeyspaceSettings {
    /** Warnings go to the loader's logger: that is where a user (and a test) looks for them. */
    private static final Logger log = LoggerFactory.getLogger(StorageConfLoader.class);

    private static final String MISSING = "required element is missing";
    private static final String NO_EFFECT = " (no effect in Sibyl)";
    private static final String REPLICATION = "a keyspace's replication is fixed while the node runs; restart it"
            + " to apply this";
    private static final Set<String> KNOWN_STRATEGIES = Set.of(
            "org.apache.cassandra.locator.RackUnawareStrategy", "org.apache.cassandra.locator.RackAwareStrategy");
    private static final Set<String> KNOWN_SNITCHES = Set.of(
            "org.apache.cassandra.locator.EndPointSnitch", "org.apache.cassandra.locator.PropertyFileEndPointSnitch");
    /** The keyspace Sibyl keeps for itself, like 0.6; no configured keyspace may take the name. */
    private static final String SYSTEM_KEYSPACE = "system";

    public static final ChildSetting<KeyspaceConf, String> NAME = ChildSetting.key("Name", (node, earlier) -> {
        ConfigValue name = node.attribute("Name")
                .orElseThrow(() -> node.error("@Name", "required attribute is missing"));
        if (name.text().toLowerCase(Locale.ROOT).equals(SYSTEM_KEYSPACE)) {
            throw name.error("'" + name.text() + "' is reserved for the system keyspace; choose another name");
        }
        return name.text();
    }, KeyspaceConf::name);
    public static final ChildSetting<KeyspaceConf, String> REPLICA_PLACEMENT_STRATEGY = ChildSetting.parsed(
            "ReplicaPlacementStrategy", required(MISSING), OnChange.live(NO_EFFECT),
            (value, earlier) -> known(value, KNOWN_STRATEGIES, "a single node places no replicas"),
            KeyspaceConf::replicaPlacementStrategy);
    public static final ChildSetting<KeyspaceConf, Integer> REPLICATION_FACTOR = ChildSetting.parsed(
            "ReplicationFactor", required(MISSING), OnChange.restart(REPLICATION),
            (value, earlier) -> value.asInt(1, Integer.MAX_VALUE), KeyspaceConf::replicationFactor);
    public static final ChildSetting<KeyspaceConf, String> END_POINT_SNITCH = ChildSetting.parsed(
            "EndPointSnitch", required(MISSING), OnChange.live(NO_EFFECT),
            (value, earlier) -> known(value, KNOWN_SNITCHES, "a single node needs no snitch"),
            KeyspaceConf::endPointSnitch);
    /** In file order, names unique; {@link ConfigDiff} compares them one by one. */
    public static final ChildSetting<KeyspaceConf, List<ColumnFamilyConf>> COLUMN_FAMILIES = ChildSetting.element(
            "ColumnFamily", unset(), OnChange.byPart(), KeyspaceSettings::columnFamilies,
            KeyspaceConf::columnFamilies);

    /** In the order they are read and compared. */
    public static final List<ChildSetting<KeyspaceConf, ?>> ALL = List.of(NAME, REPLICA_PLACEMENT_STRATEGY,
            REPLICATION_FACTOR, END_POINT_SNITCH, COLUMN_FAMILIES);

    private KeyspaceSettings() {
    }

    /** A class name as written; one Sibyl does not know is warned about, and accepted since {@code why}. */
    private static String known(ConfigValue value, Set<String> known, String why) {
        if (!known.contains(value.text())) {
            log.warn("{}: {} '{}' is not one Sibyl knows; accepted, since {}", value.file(), value.path(),
                    value.text(), why);
        }
        return value.text();
    }

    private static List<ColumnFamilyConf> columnFamilies(ConfigNode keyspace, ChildValues earlier)
            throws ConfigurationException {
        List<ColumnFamilyConf> cfs = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (ConfigNode node : keyspace.namedChildren(COLUMN_FAMILIES.name())) {
            ColumnFamilyConf cf = ColumnFamilyReader.read(node, earlier.global());
            if (!names.add(cf.name())) {
                throw node.error("duplicate column family '" + cf.name() + "' in keyspace '" + earlier.get(NAME)
                        + "'");
            }
            cfs.add(cf);
        }
        return cfs;
    }
}
