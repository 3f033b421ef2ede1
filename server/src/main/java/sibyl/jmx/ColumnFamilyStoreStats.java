package sibyl.jmx;

import sibyl.engine.ColumnFamilyStore;
import sibyl.service.ColumnFamilyRequests;

/**
 * The management view of one {@link ColumnFamilyStore}: the requests the storage seam counted for it, and the
 * store's own figures.
 */
final class ColumnFamilyStoreStats extends ColumnFamilyRequestsStats implements ColumnFamilyStoreMBean {
    private final ColumnFamilyStore store;

    ColumnFamilyStoreStats(ColumnFamilyStore store, ColumnFamilyRequests requests) {
        super(requests);
        this.store = store;
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
