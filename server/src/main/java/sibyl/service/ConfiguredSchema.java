package sibyl.service;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import sibyl.config.ColumnFamilyConf;
import sibyl.config.KeyspaceConf;
import sibyl.config.StorageConf;
import sibyl.db.CFMetaData;
import sibyl.db.ColumnIndexes;
import sibyl.db.CacheConfig;
import sibyl.db.KSMetaData;
import sibyl.db.SystemKeyspace;
import sibyl.config.ValidationConf;
import sibyl.db.Validators;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.CounterColumnType;
import sibyl.db.marshal.MarshalException;
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
            Set<String> indexNames = new HashSet<>();
            for (ColumnFamilyConf cf : ks.columnFamilies()) {
                String where = ks.name() + "." + cf.name();
                AbstractType comparator = type(where, "CompareWith", cf.compareWith());
                AbstractType subcomparator = cf.isSuper()
                        ? type(where, "CompareSubcolumnsWith", cf.compareSubcolumnsWith()) : null;
                CFMetaData metadata = new CFMetaData(ks.name(), cf.name(), cf.isSuper(), comparator, subcomparator,
                        cf.comment()).withCaches(caches(cf))
                        .withValidators(validators(where, cf.validation(), cf.isSuper() ? subcomparator : comparator))
                        .withDefaultTimeToLive(cf.defaultTimeToLive())
                        .withIndexes(indexes(where, cf, cf.isSuper() ? subcomparator : comparator, indexNames));
                cfs.add(cf.gcGraceSeconds() == null ? metadata : metadata.withGcGraceSeconds(cf.gcGraceSeconds()));
            }
            all.add(new KSMetaData(ks.name(), ks.replicationFactor(), cfs));
        }
        all.add(SystemKeyspace.metadata());
        return all;
    }

    /**
     * The {@code <Column IndexType="KEYS">} of a column family, each named by its IndexName or 3.11's default
     * ({@code <CF>_<column as the comparator prints it>_idx}, without the characters that are not word characters);
     * an index on a super column family, or a name another index of the keyspace has, is refused.
     *
     * @param taken the names of the keyspace's indexes so far; this column family's are added
     */
    private static ColumnIndexes indexes(String where, ColumnFamilyConf cf, AbstractType names, Set<String> taken) {
        Map<ByteBuffer, String> indexes = new LinkedHashMap<>();
        for (Map.Entry<String, String> index : cf.validation().indexes().entrySet()) {
            if (cf.isSuper()) {
                throw new IllegalArgumentException("storage-conf.xml: column family " + where
                        + ": secondary indexes are not supported on super column families");
            }
            ByteBuffer column = ByteBuffer.wrap(index.getKey().getBytes(StandardCharsets.UTF_8));
            String name = !index.getValue().isEmpty() ? index.getValue()
                    : (cf.name() + "_" + names.getString(index.getKey().getBytes(StandardCharsets.UTF_8)) + "_idx")
                    .replaceAll("\\W", "");
            if (!taken.add(name)) {
                throw new IllegalArgumentException("storage-conf.xml: column family " + where + ": duplicate index name "
                        + name);
            }
            indexes.put(column, name);
        }
        return new ColumnIndexes(indexes);
    }

    /**
     * A type string of the configuration, parsed; the configuration has checked its names but not its structure.
     *
     * @throws IllegalArgumentException naming the column family and the setting
     */
    private static AbstractType type(String where, String setting, String text) {
        try {
            return MarshalTypes.forName(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("storage-conf.xml: column family " + where + ": " + setting + " '" + text
                    + "': " + e.getMessage(), e);
        }
    }

    /**
     * KeyValidationClass, DefaultValidationClass and each {@code <Column>}, whose Name's UTF-8 bytes are the name,
     * which must be one {@code names} (the comparator of the columns' level) takes.
     */
    private static Validators validators(String where, ValidationConf conf, AbstractType names) {
        Map<ByteBuffer, AbstractType> columns = new LinkedHashMap<>();
        for (Map.Entry<String, String> column : conf.columns().entrySet()) {
            ByteBuffer name = ByteBuffer.wrap(column.getKey().getBytes(StandardCharsets.UTF_8));
            try {
                names.conform(name);
            } catch (MarshalException e) {
                throw new IllegalArgumentException("storage-conf.xml: column family " + where + ": Column '"
                        + column.getKey() + "' is not a name " + names.className() + " takes: " + e.getMessage(), e);
            }
            columns.put(name, type(where, "Column '" + column.getKey() + "' ValidationClass", column.getValue()));
        }
        AbstractType values = type(where, "DefaultValidationClass", conf.defaultValidationClass());
        // A counter column family's columns are all counters, another's none (docs/semantics.md §Counters).
        for (Map.Entry<String, String> column : conf.columns().entrySet()) {
            if ((columns.get(ByteBuffer.wrap(column.getKey().getBytes(StandardCharsets.UTF_8))) instanceof CounterColumnType)
                    != (values instanceof CounterColumnType)) {
                throw new IllegalArgumentException("storage-conf.xml: column family " + where + ": Column '" + column.getKey()
                        + "' ValidationClass " + column.getValue() + ": the columns of a column family whose"
                        + " DefaultValidationClass is CounterColumnType are all counters, and no other column family has any");
            }
        }
        return new Validators(type(where, "KeyValidationClass", conf.keyValidationClass()), values, columns);
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
