package sibyl.jmx;

import java.util.List;
import java.util.Map;

/**
 * The node as a whole, under 0.6's {@code org.apache.cassandra.service:type=StorageService}:
 * what nodetool's info and ring show. Uptime and heap come from the JVM's own MBeans.
 */
public interface StorageServiceMBean {
    String getClusterName();

    /** This node's token, in the partitioner's wire form. */
    String getToken();

    /** The address this node is known by on the ring. */
    String getEndpoint();

    /** Bytes of data this node holds (memtables and data files). */
    long getLoad();

    /** Token to endpoint, for every node of the ring (this one alone). */
    Map<String, String> getTokenToEndpointMap();

    List<String> getKeyspaces();
}
