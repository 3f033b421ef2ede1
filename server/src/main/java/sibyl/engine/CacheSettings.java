package sibyl.engine;

import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Function;
import sibyl.db.CFMetaData;

/**
 * The caches of every column family, and where their saved copies live. Immutable.
 *
 * @param savedCachesDirectory SavedCachesDirectory; null when caches are neither saved nor loaded
 * @param columnFamilies       each column family's caches; null or {@link CacheConfig#NONE} for none
 */
public record CacheSettings(Path savedCachesDirectory, Function<CFMetaData, CacheConfig> columnFamilies) {
    /** No caches anywhere. */
    public static final CacheSettings NONE = new CacheSettings(null, cf -> CacheConfig.NONE);

    public CacheSettings {
        Objects.requireNonNull(columnFamilies, "columnFamilies");
    }

    /** The same caches for every column family, never saved. */
    public static CacheSettings everywhere(CacheConfig config) {
        return new CacheSettings(null, cf -> config);
    }

    public CacheConfig of(CFMetaData columnFamily) {
        CacheConfig config = columnFamilies.apply(columnFamily);
        return config == null ? CacheConfig.NONE : config;
    }

    public CacheSettings withSavedCachesDirectory(Path directory) {
        return new CacheSettings(directory, columnFamilies);
    }
}
