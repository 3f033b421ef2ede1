package sibyl.db;

/**
 * How many entries a cache keeps, as KeysCached and RowsCached give it: a number, or a fraction
 * of the column family's keys, which grows and shrinks with them.
 */
@FunctionalInterface
public interface CacheCapacity {
    /** No cache. */
    CacheCapacity NONE = keys -> 0;

    /** @param keys the rows in the column family's SSTables now */
    long entriesFor(long keys);

    /** A fixed number of entries. */
    static CacheCapacity entries(long entries) {
        if (entries < 0) throw new IllegalArgumentException("a cache capacity cannot be negative: " + entries);
        return keys -> entries;
    }
}
