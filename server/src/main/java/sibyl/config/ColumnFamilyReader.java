package sibyl.config;

import java.util.Set;

/**
 * Reads one {@code <ColumnFamily>}: each attribute {@link ColumnFamilySettings} declares, in its
 * order, with KeysCachedFraction (0.6's deprecated spelling of KeysCached) and Comment as an
 * attribute as well as a child element.
 */
final class ColumnFamilyReader {
    private static final Set<String> ALSO_ATTRIBUTES = Set.of(ColumnFamilySettings.KEYS_CACHED_FRACTION,
            ColumnFamilySettings.COMMENT.name());

    private ColumnFamilyReader() {
    }

    static ColumnFamilyConf read(ConfigNode node, StorageConf.Builder global) throws ConfigurationException {
        if (node.hasAttribute("ColumnSort")) {
            throw node.error("@ColumnSort", "ColumnSort is no longer an accepted attribute; use CompareWith");
        }
        ChildValues read = ChildValues.read(ColumnFamilySettings.ALL, node, ALSO_ATTRIBUTES, global);
        return new ColumnFamilyConf(
                read.get(ColumnFamilySettings.NAME),
                read.get(ColumnFamilySettings.COLUMN_TYPE),
                read.get(ColumnFamilySettings.COMPARE_WITH),
                read.get(ColumnFamilySettings.COMPARE_SUBCOLUMNS_WITH),
                read.get(ColumnFamilySettings.COMMENT),
                read.get(ColumnFamilySettings.KEYS_CACHED),
                read.get(ColumnFamilySettings.ROWS_CACHED),
                read.get(ColumnFamilySettings.ROW_CACHE_SAVE_PERIOD_IN_SECONDS),
                read.get(ColumnFamilySettings.KEY_CACHE_SAVE_PERIOD_IN_SECONDS),
                read.get(ColumnFamilySettings.GC_GRACE_SECONDS),
                read.get(ColumnFamilySettings.READ_REPAIR_CHANCE),
                read.get(ColumnFamilySettings.PRELOAD_ROW_CACHE),
                new ValidationConf(read.get(ColumnFamilySettings.KEY_VALIDATION_CLASS),
                        read.get(ColumnFamilySettings.DEFAULT_VALIDATION_CLASS),
                        read.get(ColumnFamilySettings.COLUMN_METADATA), read.get(ColumnFamilySettings.COLUMN_INDEXES)),
                read.get(ColumnFamilySettings.DEFAULT_TIME_TO_LIVE));
    }
}
