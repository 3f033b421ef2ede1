package sibyl.jmx;

import java.util.List;

/**
 * The node as a whole in cluster mode, under 0.6's {@code org.apache.cassandra.service:type=StorageService}:
 * the attributes nodetool's info and ring read, with the cluster's ring where 0.6 had this node's
 * own, and the requests the node served. The storage operations (flush, compact, drain, snapshot,
 * clearsnapshot, scrub, refresh) are refused with {@link UnsupportedOperationException}, saying that
 * the cluster owns the data: this node keeps none.
 */
public interface ClusterStorageServiceMBean extends StorageServiceMBean {
    /**
     * What stores the data, in a sentence: the cluster's name and partitioner, how many of its
     * nodes are up, and the contact points. Its presence tells nodetool that the node is in cluster mode.
     */
    String getStorageCluster();

    /** The cluster's nodes the driver has up now, by CQL address. */
    List<String> getLiveNodes();

    /** The cluster's nodes the driver has down now, by CQL address. */
    List<String> getUnreachableNodes();

    /** Point reads served since start, over every column family (get, get_slice, get_count; one per key of a multiget). */
    long getReadCount();

    long getTotalReadLatencyMicros();

    /** Row mutations served since start, counted in each column family they change. */
    long getWriteCount();

    long getTotalWriteLatencyMicros();

    /** get_range_slices calls served since start. */
    long getRangeScanCount();

    long getTotalRangeScanLatencyMicros();
}
