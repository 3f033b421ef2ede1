package sibyl.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One {@code <Keyspace>} of storage-conf.xml. The implicit {@code system} keyspace is not
 * described here; a configured keyspace may not use that name.
 *
 * @param name keyspace name, unique in the file
 * @param replicaPlacementStrategy class name as written (only matters for a ring)
 * @param replicationFactor at least 1
 * @param endPointSnitch class name as written (only matters for a ring)
 * @param columnFamilies in file order, names unique
 */
public record KeyspaceConf(
        String name,
        String replicaPlacementStrategy,
        int replicationFactor,
        String endPointSnitch,
        List<ColumnFamilyConf> columnFamilies) {

    public KeyspaceConf {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(replicaPlacementStrategy, "replicaPlacementStrategy");
        Objects.requireNonNull(endPointSnitch, "endPointSnitch");
        columnFamilies = List.copyOf(columnFamilies);
    }

    public Optional<ColumnFamilyConf> columnFamily(String name) {
        return columnFamilies.stream().filter(cf -> cf.name().equals(name)).findFirst();
    }
}
