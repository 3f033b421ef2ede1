package sibyl.jmx;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import sibyl.cluster.ClusterRing;
import sibyl.cluster.ClusterStorageService;
import sibyl.db.KSMetaData;
import sibyl.db.SystemKeyspace;
import sibyl.service.ColumnFamilyRequests;
import sibyl.service.RequestMetrics;

/** The management view of a node in cluster mode: what it knows, and plain refusals of what it does not do. */
final class ClusterStorageServiceStats implements ClusterStorageServiceMBean {
    private final String clusterName;
    private final String endpoint;
    private final ClusterStorageService storage;
    private final RequestMetrics requests;

    ClusterStorageServiceStats(String clusterName, String endpoint, ClusterStorageService storage,
                               RequestMetrics requests) {
        this.clusterName = clusterName;
        this.endpoint = endpoint;
        this.storage = storage;
        this.requests = requests;
    }

    @Override
    public String getClusterName() {
        return clusterName;
    }

    /** None: the cluster's nodes hold the tokens ({@link #getTokenToEndpointMap}). */
    @Override
    public String getToken() {
        return "";
    }

    @Override
    public String getEndpoint() {
        return endpoint;
    }

    /** Nothing: the node keeps no data. */
    @Override
    public long getLoad() {
        return 0;
    }

    /** The cluster's ring: each of its tokens, as the cluster writes it, to the CQL address of the node holding it. */
    @Override
    public Map<String, String> getTokenToEndpointMap() {
        Map<String, String> ring = new LinkedHashMap<>();
        for (ClusterRing.Entry e : storage.ring().tokens()) ring.put(e.token(), e.address());
        return ring;
    }

    @Override
    public List<String> getKeyspaces() {
        List<String> names = new ArrayList<>();
        for (KSMetaData ks : storage.schema().keyspaces()) if (!ks.name().equals(SystemKeyspace.NAME)) names.add(ks.name());
        return names;
    }

    @Override
    public String getStorageCluster() {
        Map<String, Boolean> nodes = storage.clusterNodes();
        long up = nodes.values().stream().filter(b -> b).count();
        return "Apache Cassandra cluster '" + storage.clusterName() + "' (" + storage.ring().partitioner() + "), "
                + up + " of " + nodes.size() + " node" + (nodes.size() == 1 ? "" : "s") + " up, through "
                + storage.contactPoints();
    }

    @Override
    public List<String> getLiveNodes() {
        return nodes(true);
    }

    @Override
    public List<String> getUnreachableNodes() {
        return nodes(false);
    }

    private List<String> nodes(boolean up) {
        List<String> found = new ArrayList<>();
        storage.clusterNodes().forEach((address, isUp) -> {
            if (isUp == up) found.add(address);
        });
        return found;
    }

    @Override
    public long getReadCount() {
        return sum(r -> r.reads().count());
    }

    @Override
    public long getTotalReadLatencyMicros() {
        return sum(r -> r.reads().totalNanos()) / 1000;
    }

    @Override
    public long getWriteCount() {
        return sum(r -> r.writes().count());
    }

    @Override
    public long getTotalWriteLatencyMicros() {
        return sum(r -> r.writes().totalNanos()) / 1000;
    }

    @Override
    public long getRangeScanCount() {
        return sum(r -> r.rangeScans().count());
    }

    @Override
    public long getTotalRangeScanLatencyMicros() {
        return sum(r -> r.rangeScans().totalNanos()) / 1000;
    }

    private long sum(ToLongFunction<ColumnFamilyRequests> figure) {
        long total = 0;
        for (ColumnFamilyRequests r : requests.all()) total += figure.applyAsLong(r);
        return total;
    }

    // ---- the storage operations: the cluster's, not this node's

    @Override
    public void forceTableFlush(String keyspace, String... columnFamilies) {
        throw refused("flush", "flush its memtables with its own nodetool flush, on each of its nodes");
    }

    @Override
    public void forceTableFlushWithin(long timeoutSeconds, String keyspace, String... columnFamilies) {
        forceTableFlush(keyspace, columnFamilies);
    }

    @Override
    public void forceTableCompaction(String keyspace) {
        throw refused("compact", "it compacts its SSTables itself; its own nodetool compact forces a major compaction");
    }

    @Override
    public int loadNewSSTables(String keyspace, String columnFamily) {
        throw refused("refresh", "load SSTables into it with its own nodetool import");
    }

    @Override
    public void drain() {
        throw refused("drain", "to stop this node send it SIGTERM; a Cassandra node is drained with its own"
                + " nodetool drain");
    }

    @Override
    public void drainWithin(long timeoutSeconds) {
        drain();
    }

    @Override
    public List<String> takeAllSnapshot(String tag) {
        throw refused("snapshot", "take snapshots with its own nodetool snapshot, on each of its nodes");
    }

    @Override
    public List<String> takeAllSnapshotWithin(long timeoutSeconds, String tag) {
        return takeAllSnapshot(tag);
    }

    @Override
    public List<String> clearSnapshot() {
        return clearSnapshot(null);
    }

    @Override
    public List<String> clearSnapshot(String tag) {
        throw refused("clearsnapshot", "its snapshots are cleared with its own nodetool clearsnapshot");
    }

    @Override
    public List<String> scrub(String keyspace, String... columnFamilies) {
        throw refused("scrub", "its own nodetool scrub rewrites its SSTables");
    }

    @Override
    public List<String> upgradeSSTables(String keyspace, String... columnFamilies) {
        throw refused("upgradesstables", "there are no Cassandra 0.6 SSTables to rewrite here");
    }

    /** JMX hands the client this JDK exception as it is; nodetool prints its message as its one line. */
    private UnsupportedOperationException refused(String command, String instead) {
        return new UnsupportedOperationException(command + " does not apply in cluster mode: this node keeps no data,"
                + " the Apache Cassandra cluster at " + storage.contactPoints() + " owns the storage; " + instead);
    }
}
