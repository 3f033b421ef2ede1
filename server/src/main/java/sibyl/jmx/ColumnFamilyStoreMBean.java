package sibyl.jmx;

/**
 * One column family's figures, under 0.6's object name
 * {@code org.apache.cassandra.db:type=ColumnFamilyStores,keyspace=KS,columnfamily=CF} and with
 * 0.6's attribute names, so monitoring written for 0.6 finds them where it looked: the requests served
 * ({@link ColumnFamilyRequestsMBean}) and the store's own figures.
 */
public interface ColumnFamilyStoreMBean extends ColumnFamilyRequestsMBean {
    /** Column operations in the current memtable. */
    long getMemtableColumnsCount();

    /** Serialized bytes written into the current memtable. */
    long getMemtableDataSize();

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

    /** SSTable reads its key range and bloom filter let through that found no row. */
    long getBloomFilterFalsePositives();

    /** Those false positives as a fraction of all reads the filters let through. */
    double getBloomFilterFalseRatio();

    /** Keys the key cache (KeysCached) holds at most; 0 when it is off. */
    int getKeyCacheCapacity();

    int getKeyCacheSize();

    /** Key cache hits as a fraction of the lookups of SSTables whose bloom filter let the key through; NaN before any. */
    double getKeyCacheHitRate();

    /** Rows the row cache (RowsCached) holds at most; 0 when it is off. */
    int getRowCacheCapacity();

    int getRowCacheSize();

    /** Row cache hits as a fraction of lookups; NaN before any. */
    double getRowCacheHitRate();
}
