package sibyl.db;

/**
 * How many rows each column family's row cache holds (RowsCached), decided once its SSTables are
 * open, since a size given as a fraction is a fraction of the keys it holds.
 */
@FunctionalInterface
public interface CacheCapacities {
    /** No row caches. */
    CacheCapacities NONE = (cf, keys) -> 0;

    /**
     * @param estimatedKeys the rows in the column family's SSTables at start-up
     * @return rows to cache; 0 for no cache
     */
    int rowCacheCapacity(CFMetaData columnFamily, long estimatedKeys);
}
