package sibyl.thrift;

import static sibyl.config.ClassNames.BYTES_TYPE;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import sibyl.config.ColumnFamilyConf;
import sibyl.config.KeyspaceConf;
import sibyl.config.StorageConf;

/**
 * The answers of describe_keyspaces and describe_keyspace, computed once from the
 * configuration (0.6 has no schema changes at run time). Includes the implicit
 * {@code system} keyspace, which every 0.6 node reports.
 */
final class SchemaDescription {
    static final String SYSTEM_KEYSPACE = "system";

    private final Set<String> keyspaceNames;
    private final Map<String, Map<String, Map<String, String>>> keyspaces;

    SchemaDescription(StorageConf conf) {
        Map<String, Map<String, Map<String, String>>> all = new LinkedHashMap<>();
        for (KeyspaceConf ks : conf.keyspaces()) {
            Map<String, Map<String, String>> cfs = new LinkedHashMap<>();
            for (ColumnFamilyConf cf : ks.columnFamilies()) {
                cfs.put(cf.name(), describe(ks.name(), cf.name(), cf.type().wireName(),
                        cf.compareWith(), cf.compareSubcolumnsWith(), cf.comment()));
            }
            all.put(ks.name(), Collections.unmodifiableMap(cfs));
        }
        Map<String, Map<String, String>> system = new LinkedHashMap<>();
        system.put("LocationInfo", describe(SYSTEM_KEYSPACE, "LocationInfo", "Standard", BYTES_TYPE, null,
                "persistent metadata for the local node"));
        system.put("HintsColumnFamily", describe(SYSTEM_KEYSPACE, "HintsColumnFamily", "Super", BYTES_TYPE,
                BYTES_TYPE, "hinted handoff data"));
        all.put(SYSTEM_KEYSPACE, Collections.unmodifiableMap(system));
        this.keyspaces = Collections.unmodifiableMap(all);
        this.keyspaceNames = Collections.unmodifiableSet(new LinkedHashSet<>(all.keySet()));
    }

    /** Every keyspace name, {@code system} included, in configuration order. */
    Set<String> keyspaceNames() {
        return keyspaceNames;
    }

    List<String> keyspaceNameList() {
        return new ArrayList<>(keyspaceNames);
    }

    /** CF name to its property map, or null for an unknown keyspace. */
    Map<String, Map<String, String>> keyspace(String name) {
        return keyspaces.get(name);
    }

    private static Map<String, String> describe(String ks, String cf, String type, String compareWith,
                                                String compareSubcolumnsWith, String comment) {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("Type", type);
        props.put("CompareWith", compareWith);
        if ("Super".equals(type)) {
            props.put("CompareSubcolumnsWith", compareSubcolumnsWith == null ? BYTES_TYPE : compareSubcolumnsWith);
        }
        // 0.6 fell back to text holding a Java identity hash code; ours is stable.
        props.put("Desc", comment != null ? comment
                : ks + "." + cf + "\nColumn Family Type: " + type + "\nColumns Sorted By: " + compareWith + "\n");
        return Collections.unmodifiableMap(props);
    }
}
