package sibyl.it;

import java.util.function.UnaryOperator;

/**
 * Edits of the shipped storage-conf.xml that test nodes start with ({@link TestNode#start(java.nio.file.Path,
 * UnaryOperator)}, {@link NodeExtension#edit}). Each is a function of the file's text.
 */
public final class ConfEdits {
    public static final String SIMPLE_AUTHENTICATOR = "org.apache.cassandra.auth.SimpleAuthenticator";
    public static final String ORDER_PRESERVING_PARTITIONER = "org.apache.cassandra.dht.OrderPreservingPartitioner";

    private ConfEdits() {
    }

    /**
     * Sets an element the shipped file has. One it does not have is refused, so that a test whose setting
     * was renamed or removed from the file fails instead of running with the shipped value.
     */
    public static UnaryOperator<String> set(String element, Object value) {
        return xml -> {
            String edited = xml.replaceFirst("<" + element + ">[^<]*</" + element + ">",
                    "<" + element + ">" + value + "</" + element + ">");
            if (edited.equals(xml) && !xml.contains("<" + element + ">" + value + "<")) {
                throw new IllegalStateException("the shipped storage-conf.xml has no " + element);
            }
            return edited;
        };
    }

    /** The edits one after the other. */
    @SafeVarargs
    public static UnaryOperator<String> all(UnaryOperator<String>... edits) {
        return xml -> {
            for (UnaryOperator<String> edit : edits) xml = edit.apply(xml);
            return xml;
        };
    }

    /** Names another authenticator, e.g. {@link #SIMPLE_AUTHENTICATOR}. */
    public static UnaryOperator<String> authenticator(String className) {
        return set("Authenticator", className);
    }

    /** SimpleAuthenticator: users from the node's passwd.properties, keyspace access from its access.properties. */
    public static UnaryOperator<String> simpleAuthenticator() {
        return authenticator(SIMPLE_AUTHENTICATOR);
    }

    /** Names another partitioner, e.g. {@link #ORDER_PRESERVING_PARTITIONER}. */
    public static UnaryOperator<String> partitioner(String className) {
        return set("Partitioner", className);
    }

    /** Adds {@code keyspaceXml} (a whole Keyspace element) after the shipped keyspaces. */
    public static UnaryOperator<String> addKeyspace(String keyspaceXml) {
        return xml -> xml.replace("</Keyspaces>", keyspaceXml + "\n</Keyspaces>");
    }

    /** A Keyspace element with the given replication factor and ColumnFamily elements. */
    public static String keyspace(String name, int replicationFactor, String... columnFamilies) {
        return "<Keyspace Name=\"" + name + "\">" + String.join("", columnFamilies)
                + "<ReplicaPlacementStrategy>org.apache.cassandra.locator.RackUnawareStrategy</ReplicaPlacementStrategy>"
                + "<ReplicationFactor>" + replicationFactor + "</ReplicationFactor>"
                + "<EndPointSnitch>org.apache.cassandra.locator.EndPointSnitch</EndPointSnitch></Keyspace>";
    }

    /** Adds a Cluster element with one contact point and a keyspace prefix. */
    public static UnaryOperator<String> inCluster(String contactPoint, String keyspacePrefix) {
        return xml -> xml.replace("</Storage>", "<Cluster><ContactPoints><ContactPoint>" + contactPoint
                + "</ContactPoint></ContactPoints><LocalDatacenter>datacenter1</LocalDatacenter>"
                + "<KeyspacePrefix>" + keyspacePrefix + "</KeyspacePrefix></Cluster>\n</Storage>");
    }
}
