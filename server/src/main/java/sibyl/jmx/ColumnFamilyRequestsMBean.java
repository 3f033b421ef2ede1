package sibyl.jmx;

/**
 * One column family's requests in cluster mode, under 0.6's object name
 * {@code org.apache.cassandra.db:type=ColumnFamilyStores,keyspace=KS,columnfamily=CF} and with its
 * attribute names: the reads and writes this node served, timed at the storage seam. The store's
 * own figures (memtables, SSTables, caches) are the cluster's, so a node in cluster mode has none.
 */
public interface ColumnFamilyRequestsMBean {
    String getColumnFamilyName();

    /** Reads served since start: get, get_slice and get_count (one per key of a multiget) and range slices. */
    long getReadCount();

    long getTotalReadLatencyMicros();

    /** Mean read latency since the previous query of this attribute; NaN when there were no reads. */
    double getRecentReadLatencyMicros();

    /** Row mutations written to this column family since start; latency until the cluster acknowledged them. */
    long getWriteCount();

    long getTotalWriteLatencyMicros();

    double getRecentWriteLatencyMicros();
}
