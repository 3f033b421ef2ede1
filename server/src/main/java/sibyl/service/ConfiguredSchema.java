package sibyl.service;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import sibyl.config.ColumnFamilyConf;
import sibyl.config.KeyspaceConf;
import sibyl.config.StorageConf;
import sibyl.db.CFMetaData;
import sibyl.db.CacheConfig;
import sibyl.db.KSMetaData;
import sibyl.db.SystemKeyspace;
import sibyl.db.marshal.MarshalTypes;

/**
 * Maps the keyspaces of storage-conf.xml onto the data model's metadata, with each column
 * family's own settings (caches, GCGraceSeconds), for whichever backend stores them.
 */
public final class ConfiguredSchema {
    private ConfiguredSchema() {
    }

    /** The configured keyspaces in file order, followed by the implicit {@code system} keyspace. */
    public static List<KSMetaData> keyspaces(StorageConf conf) {
        List<KSMetaData> all = new ArrayList<>();
        for (KeyspaceConf ks : conf.keyspaces()) {
            List<CFMetaData> cfs = new ArrayList<>();
            for (ColumnFamilyConf cf : ks.columnFamilies()) {
                CFMetaData metadata = new CFMetaData(ks.name(), cf.name(), cf.isSuper(),
                        MarshalTypes.forName(cf.compareWith()),
                        cf.isSuper() ? MarshalTypes.forName(cf.compareSubcolumnsWith()) : null,
                        cf.comment()).withCaches(caches(cf)).withDefaultTimeToLive(cf.defaultTimeToLive());
                cfs.add(cf.gcGraceSeconds() == null ? metadata : metadata.withGcGraceSeconds(cf.gcGraceSeconds()));
            }
            all.add(new KSMetaData(ks.name(), ks.replicationFactor(), cfs));
        }
        all.add(SystemKeyspace.metadata());
        return all;
    }

    /**
     * KeysCached and RowsCached (a fraction is of the keys the column family's SSTables hold),
     * their save periods into SavedCachesDirectory, and PreloadRowCache.
     */
    private static CacheConfig caches(ColumnFamilyConf cf) {
        return CacheConfig.sized(cf.keysCached()::entriesFor, cf.rowsCached()::entriesFor)
                .savedEvery(Duration.ofSeconds(cf.keyCacheSavePeriodInSeconds()),
                        Duration.ofSeconds(cf.rowCacheSavePeriodInSeconds()))
                .withPreloadRows(cf.preloadRowCache());
    }
}
