package sibyl.config;

import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one {@code <ColumnFamily>}: the 0.6 attributes, plus the per-CF ones 0.7's XML files
 * carry (GCGraceSeconds, ReadRepairChance, PreloadRowCache) and a Comment attribute as well as
 * the {@code <Comment>} child element.
 */
final class ColumnFamilyReader {
    private static final Logger log = LoggerFactory.getLogger(StorageConfLoader.class);

    private static final Set<String> ATTRIBUTES = Set.of(
            "Name", "ColumnType", "CompareWith", "CompareSubcolumnsWith", "Comment",
            "KeysCached", "KeysCachedFraction", "RowsCached",
            "RowCacheSavePeriodInSeconds", "KeyCacheSavePeriodInSeconds",
            "GCGraceSeconds", "ReadRepairChance", "PreloadRowCache");

    ColumnFamilyConf read(ConfigNode node) throws ConfigurationException {
        if (node.hasAttribute("ColumnSort")) {
            throw node.error("@ColumnSort", "ColumnSort is no longer an accepted attribute; use CompareWith");
        }
        node.warnUnknown(Set.of("Comment"), ATTRIBUTES);

        ConfigValue name = node.attribute("Name")
                .orElseThrow(() -> node.error("@Name", "required attribute is missing"));
        if (name.text().contains("-")) {
            throw name.error("a column family name may not contain '-': '" + name.text() + "'");
        }
        ColumnType type = ColumnType.STANDARD;
        Optional<ConfigValue> typeValue = node.attribute("ColumnType");
        if (typeValue.isPresent()) {
            type = ColumnType.fromWireName(typeValue.get().text()).orElseThrow(() -> typeValue.get().error(
                    "unknown column type '" + typeValue.get().text() + "'; expected Standard or Super"));
        }
        String compareWith = comparator(node.attribute("CompareWith"));
        Optional<ConfigValue> subcolumns = node.attribute("CompareSubcolumnsWith");
        String compareSubcolumnsWith = null;
        if (type == ColumnType.SUPER) {
            compareSubcolumnsWith = comparator(subcolumns);
        } else if (subcolumns.isPresent()) {
            throw subcolumns.get().error("only a Super column family has subcolumns; remove "
                    + "CompareSubcolumnsWith or set ColumnType=\"Super\"");
        }
        Integer gcGraceSeconds = null;
        Optional<ConfigValue> gcGrace = node.attribute("GCGraceSeconds");
        if (gcGrace.isPresent()) {
            gcGraceSeconds = gcGrace.get().asInt(0, Integer.MAX_VALUE);
        }
        Double readRepairChance = null;
        Optional<ConfigValue> readRepair = node.attribute("ReadRepairChance");
        if (readRepair.isPresent()) {
            readRepairChance = readRepair.get().asFraction();
        }
        Optional<ConfigValue> preload = node.attribute("PreloadRowCache");
        boolean preloadRowCache = preload.isPresent() && preload.get().asBoolean();

        return new ColumnFamilyConf(
                name.text(),
                type,
                compareWith,
                compareSubcolumnsWith,
                comment(node),
                keysCached(node),
                cacheSize(node.attribute("RowsCached"), ColumnFamilyConf.DEFAULT_ROWS_CACHED),
                savePeriod(node.attribute("RowCacheSavePeriodInSeconds")),
                savePeriod(node.attribute("KeyCacheSavePeriodInSeconds")),
                gcGraceSeconds,
                readRepairChance,
                preloadRowCache);
    }

    /** Absent means BytesType, as in 0.6. */
    private static String comparator(Optional<ConfigValue> value) throws ConfigurationException {
        if (value.isEmpty()) {
            return ClassNames.BYTES_TYPE;
        }
        String text = value.get().text();
        return ClassNames.comparator(text).orElseThrow(() -> value.get().error("unknown comparator '" + text
                + "'; Sibyl supports " + ClassNames.shortNames(ClassNames.COMPARATORS)));
    }

    /** The child element wins over the attribute when both are given. */
    private static String comment(ConfigNode node) {
        Optional<ConfigValue> element = node.value("Comment");
        Optional<ConfigValue> attribute = node.attribute("Comment");
        if (element.isPresent() && attribute.isPresent()) {
            log.warn("{}: {} has both a Comment element and a Comment attribute; the element is used",
                    node.file(), node.path());
        }
        return element.or(() -> attribute).map(ConfigValue::text).orElse(null);
    }

    private static CacheSize keysCached(ConfigNode node) throws ConfigurationException {
        Optional<ConfigValue> keysCached = node.attribute("KeysCached");
        Optional<ConfigValue> fraction = node.attribute("KeysCachedFraction");
        if (fraction.isPresent()) {
            log.warn("{}: {} is deprecated; use KeysCached, which also takes a fraction or a percentage{}",
                    node.file(), fraction.get().path(),
                    keysCached.isPresent() ? " (KeysCached is given too and is used)" : "");
        }
        return cacheSize(keysCached.or(() -> fraction), ColumnFamilyConf.DEFAULT_KEYS_CACHED);
    }

    private static CacheSize cacheSize(Optional<ConfigValue> value, CacheSize absent)
            throws ConfigurationException {
        if (value.isEmpty()) {
            return absent;
        }
        try {
            return CacheSize.parse(value.get().text());
        } catch (IllegalArgumentException e) {
            throw value.get().error(e.getMessage());
        }
    }

    /** Seconds between saves of a cache; 0 or less means never, as 0.6 saved only for a positive period. */
    private static int savePeriod(Optional<ConfigValue> value) throws ConfigurationException {
        return value.isPresent() ? Math.max(0, value.get().asInt(Integer.MIN_VALUE, Integer.MAX_VALUE)) : 0;
    }
}
