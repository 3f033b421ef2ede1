package sibyl.config;

import java.util.Objects;

/**
 * One {@code <ColumnFamily>} of a keyspace, with defaults applied: a value for each attribute
 * {@link ColumnFamilySettings} declares.
 *
 * @param name the CF name (never contains {@code -})
 * @param type Standard or Super
 * @param compareWith full comparator class name ({@code org.apache.cassandra.db.marshal.X}) for
 *     column names, or super column names in a Super CF
 * @param compareSubcolumnsWith full comparator class name for subcolumn names of a Super CF;
 *     null for a Standard CF
 * @param comment free text from the {@code <Comment>} child element or the {@code Comment}
 *     attribute; null when neither is given
 * @param keysCached key cache size (default 200000 entries)
 * @param rowsCached row cache size (default none)
 * @param rowCacheSavePeriodInSeconds how often the row cache's keys are saved; 0 = never. Stored
 *     as written: 0.6 swapped this with the key cache period, Sibyl does not
 * @param keyCacheSavePeriodInSeconds how often the key cache is saved; 0 = never
 * @param gcGraceSeconds this CF's tombstone grace period, or null to use the global GCGraceSeconds
 * @param readRepairChance probability (0..1) of a read repair, or null when not given
 * @param preloadRowCache whether the row cache is filled from disk at start-up
 * @param validation the types of keys and values the 0.7+ dialect checks writes against
 * @param defaultTimeToLive seconds a column written without a ttl lives (0.7+ clients; 0 = it does not expire)
 */
public record ColumnFamilyConf(
        String name,
        ColumnType type,
        String compareWith,
        String compareSubcolumnsWith,
        String comment,
        CacheSize keysCached,
        CacheSize rowsCached,
        int rowCacheSavePeriodInSeconds,
        int keyCacheSavePeriodInSeconds,
        Integer gcGraceSeconds,
        Double readRepairChance,
        boolean preloadRowCache,
        ValidationConf validation,
        int defaultTimeToLive) {

    /** KeysCached when absent ({@link ColumnFamilySettings#KEYS_CACHED}). */
    public static final CacheSize DEFAULT_KEYS_CACHED = CacheSize.parse(ColumnFamilySettings.KEYS_CACHED_ABSENT);
    /** RowsCached when absent ({@link ColumnFamilySettings#ROWS_CACHED}). */
    public static final CacheSize DEFAULT_ROWS_CACHED = CacheSize.parse(ColumnFamilySettings.ROWS_CACHED_ABSENT);

    public ColumnFamilyConf {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(compareWith, "compareWith");
        Objects.requireNonNull(keysCached, "keysCached");
        Objects.requireNonNull(rowsCached, "rowsCached");
        Objects.requireNonNull(validation, "validation");
        if ((type == ColumnType.SUPER) != (compareSubcolumnsWith != null)) {
            throw new IllegalArgumentException(
                    "compareSubcolumnsWith is given exactly for Super column families: " + name);
        }
    }

    /** A column family whose keys and values are bytes, nothing checked, and whose columns do not expire. */
    public ColumnFamilyConf(String name, ColumnType type, String compareWith, String compareSubcolumnsWith,
                            String comment, CacheSize keysCached, CacheSize rowsCached, int rowCacheSavePeriodInSeconds,
                            int keyCacheSavePeriodInSeconds, Integer gcGraceSeconds, Double readRepairChance,
                            boolean preloadRowCache) {
        this(name, type, compareWith, compareSubcolumnsWith, comment, keysCached, rowsCached,
                rowCacheSavePeriodInSeconds, keyCacheSavePeriodInSeconds, gcGraceSeconds, readRepairChance,
                preloadRowCache, ValidationConf.NONE, 0);
    }

    /** A column family whose keys and values are bytes, nothing checked. */
    public ColumnFamilyConf(String name, ColumnType type, String compareWith, String compareSubcolumnsWith,
                            String comment, CacheSize keysCached, CacheSize rowsCached, int rowCacheSavePeriodInSeconds,
                            int keyCacheSavePeriodInSeconds, Integer gcGraceSeconds, Double readRepairChance,
                            boolean preloadRowCache, int defaultTimeToLive) {
        this(name, type, compareWith, compareSubcolumnsWith, comment, keysCached, rowsCached,
                rowCacheSavePeriodInSeconds, keyCacheSavePeriodInSeconds, gcGraceSeconds, readRepairChance,
                preloadRowCache, ValidationConf.NONE, defaultTimeToLive);
    }

    public boolean isSuper() {
        return type == ColumnType.SUPER;
    }
}
