package sibyl.client.it;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The keyspaces and column families of the differential test against Cassandra 0.6: standard column families
 * of all six comparators, super column families of three, a column family name used in two keyspaces, and row
 * caches on some; and the 0.6 storage-conf.xml that declares them.
 */
final class DifferentialSchema {
    /** A column family; {@code subnames} is null for a standard one. */
    record Family(String keyspace, String name, ColumnNameType names, ColumnNameType subnames, int rowsCached) {
        boolean isSuper() {
            return subnames != null;
        }

        /** {@code Keyspace.ColumnFamily}. */
        String id() {
            return keyspace + "." + name;
        }

        private String xml() {
            StringBuilder x = new StringBuilder("      <ColumnFamily Name=\"").append(name).append('"');
            if (isSuper()) x.append(" ColumnType=\"Super\"");
            x.append(" CompareWith=\"").append(names.comparator).append('"');
            if (isSuper()) x.append(" CompareSubcolumnsWith=\"").append(subnames.comparator).append('"');
            if (rowsCached > 0) x.append(" RowsCached=\"").append(rowsCached).append('"');
            return x.append("/>\n").toString();
        }
    }

    static final List<Family> FAMILIES = List.of(
            new Family("Keyspace1", "Standard1", ColumnNameType.BYTES, null, 0),
            new Family("Keyspace1", "StdAscii", ColumnNameType.ASCII, null, 0),
            new Family("Keyspace1", "StdUTF8", ColumnNameType.UTF8, null, 0),
            new Family("Keyspace1", "StdLong", ColumnNameType.LONG, null, 0),
            new Family("Keyspace1", "StdLexicalUUID", ColumnNameType.LEXICAL_UUID, null, 0),
            new Family("Keyspace1", "StdTimeUUID", ColumnNameType.TIME_UUID, null, 0),
            new Family("Keyspace1", "Super1", ColumnNameType.BYTES, ColumnNameType.BYTES, 1000),
            new Family("Keyspace1", "SuperLong", ColumnNameType.LONG, ColumnNameType.UTF8, 0),
            new Family("Keyspace2", "Standard1", ColumnNameType.UTF8, null, 1000),
            new Family("Keyspace2", "SuperTimeUUID", ColumnNameType.TIME_UUID, ColumnNameType.LONG, 0));

    static List<String> keyspaces() {
        Set<String> names = new LinkedHashSet<>();
        for (Family f : FAMILIES) names.add(f.keyspace());
        return List.copyOf(names);
    }

    static List<Family> familiesOf(String keyspace) {
        return FAMILIES.stream().filter(f -> f.keyspace().equals(keyspace)).toList();
    }

    static Set<String> ids() {
        Set<String> ids = new LinkedHashSet<>();
        for (Family f : FAMILIES) ids.add(f.id());
        return ids;
    }

    /**
     * 0.6's sample storage-conf.xml ({@code sample}) with these keyspaces, the partitioner
     * ({@code RandomPartitioner}, ...), {@code gcGraceSeconds}, commit log segments of 1 MB (so a run leaves
     * several) and column indexes every 4 KB (so wide rows have several index blocks).
     */
    static String storageConf(String sample, String partitioner, int gcGraceSeconds) {
        StringBuilder keyspaces = new StringBuilder("<Keyspaces>\n");
        for (String ks : keyspaces()) {
            keyspaces.append("    <Keyspace Name=\"").append(ks).append("\">\n");
            for (Family f : familiesOf(ks)) keyspaces.append(f.xml());
            keyspaces.append("      <ReplicaPlacementStrategy>org.apache.cassandra.locator.RackUnawareStrategy</ReplicaPlacementStrategy>\n")
                    .append("      <ReplicationFactor>1</ReplicationFactor>\n")
                    .append("      <EndPointSnitch>org.apache.cassandra.locator.EndPointSnitch</EndPointSnitch>\n")
                    .append("    </Keyspace>\n");
        }
        keyspaces.append("  </Keyspaces>");
        int from = sample.indexOf("<Keyspaces>");
        int to = sample.indexOf("</Keyspaces>");
        if (from < 0 || to < 0) throw new IllegalArgumentException("no <Keyspaces> in 0.6's sample storage-conf.xml");
        String conf = sample.substring(0, from) + keyspaces + sample.substring(to + "</Keyspaces>".length());
        conf = replace(conf, "Partitioner", "org.apache.cassandra.dht." + partitioner);
        conf = replace(conf, "GCGraceSeconds", String.valueOf(gcGraceSeconds));
        conf = replace(conf, "CommitLogRotationThresholdInMB", "1");
        return replace(conf, "ColumnIndexSizeInKB", "4");
    }

    /** {@code conf} with the value of its element {@code element} replaced. */
    static String replace(String conf, String element, String value) {
        String open = "<" + element + ">";
        int from = conf.indexOf(open);
        int to = conf.indexOf("</" + element + ">", from);
        if (from < 0 || to < 0) throw new IllegalArgumentException("no <" + element + "> in the storage-conf.xml");
        return conf.substring(0, from + open.length()) + value + conf.substring(to);
    }

    private DifferentialSchema() {
    }
}
