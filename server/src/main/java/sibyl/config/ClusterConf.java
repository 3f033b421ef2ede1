package sibyl.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Sibyl: the {@code <Cluster>} element of storage-conf.xml. Its presence makes the node store
 * into a real Apache Cassandra cluster (sibyl.cluster) instead of its embedded engine; the node
 * then keeps no data of its own.
 *
 * @param contactPoints          where the driver first connects, at least one
 * @param localDatacenter        the datacenter whose nodes coordinate requests, and whose
 *                               replicas DCQUORUM counts
 * @param username               null without credentials (then password is null too)
 * @param trustStore             a JKS or PKCS12 trust store: null for a plain connection, else TLS
 * @param trustStorePassword     null when the trust store has none
 * @param requestTimeoutInMillis how long one request to the cluster may take (TimedOutException after)
 * @param connectTimeoutInSeconds how long start-up waits for the cluster before giving up
 * @param keyspacePrefix         prepended to each keyspace name to name its CQL keyspace; may be empty
 * @param datacenterReplication  keyspace name to (datacenter to replication factor), for the
 *                               keyspaces placed with NetworkTopologyStrategy; others use
 *                               SimpleStrategy with their ReplicationFactor
 * @param file                   the storage-conf.xml this came from, for start-up refusals to name
 * @param thriftEndpoints        the addresses (host names or IP literals, no port) of every Sibyl node of this
 *                               deployment, as clients reach them over Thrift: what describe_ring and the token map
 *                               name as the ring's endpoints; empty for this node's own address alone
 */
public record ClusterConf(
        List<ContactPoint> contactPoints,
        String localDatacenter,
        String username,
        String password,
        Path trustStore,
        String trustStorePassword,
        int requestTimeoutInMillis,
        int connectTimeoutInSeconds,
        String keyspacePrefix,
        Map<String, Map<String, Integer>> datacenterReplication,
        Path file,
        List<String> thriftEndpoints) {

    /** Where, in storage-conf.xml, the contact points are: start-up refusals about reaching the cluster name it. */
    public static final String CONTACT_POINTS_ELEMENT = "Storage/Cluster/ContactPoints";
    /** The element start-up refusals about the cluster's shape (partitioner, tables) name. */
    public static final String CLUSTER_ELEMENT = "Storage/Cluster";

    public ClusterConf {
        contactPoints = List.copyOf(contactPoints);
        if (contactPoints.isEmpty()) throw new IllegalArgumentException("at least one contact point is needed");
        Objects.requireNonNull(localDatacenter, "localDatacenter");
        Objects.requireNonNull(keyspacePrefix, "keyspacePrefix");
        datacenterReplication = Map.copyOf(datacenterReplication);
        Objects.requireNonNull(file, "file");
        thriftEndpoints = List.copyOf(thriftEndpoints);
    }

    /** Without ThriftEndpoints: this node names itself alone. */
    public ClusterConf(List<ContactPoint> contactPoints, String localDatacenter, String username, String password,
                       Path trustStore, String trustStorePassword, int requestTimeoutInMillis,
                       int connectTimeoutInSeconds, String keyspacePrefix,
                       Map<String, Map<String, Integer>> datacenterReplication, Path file) {
        this(contactPoints, localDatacenter, username, password, trustStore, trustStorePassword, requestTimeoutInMillis,
                connectTimeoutInSeconds, keyspacePrefix, datacenterReplication, file, List.of());
    }

    /** The per-datacenter factors of {@code keyspace}, when it is placed with NetworkTopologyStrategy. */
    public Optional<Map<String, Integer>> datacenterReplication(String keyspace) {
        return Optional.ofNullable(datacenterReplication.get(keyspace));
    }

    /** A host (name or IP literal) and CQL port. */
    public record ContactPoint(String host, int port) {
        public ContactPoint {
            Objects.requireNonNull(host, "host");
        }

        @Override
        public String toString() {
            return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        }
    }
}
