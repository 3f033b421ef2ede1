package sibyl.config;

/**
 * The XPath-like names by which messages about storage-conf.xml point at an element, as the
 * loader names them: {@code Storage/ThriftPort},
 * {@code Storage/Keyspaces/Keyspace[@Name='Twitter']/ColumnFamily[@Name='Users']/@CompareWith}.
 * Written down once so that a refusal made after loading (a reload, the cluster's tables) names
 * an element the way a refusal at loading does.
 */
public final class ElementPath {
    private ElementPath() {
    }

    /** A global element or attribute path below {@code <Storage>}, e.g. {@code ThriftPort} or {@code Cluster/KeyspacePrefix}. */
    public static String global(String below) {
        return "Storage/" + below;
    }

    public static String keyspace(String keyspace) {
        return "Storage/Keyspaces/Keyspace[@Name='" + keyspace + "']";
    }

    public static String columnFamily(String keyspace, String columnFamily) {
        return keyspace(keyspace) + "/ColumnFamily[@Name='" + columnFamily + "']";
    }

    /** An attribute of a column family: {@code .../ColumnFamily[@Name='CF']/@attribute}. */
    public static String columnFamilyAttribute(String keyspace, String columnFamily, String attribute) {
        return columnFamily(keyspace, columnFamily) + "/@" + attribute;
    }
}
