package sibyl.config;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reads one {@code <ColumnFamily>}: each attribute {@link ColumnFamilySettings} declares, in its
 * order, with KeysCachedFraction (0.6's deprecated spelling of KeysCached) and Comment as a child
 * element as well as an attribute.
 */
final class ColumnFamilyReader {
    private static final Set<String> ATTRIBUTES = Stream.concat(
            ColumnFamilySettings.ALL.stream().map(ColumnFamilyAttribute::name),
            Stream.of(ColumnFamilySettings.KEYS_CACHED_FRACTION)).collect(Collectors.toUnmodifiableSet());

    ColumnFamilyConf read(ConfigNode node) throws ConfigurationException {
        if (node.hasAttribute("ColumnSort")) {
            throw node.error("@ColumnSort", "ColumnSort is no longer an accepted attribute; use CompareWith");
        }
        node.warnUnknown(Set.of("Comment"), ATTRIBUTES);

        Map<ColumnFamilyAttribute<?>, Object> read = new HashMap<>();
        for (ColumnFamilyAttribute<?> attribute : ColumnFamilySettings.ALL) {
            read.put(attribute, attribute.read(node, read));
        }
        return new ColumnFamilyConf(
                get(read, ColumnFamilySettings.NAME),
                get(read, ColumnFamilySettings.COLUMN_TYPE),
                get(read, ColumnFamilySettings.COMPARE_WITH),
                get(read, ColumnFamilySettings.COMPARE_SUBCOLUMNS_WITH),
                get(read, ColumnFamilySettings.COMMENT),
                get(read, ColumnFamilySettings.KEYS_CACHED),
                get(read, ColumnFamilySettings.ROWS_CACHED),
                get(read, ColumnFamilySettings.ROW_CACHE_SAVE_PERIOD_IN_SECONDS),
                get(read, ColumnFamilySettings.KEY_CACHE_SAVE_PERIOD_IN_SECONDS),
                get(read, ColumnFamilySettings.GC_GRACE_SECONDS),
                get(read, ColumnFamilySettings.READ_REPAIR_CHANCE),
                get(read, ColumnFamilySettings.PRELOAD_ROW_CACHE));
    }

    private static <T> T get(Map<ColumnFamilyAttribute<?>, Object> read, ColumnFamilyAttribute<T> attribute) {
        return ColumnFamilySettings.get(read, attribute);
    }
}
