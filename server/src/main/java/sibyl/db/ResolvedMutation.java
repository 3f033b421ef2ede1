package sibyl.db;

import java.util.List;
import java.util.Objects;

/**
 * A row mutation after resolution: per column family, the exact row delta it applies (slice
 * deletions already turned into tombstones). This is what the write log records, so replaying
 * it rebuilds exactly what was applied, whatever the row held around it.
 *
 * @param columnFamilies one non-empty delta per column family, each carrying its metadata
 */
public record ResolvedMutation(String keyspace, String key, List<ColumnFamily> columnFamilies) {
    public ResolvedMutation {
        Objects.requireNonNull(keyspace, "keyspace");
        Objects.requireNonNull(key, "key");
        columnFamilies = List.copyOf(columnFamilies);
        for (ColumnFamily cf : columnFamilies) {
            if (!cf.metadata().keyspace().equals(keyspace)) {
                throw new IllegalArgumentException("column family " + cf.metadata().name() + " of keyspace "
                        + cf.metadata().keyspace() + " in a mutation of keyspace " + keyspace);
            }
        }
    }
}
