package sibyl.service;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import sibyl.config.ColumnFamilyConf;
import sibyl.config.KeyspaceConf;
import sibyl.config.StorageConf;
import sibyl.db.CFMetaData;
import sibyl.db.CacheConfig;
import sibyl.db.CacheSettings;
import sibyl.db.KSMetaData;
import sibyl.db.SystemKeyspace;
import sibyl.db.marshal.MarshalTypes;
import sibyl.io.FileAccess;

/** Maps the keyspaces of storage-conf.xml onto the db layer's metadata. */
public final class ConfiguredSchema {
    private ConfiguredSchema() {
    }

    /** The configured keyspaces in file order, followed by the implicit {@code system} keyspace. */
    public static List<KSMetaData> keyspaces(StorageConf conf) {
        List<KSMetaData> all = new ArrayList<>();
        for (KeyspaceConf ks : conf.keyspaces()) {
            List<CFMetaData> cfs = new ArrayList<>();
            for (ColumnFamilyConf cf : ks.columnFamilies()) {
                cfs.add(new CFMetaData(ks.name(), cf.name(), cf.isSuper(),
                        MarshalTypes.forName(cf.compareWith()),
                        cf.isSuper() ? MarshalTypes.forName(cf.compareSubcolumnsWith()) : null,
                        cf.comment()));
            }
            all.add(new KSMetaData(ks.name(), ks.replicationFactor(), cfs));
        }
        all.add(SystemKeyspace.metadata());
        return all;
    }

    /**
     * The caches of each configured column family: KeysCached and RowsCached (a fraction is of
     * the keys its SSTables hold), their save periods and PreloadRowCache; saved into
     * SavedCachesDirectory.
     */
    /** DiskAccessMode as the engine reads SSTables: auto is mmap on a 64-bit JVM, as in 0.6. */
    public static FileAccess fileAccess(StorageConf conf) {
        return switch (conf.diskAccessMode().resolvedForThisJvm()) {
            case MMAP -> FileAccess.MMAP;
            case MMAP_INDEX_ONLY -> FileAccess.MMAP_INDEX_ONLY;
            case STANDARD, AUTO -> FileAccess.STANDARD;
        };
    }

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
