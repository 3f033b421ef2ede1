package sibyl.engine;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import sibyl.config.ColumnFamilyConf;
import sibyl.config.KeyspaceConf;
import sibyl.config.StorageConf;
import sibyl.io.FileAccess;

/** The engine's settings that storage-conf.xml gives per column family or as DiskAccessMode. */
public final class ConfiguredEngine {
    private ConfiguredEngine() {
    }

    /** DiskAccessMode as the engine reads SSTables: auto is mmap on a 64-bit JVM, as in 0.6. */
    public static FileAccess fileAccess(StorageConf conf) {
        return switch (conf.diskAccessMode().resolvedForThisJvm()) {
            case MMAP -> FileAccess.MMAP;
            case MMAP_INDEX_ONLY -> FileAccess.MMAP_INDEX_ONLY;
            case STANDARD, AUTO -> FileAccess.STANDARD;
        };
    }

    /**
     * The caches of each configured column family: KeysCached and RowsCached (a fraction is of
     * the keys its SSTables hold), their save periods and PreloadRowCache; saved into
     * SavedCachesDirectory.
     */
    public static CacheSettings caches(StorageConf conf) {
        Map<String, CacheConfig> configs = new HashMap<>();
        for (KeyspaceConf ks : conf.keyspaces()) {
            for (ColumnFamilyConf cf : ks.columnFamilies()) {
                CacheConfig config = CacheConfig.sized(cf.keysCached()::entriesFor, cf.rowsCached()::entriesFor)
                        .savedEvery(Duration.ofSeconds(cf.keyCacheSavePeriodInSeconds()),
                                Duration.ofSeconds(cf.rowCacheSavePeriodInSeconds()))
                        .withPreloadRows(cf.preloadRowCache());
                configs.put(ks.name() + "/" + cf.name(), config);
            }
        }
        return new CacheSettings(conf.savedCachesDirectory(), cf -> configs.get(cf.keyspace() + "/" + cf.name()));
    }
}
