package sibyl.client.it;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.KsDef;

/**
 * The keyspace of the differential test against Cassandra 3.11: a standard column family of each of three
 * comparators and a super column family, declared to Sibyl in a storage-conf.xml and to 3.11 as the equivalent
 * KsDef (SimpleStrategy, replication factor 1; keys and values BytesType, as 0.6's column families had them).
 */
final class Diff07Schema {
    /** A column family; {@code subnames} is null for a standard one. */
    record Family(String name, ColumnNameType names, ColumnNameType subnames) {
        boolean isSuper() {
            return subnames != null;
        }

        CfDef cfDef(String keyspace) {
            CfDef def = new CfDef(keyspace, name).setColumn_type(isSuper() ? "Super" : "Standard")
                    .setComparator_type(names.comparator).setKey_validation_class("BytesType")
                    .setDefault_validation_class("BytesType");
            return isSuper() ? def.setSubcomparator_type(subnames.comparator) : def;
        }

        private String xml() {
            return "      <ColumnFamily Name=\"" + name + "\"" + (isSuper() ? " ColumnType=\"Super\"" : "") + " CompareWith=\""
                    + names.comparator + "\"" + (isSuper() ? " CompareSubcolumnsWith=\"" + subnames.comparator + "\"" : "") + "/>\n";
        }
    }

    static final String KEYSPACE = "Diff07";

    static final List<Family> FAMILIES = List.of(
            new Family("StdBytes", ColumnNameType.BYTES, null),
            new Family("StdUTF8", ColumnNameType.UTF8, null),
            new Family("StdLong", ColumnNameType.LONG, null),
            new Family("Super1", ColumnNameType.BYTES, ColumnNameType.BYTES));

    /** The keyspace {@code name} with these column families, for system_add_keyspace. */
    static KsDef ksDef(String name) {
        List<CfDef> families = new ArrayList<>();
        for (Family f : FAMILIES) families.add(f.cfDef(name));
        return new KsDef(name, "org.apache.cassandra.locator.SimpleStrategy", families)
                .setStrategy_options(Map.of("replication_factor", "1"));
    }

    /** Sibyl's shipped storage-conf.xml ({@code shipped}) with only this keyspace, under RandomPartitioner. */
    static String storageConf(String shipped) {
        return storageConf(shipped, KEYSPACE);
    }

    /** Sibyl's shipped storage-conf.xml ({@code shipped}) with only the keyspace {@code name} of these families. */
    static String storageConf(String shipped, String name) {
        StringBuilder families = new StringBuilder();
        for (Family f : FAMILIES) families.append(f.xml());
        return withKeyspace(shipped, name, families.toString());
    }

    /**
     * Sibyl's shipped storage-conf.xml ({@code shipped}) with only {@code keyspace}, of the ColumnFamily elements
     * {@code columnFamilies}, under RandomPartitioner.
     */
    static String withKeyspace(String shipped, String keyspace, String columnFamilies) {
        StringBuilder keyspaces = new StringBuilder("<Keyspaces>\n    <Keyspace Name=\"" + keyspace + "\">\n");
        keyspaces.append(columnFamilies);
        keyspaces.append("      <ReplicaPlacementStrategy>org.apache.cassandra.locator.RackUnawareStrategy</ReplicaPlacementStrategy>\n")
                .append("      <ReplicationFactor>1</ReplicationFactor>\n")
                .append("      <EndPointSnitch>org.apache.cassandra.locator.EndPointSnitch</EndPointSnitch>\n")
                .append("    </Keyspace>\n  </Keyspaces>");
        int from = shipped.indexOf("<Keyspaces>");
        int to = shipped.indexOf("</Keyspaces>");
        if (from < 0 || to < 0) throw new IllegalArgumentException("no <Keyspaces> in the shipped storage-conf.xml");
        String conf = shipped.substring(0, from) + keyspaces + shipped.substring(to + "</Keyspaces>".length());
        return DifferentialSchema.replace(conf, "Partitioner", "org.apache.cassandra.dht.RandomPartitioner");
    }

    private Diff07Schema() {
    }
}
