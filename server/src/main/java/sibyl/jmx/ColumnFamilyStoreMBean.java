package sibyl.jmx;

/**
 * One column family's figures, under 0.6's object name
 * {@code org.apache.cassandra.db:type=ColumnFamilyStores,keyspace=KS,columnfamily=CF} and with
 * 0.6's attribute names, so monitoring written for 0.6 finds them where it looked.
 */
public interface ColumnFamilyStoreMBean {
    String getColumnFamilyName();

    /** Column operations in the current memtable. */
    long getMemtableColumnsCount();

    /** Serialized bytes written into the current memtable. */
    long getMemtableDataSize();

    long getReadCount();

    long getTotalReadLatencyMicros();

    /** Mean read latency since the previous query of this attribute; NaN when there were no reads. */
    double getRecentReadLatencyMicros();

    long getWriteCount();

    long getTotalWriteLatencyMicros();

    double getRecentWriteLatencyMicros();

    /** SSTables reads consult now. */
    int getLiveSSTableCount();

    /** Bytes of the live SSTables (data and index files). */
    long getLiveDiskSpaceUsed();

    /** Live bytes plus those of compacted SSTables still held open by reads. */
    long getTotalDiskSpaceUsed();

    /** Memtables switched out for flushing since start. */
    long getMemtableSwitchCount();

    /** Memtables switched out and not yet written. */
    int getPendingTasks();
}
