package sibyl.jmx;

import sibyl.engine.ColumnFamilyStore;
import sibyl.service.ColumnFamilyRequests;

/**
 * The management view of one {@link ColumnFamilyStore}, with the requests the storage seam counted for
 * it: reads here are point reads and range scans together, as cfstats has always shown them.
 */
final class ColumnFamilyStoreStats implements ColumnFamilyStoreMBean {
    private final ColumnFamilyStore store;
    private final ColumnFamilyRequests requests;
    private final RecentLatency recentReads;
    private final RecentLatency recentWrites;

    ColumnFamilyStoreStats(ColumnFamilyStore store, ColumnFamilyRequests requests) {
        this.store = store;
        this.requests = requests;
        this.recentReads = new RecentLatency(requests.reads(), requests.rangeScans());
        this.recentWrites = new RecentLatency(requests.writes());
    }

    @Override
    public String getColumnFamilyName() {
        return store.metadata().name();
    }

    @Override
    public long getMemtableColumnsCount() {
        return store.memtable().operationCount();
    }

    @Override
    public long getMemtableDataSize() {
        return store.memtable().throughputBytes();
    }

    @Override
    public long getReadCount() {
        return requests.reads().count() + requests.rangeScans().count();
    }

    @Override
    public long getTotalReadLatencyMicros() {
        return (requests.reads().totalNanos() + requests.rangeScans().totalNanos()) / 1000;
    }

    @Override
    public double getRecentReadLatencyMicros() {
        return recentReads.sinceLastMicros();
    }

    @Override
    public long getWriteCount() {
        return requests.writes().count();
    }

    @Override
    public long getTotalWriteLatencyMicros() {
        return requests.writes().totalMicros();
    }

    @Override
    public double getRecentWriteLatencyMicros() {
        return recentWrites.sinceLastMicros();
    }

    @Override
    public int getLiveSSTableCount() {
        return store.liveSSTables().size();
    }

    @Override
    public long getLiveDiskSpaceUsed() {
        return store.liveDiskSpaceUsed();
    }

    @Override
    public long getTotalDiskSpaceUsed() {
        return store.totalDiskSpaceUsed();
    }

    @Override
    public long getMemtableSwitchCount() {
        return store.memtableSwitchCount();
    }

    @Override
    public int getPendingTasks() {
        return store.pendingFlushes().size();
    }

    @Override
    public long getBloomFilterFalsePositives() {
        return store.bloomFilterFalsePositives();
    }

    @Override
    public double getBloomFilterFalseRatio() {
        return store.bloomFilterFalseRatio();
    }

    @Override
    public int getKeyCacheCapacity() {
        return store.keyCache().capacity();
    }

    @Override
    public int getKeyCacheSize() {
        return store.keyCache().size();
    }

    @Override
    public double getKeyCacheHitRate() {
        return store.keyCache().hitRate();
    }

    @Override
    public int getRowCacheCapacity() {
        return store.rowCache().capacity();
    }

    @Override
    public int getRowCacheSize() {
        return store.rowCache().size();
    }

    @Override
    public double getRowCacheHitRate() {
        return store.rowCache().hitRate();
    }
}
