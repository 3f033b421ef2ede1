package sibyl.service;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import sibyl.db.CFMetaData;
import sibyl.db.KSMetaData;

/**
 * The keyspaces a node serves at one moment, {@code system} included, in configuration order.
 * Immutable: a reload of the configuration replaces the whole value at once, so a call that takes
 * it once sees the schema before the reload or after it, never a mix of the two.
 */
public final class Schema {
    private final List<KSMetaData> keyspaces;
    private final Map<String, KSMetaData> byName;

    public Schema(List<KSMetaData> keyspaces) {
        this.keyspaces = List.copyOf(keyspaces);
        Map<String, KSMetaData> names = new LinkedHashMap<>();
        for (KSMetaData ks : this.keyspaces) {
            if (names.put(ks.name(), ks) != null) throw new IllegalArgumentException("keyspace " + ks.name() + " defined twice");
        }
        this.byName = Map.copyOf(names);
    }

    /** Every keyspace in configuration order. */
    public List<KSMetaData> keyspaces() {
        return keyspaces;
    }

    public Optional<KSMetaData> keyspace(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** The column family, when both it and its keyspace exist. */
    public Optional<CFMetaData> columnFamily(String keyspace, String columnFamily) {
        KSMetaData ks = byName.get(keyspace);
        return ks == null ? Optional.empty() : ks.columnFamily(columnFamily);
    }
}
