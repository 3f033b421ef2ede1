package sibyl.thrift;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import sibyl.db.CFMetaData;
import sibyl.db.KSMetaData;
import sibyl.db.SystemKeyspace;

/**
 * The answers of describe_keyspaces and describe_keyspace, computed once from one schema, the
 * implicit {@code system} keyspace included. A reload of the configuration brings a new schema and
 * with it a new description ({@link SchemaViews}); 0.6 itself had no schema changes at run time.
 */
final class SchemaDescription {
    private final Set<String> keyspaceNames;
    private final Map<String, Map<String, Map<String, String>>> keyspaces;

    SchemaDescription(List<KSMetaData> schema) {
        Map<String, Map<String, Map<String, String>>> all = new LinkedHashMap<>();
        for (KSMetaData ks : schema) {
            Map<String, Map<String, String>> cfs = new LinkedHashMap<>();
            for (CFMetaData cf : ks.columnFamilies()) {
                cfs.put(cf.name(), describe(cf));
            }
            all.put(ks.name(), Collections.unmodifiableMap(cfs));
        }
        this.keyspaces = Collections.unmodifiableMap(all);
        this.keyspaceNames = Collections.unmodifiableSet(new LinkedHashSet<>(all.keySet()));
    }

    static boolean isSystem(String keyspace) {
        return SystemKeyspace.NAME.equals(keyspace);
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

    private static Map<String, String> describe(CFMetaData cf) {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("Type", cf.columnType());
        props.put("CompareWith", cf.comparator().className());
        if (cf.isSuper()) {
            props.put("CompareSubcolumnsWith", cf.subcomparator().className());
        }
        // 0.6 fell back to text holding a Java identity hash code; ours is stable.
        props.put("Desc", cf.comment() != null ? cf.comment()
                : cf.keyspace() + "." + cf.name() + "\nColumn Family Type: " + cf.columnType()
                        + "\nColumns Sorted By: " + cf.comparator().className() + "\n");
        return Collections.unmodifiableMap(props);
    }
}
