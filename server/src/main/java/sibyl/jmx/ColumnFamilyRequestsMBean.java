package sibyl.jmx;

/**
 * One column family's requests, under 0.6's object name
 * {@code org.apache.cassandra.db:type=ColumnFamilyStores,keyspace=KS,columnfamily=CF} and with its
 * attribute names: the reads and writes this node served, timed at the storage seam. The whole bean of a
 * node in cluster mode; the embedded engine's ({@link ColumnFamilyStoreMBean}) adds the store's own figures
 * (memtables, SSTables, caches), which in cluster mode are the cluster's.
 */
public interface ColumnFamilyRequestsMBean {
    String getColumnFamilyName();

    /** Reads served since start: get, get_slice and get_count (one per key of a multiget) and range slices. */
    long getReadCount();

    long getTotalReadLatencyMicros();

    /** Mean read latency since the previous query of this attribute; NaN when there were no reads. */
    double getRecentReadLatencyMicros();

    /**
     * Row mutations written to this column family since start; their latency is the whole write at this node
     * (commit log included), or until the cluster acknowledged it.
     */
    long getWriteCount();

    long getTotalWriteLatencyMicros();

    double getRecentWriteLatencyMicros();
}
