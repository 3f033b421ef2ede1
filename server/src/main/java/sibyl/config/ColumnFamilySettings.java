package sibyl.config;

import static sibyl.config.Setting.Absent.unset;
import static sibyl.config.Setting.Absent.value;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import sibyl.config.ChildSetting.OnChange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every setting of a {@code <ColumnFamily>}, each declared once ({@link ChildSetting}):
 * the 0.6 attributes, plus the per column family ones 0.7's XML files carry (GCGraceSeconds,
 * ReadRepairChance, PreloadRowCache) and Comment as a child element or an attribute. Listed in
 * the order they are read and a reload reports their changes. docs/configuration.md §Column
 * families documents them, and a test holds the two together.
 */
public final class ColumnFamilySettings {
    /** Warnings go to the loader's logger: that is where a user (and a test) looks for them. */
    private static final Logger log = LoggerFactory.getLogger(StorageConfLoader.class);

    private static final String COLUMN_TYPE_FIXED = "a column family keeps the type its rows are stored in;"
            + " add a column family of another name instead";
    /** 0.6's deprecated spelling of KeysCached, read with it. */
    static final String KEYS_CACHED_FRACTION = "KeysCachedFraction";
    /** The cache sizes when absent, also {@link ColumnFamilyConf}'s defaults. */
    static final String KEYS_CACHED_ABSENT = "200000";
    static final String ROWS_CACHED_ABSENT = "0";
    private static final String VALIDATION_AT_START = "the types writes are checked against are read when the node"
            + " starts";
    private static final String COMPARATOR_FIXED = "stored names are sorted by the comparator, so it cannot change"
            + " under them; add a column family of another name instead";

    public static final ChildSetting<ColumnFamilyConf, String> NAME = ChildSetting.key("Name", (node, earlier) -> {
        ConfigValue name = node.attribute("Name").orElseThrow(() -> node.error("@Name", "required attribute is missing"));
        if (name.text().contains("-")) {
            throw name.error("a column family name may not contain '-': '" + name.text() + "'");
        }
        return name.text();
    }, ColumnFamilyConf::name);
    public static final ChildSetting<ColumnFamilyConf, ColumnType> COLUMN_TYPE = ChildSetting.attribute("ColumnType",
            value("Standard"), OnChange.refused(COLUMN_TYPE_FIXED), (node, earlier) -> {
                Optional<ConfigValue> type = node.attribute("ColumnType");
                if (type.isEmpty()) return ColumnType.STANDARD;
                return ColumnType.fromWireName(type.get().text()).orElseThrow(() -> type.get().error(
                        "unknown column type '" + type.get().text() + "'; expected Standard or Super"));
            }, ColumnFamilyConf::type).shownAs(ColumnType::wireName);
    public static final ChildSetting<ColumnFamilyConf, String> COMPARE_WITH = ChildSetting.attribute("CompareWith",
            value("BytesType"), OnChange.refused(COMPARATOR_FIXED),
            (node, earlier) -> comparator(node.attribute("CompareWith")), ColumnFamilyConf::compareWith)
            .shownAs(ClassNames::shortName);
    /** Super column families only; null for a standard one. */
    public static final ChildSetting<ColumnFamilyConf, String> COMPARE_SUBCOLUMNS_WITH = ChildSetting.attribute(
            "CompareSubcolumnsWith", value("BytesType"), OnChange.refused(COMPARATOR_FIXED), (node, earlier) -> {
                Optional<ConfigValue> subcolumns = node.attribute("CompareSubcolumnsWith");
                if (earlier.get(COLUMN_TYPE) == ColumnType.SUPER) {
                    return comparator(subcolumns);
                }
                if (subcolumns.isPresent()) {
                    throw subcolumns.get().error("only a Super column family has subcolumns; remove "
                            + "CompareSubcolumnsWith or set ColumnType=\"Super\"");
                }
                return null;
            }, ColumnFamilyConf::compareSubcolumnsWith).shownAs(ClassNames::shortName);
    /** The child element wins over the attribute when both are given. */
    public static final ChildSetting<ColumnFamilyConf, String> COMMENT = ChildSetting.attribute("Comment", unset(),
            OnChange.live(""),
            (node, earlier) -> {
                Optional<ConfigValue> element = node.value("Comment");
                Optional<ConfigValue> attribute = node.attribute("Comment");
                if (element.isPresent() && attribute.isPresent()) {
                    log.warn("{}: {} has both a Comment element and a Comment attribute; the element is used",
                            node.file(), node.path());
                }
                return element.or(() -> attribute).map(ConfigValue::text).orElse(null);
            }, ColumnFamilyConf::comment).asElement()
            .describedAs((was, is) -> "changed (describe_keyspace shows the new text)");
    public static final ChildSetting<ColumnFamilyConf, CacheSize> KEYS_CACHED = ChildSetting.attribute("KeysCached",
            value(KEYS_CACHED_ABSENT), OnChange.live(""), (node, earlier) -> {
                Optional<ConfigValue> keysCached = node.attribute("KeysCached");
                Optional<ConfigValue> fraction = node.attribute(KEYS_CACHED_FRACTION);
                if (fraction.isPresent()) {
                    log.warn("{}: {} is deprecated; use KeysCached, which also takes a fraction or a percentage{}",
                            node.file(), fraction.get().path(),
                            keysCached.isPresent() ? " (KeysCached is given too and is used)" : "");
                }
                return cacheSize(keysCached.or(() -> fraction), KEYS_CACHED_ABSENT);
            }, ColumnFamilyConf::keysCached);
    public static final ChildSetting<ColumnFamilyConf, CacheSize> ROWS_CACHED = ChildSetting.attribute("RowsCached",
            value(ROWS_CACHED_ABSENT), OnChange.live(""),
            (node, earlier) -> cacheSize(node.attribute("RowsCached"), ROWS_CACHED_ABSENT),
            ColumnFamilyConf::rowsCached);
    public static final ChildSetting<ColumnFamilyConf, Integer> KEY_CACHE_SAVE_PERIOD_IN_SECONDS =
            ChildSetting.attribute("KeyCacheSavePeriodInSeconds", value("0"), OnChange.live(""),
            (node, earlier) -> savePeriod(node.attribute("KeyCacheSavePeriodInSeconds")),
            ColumnFamilyConf::keyCacheSavePeriodInSeconds);
    /** Stored as written: 0.6 swapped it with the key cache's period, Sibyl does not. */
    public static final ChildSetting<ColumnFamilyConf, Integer> ROW_CACHE_SAVE_PERIOD_IN_SECONDS =
            ChildSetting.attribute("RowCacheSavePeriodInSeconds", value("0"), OnChange.live(""),
            (node, earlier) -> savePeriod(node.attribute("RowCacheSavePeriodInSeconds")),
            ColumnFamilyConf::rowCacheSavePeriodInSeconds);
    /** Absent: the node's GCGraceSeconds. */
    public static final ChildSetting<ColumnFamilyConf, Integer> GC_GRACE_SECONDS = ChildSetting.attribute(
            "GCGraceSeconds", unset(), OnChange.live(""), (node, earlier) -> {
                Optional<ConfigValue> grace = node.attribute("GCGraceSeconds");
                return grace.isPresent() ? grace.get().asInt(0, Integer.MAX_VALUE) : null;
            }, ColumnFamilyConf::gcGraceSeconds);
    public static final ChildSetting<ColumnFamilyConf, Double> READ_REPAIR_CHANCE = ChildSetting.attribute(
            "ReadRepairChance", unset(), OnChange.live(" (no effect on one node)"), (node, earlier) -> {
                Optional<ConfigValue> chance = node.attribute("ReadRepairChance");
                return chance.isPresent() ? chance.get().asFraction() : null;
            }, ColumnFamilyConf::readRepairChance);
    public static final ChildSetting<ColumnFamilyConf, Boolean> PRELOAD_ROW_CACHE = ChildSetting.attribute(
            "PreloadRowCache", value("false"), OnChange.live(" (it fills the row cache at the next start)"),
            (node, earlier) -> {
                Optional<ConfigValue> preload = node.attribute("PreloadRowCache");
                return preload.isPresent() && preload.get().asBoolean();
            }, ColumnFamilyConf::preloadRowCache);

    /** 0.7's key_validation_class: what the 0.7+ dialect checks row keys against. */
    public static final ChildSetting<ColumnFamilyConf, String> KEY_VALIDATION_CLASS = ChildSetting.attribute(
            "KeyValidationClass", value("BytesType"), OnChange.restart(VALIDATION_AT_START),
            (node, earlier) -> type(node.attribute("KeyValidationClass")),
            (ColumnFamilyConf cf) -> cf.validation().keyValidationClass())
            .shownAs(ClassNames::shortName);
    /** 0.7's default_validation_class: what the 0.7+ dialect checks values against. */
    public static final ChildSetting<ColumnFamilyConf, String> DEFAULT_VALIDATION_CLASS = ChildSetting.attribute(
            "DefaultValidationClass", value("BytesType"), OnChange.restart(VALIDATION_AT_START),
            (node, earlier) -> type(node.attribute("DefaultValidationClass")),
            (ColumnFamilyConf cf) -> cf.validation().defaultValidationClass()).shownAs(ClassNames::shortName);
    /** 0.7's column_metadata: {@code <Column Name="email" ValidationClass="UTF8Type"/>} for each such column. */
    public static final ChildSetting<ColumnFamilyConf, Map<String, String>> COLUMN_METADATA = ChildSetting.element(
            "Column", unset(), OnChange.restart(VALIDATION_AT_START), ColumnFamilySettings::columns,
            (ColumnFamilyConf cf) -> cf.validation().columns());
    /**
     * 0.7's index_type and index_name of column_metadata: {@code <Column Name="state" ValidationClass="UTF8Type"
     * IndexType="KEYS" IndexName="by_state"/>} (docs/configuration.md §Column families).
     */
    public static final ChildSetting<ColumnFamilyConf, Map<String, String>> COLUMN_INDEXES = ChildSetting.element(
            "Column", unset(), OnChange.restart(VALIDATION_AT_START), ColumnFamilySettings::indexes,
            (ColumnFamilyConf cf) -> cf.validation().indexes());
    /** 20 years in seconds: the longest time to live 3.11 takes. */
    static final int MAX_TIME_TO_LIVE = 20 * 365 * 24 * 60 * 60;

    /**
     * 3.11's default_time_to_live: seconds a column a 0.7+ client inserts without a ttl lives (docs/semantics.md
     * §Expiring columns); 0, the default, for none. At most 20 years, as in 3.11.
     */
    public static final ChildSetting<ColumnFamilyConf, Integer> DEFAULT_TIME_TO_LIVE = ChildSetting.attribute(
            "DefaultTimeToLive", value("0"), OnChange.live(" (for writes from then on)"), (node, earlier) -> {
                Optional<ConfigValue> ttl = node.attribute("DefaultTimeToLive");
                return ttl.isPresent() ? ttl.get().asInt(0, MAX_TIME_TO_LIVE) : 0;
            }, ColumnFamilyConf::defaultTimeToLive);

    /** In the order they are read and compared. */
    public static final List<ChildSetting<ColumnFamilyConf, ?>> ALL = List.of(NAME, COLUMN_TYPE, COMPARE_WITH,
            COMPARE_SUBCOLUMNS_WITH, COMMENT, KEYS_CACHED, ROWS_CACHED, KEY_CACHE_SAVE_PERIOD_IN_SECONDS,
            ROW_CACHE_SAVE_PERIOD_IN_SECONDS, GC_GRACE_SECONDS, READ_REPAIR_CHANCE, PRELOAD_ROW_CACHE,
            KEY_VALIDATION_CLASS, DEFAULT_VALIDATION_CLASS, COLUMN_METADATA, COLUMN_INDEXES, DEFAULT_TIME_TO_LIVE);

    private ColumnFamilySettings() {
    }

    /**
     * A comparator: a type string ({@link ClassNames#type}) of a type that orders names; absent means BytesType, as
     * in 0.6.
     */
    private static String comparator(Optional<ConfigValue> value) throws ConfigurationException {
        String type = type(value, "comparator");
        if (type.endsWith("CounterColumnType")) {
            throw value.get().error("CounterColumnType validates counter values and orders no names");
        }
        return type;
    }

    private static String type(Optional<ConfigValue> value) throws ConfigurationException {
        return type(value, "type");
    }

    private static String type(Optional<ConfigValue> value, String what) throws ConfigurationException {
        if (value.isEmpty()) {
            return ClassNames.BYTES_TYPE;
        }
        String text = value.get().text();
        return ClassNames.type(text).orElseThrow(() -> value.get().error("unknown " + what + " '" + text
                + "'; Sibyl supports " + ClassNames.shortNames(ClassNames.TYPES) + " and "
                + ClassNames.shortNames(ClassNames.PARAMETERISED_TYPES) + " with their parameters"));
    }

    /** Each {@code <Column>}'s Name and ValidationClass, both required; a name given twice is refused. */
    private static Map<String, String> columns(ConfigNode node, ChildValues earlier) throws ConfigurationException {
        Map<String, String> columns = new LinkedHashMap<>();
        for (ConfigNode column : node.children("Column")) {
            ConfigValue name = column.attribute("Name")
                    .orElseThrow(() -> column.error("@Name", "required attribute is missing"));
            Optional<ConfigValue> validation = column.attribute("ValidationClass");
            if (validation.isEmpty()) throw column.error("@ValidationClass", "required attribute is missing");
            if (columns.put(name.text(), type(validation)) != null) {
                throw name.error("column '" + name.text() + "' is given twice");
            }
        }
        return columns;
    }

    /**
     * Each {@code <Column>} with an IndexType (KEYS, the one kind Sibyl serves) and its IndexName (a word; empty when
     * absent, for 3.11's default name); an IndexName without an IndexType is refused.
     */
    private static Map<String, String> indexes(ConfigNode node, ChildValues earlier) throws ConfigurationException {
        Map<String, String> indexes = new LinkedHashMap<>();
        for (ConfigNode column : node.children("Column")) {
            Optional<ConfigValue> type = column.attribute("IndexType");
            Optional<ConfigValue> name = column.attribute("IndexName");
            if (type.isEmpty()) {
                if (name.isPresent()) throw name.get().error("IndexName needs IndexType=\"KEYS\"");
                continue;
            }
            if (!"KEYS".equals(type.get().text())) {
                throw type.get().error("Sibyl serves KEYS secondary indexes only, not '" + type.get().text() + "'");
            }
            if (name.isPresent() && !name.get().text().matches("\\w+")) {
                throw name.get().error("an index name is letters, digits and underscores only");
            }
            Optional<ConfigValue> columnName = column.attribute("Name");
            if (columnName.isPresent()) indexes.put(columnName.get().text(), name.map(ConfigValue::text).orElse(""));
        }
        return indexes;
    }

    private static CacheSize cacheSize(Optional<ConfigValue> value, String absent) throws ConfigurationException {
        if (value.isEmpty()) {
            return CacheSize.parse(absent);
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
