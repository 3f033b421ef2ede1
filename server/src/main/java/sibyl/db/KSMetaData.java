package sibyl.db;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** A keyspace: its name, replication factor and column families (in configuration order). */
public record KSMetaData(String name, int replicationFactor, List<CFMetaData> columnFamilies) {
    public KSMetaData {
        Objects.requireNonNull(name, "name");
        columnFamilies = List.copyOf(columnFamilies);
        Map<String, CFMetaData> seen = new LinkedHashMap<>();
        for (CFMetaData cf : columnFamilies) {
            if (!cf.keyspace().equals(name)) {
                throw new IllegalArgumentException("column family " + cf.name() + " belongs to keyspace "
                        + cf.keyspace() + ", not " + name);
            }
            if (seen.put(cf.name(), cf) != null) {
                throw new IllegalArgumentException("column family " + cf.name() + " defined twice in keyspace " + name);
            }
        }
    }

    public Optional<CFMetaData> columnFamily(String cfName) {
        for (CFMetaData cf : columnFamilies) {
            if (cf.name().equals(cfName)) return Optional.of(cf);
        }
        return Optional.empty();
    }
}
