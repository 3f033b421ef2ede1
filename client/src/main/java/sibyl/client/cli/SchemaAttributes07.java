package sibyl.client.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.apache.thrift.meta_data.FieldMetaData;
import org.apache.thrift.protocol.TType;
import sibyl.client.cli.Statement07.Array;
import sibyl.client.cli.Statement07.Attribute;
import sibyl.client.cli.Statement07.AttributeValue;
import sibyl.client.cli.Statement07.Hash;
import sibyl.client.cli.Statement07.Text;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.ColumnDef;
import sibyl.iface.v20.IndexType;
import sibyl.iface.v20.KsDef;

/**
 * The {@code with name = value and ...} attributes of create/update keyspace and column family, applied to a
 * KsDef or CfDef. The attribute names are the 0.7–1.2 cli's: a CfDef field's own name, or one of the
 * cli's shorter names (comparator, subcomparator, gc_grace...). Values are converted by the field's Thrift type.
 */
final class SchemaAttributes07 {

    static final String SIMPLE_STRATEGY = "org.apache.cassandra.locator.SimpleStrategy";

    /** The cli's names that are not a CfDef field's own. */
    private static final Map<String, String> CF_ALIASES = Map.of(
            "comparator", "comparator_type",
            "subcomparator", "subcomparator_type",
            "gc_grace", "gc_grace_seconds",
            "rows_cached", "row_cache_size",
            "keys_cached", "key_cache_size",
            "row_cache_save_period", "row_cache_save_period_in_seconds",
            "key_cache_save_period", "key_cache_save_period_in_seconds",
            "memtable_operations", "memtable_operations_in_millions",
            "memtable_throughput", "memtable_throughput_in_mb",
            "memtable_flush_after", "memtable_flush_after_mins");

    /** CfDef fields the cli does not set: they come from the statement itself or are the server's. */
    private static final java.util.Set<String> CF_NOT_SETTABLE = java.util.Set.of("keyspace", "name", "id",
            "key_alias", "triggers", "column_metadata");

    private SchemaAttributes07() {
    }

    /** A new keyspace: SimpleStrategy with replication factor 1 unless the attributes say otherwise. */
    static KsDef newKeyspace(String name, List<Attribute> attributes) {
        KsDef ks = new KsDef(name, SIMPLE_STRATEGY, new ArrayList<>());
        apply(ks, attributes);
        if (ks.getStrategy_class().endsWith("SimpleStrategy")
                && (ks.getStrategy_options() == null || !ks.getStrategy_options().containsKey("replication_factor"))) {
            Map<String, String> options = ks.getStrategy_options() == null ? new HashMap<>()
                    : new HashMap<>(ks.getStrategy_options());
            options.put("replication_factor", "1");
            ks.setStrategy_options(options);
        }
        return ks;
    }

    /** Applies keyspace attributes to {@code ks} (its cf_defs are left alone). */
    static void apply(KsDef ks, List<Attribute> attributes) {
        for (Attribute a : attributes) {
            switch (a.name()) {
                case "placement_strategy" -> ks.setStrategy_class(text(a));
                case "strategy_options" -> ks.setStrategy_options(options(a));
                case "replication_factor" -> {
                    Map<String, String> options = ks.getStrategy_options() == null ? new HashMap<>()
                            : new HashMap<>(ks.getStrategy_options());
                    options.put("replication_factor", String.valueOf(whole(a)));
                    ks.setStrategy_options(options);
                }
                case "durable_writes" -> ks.setDurable_writes(bool(a));
                default -> throw new CliError("unknown keyspace attribute '" + a.name() + "'; the attributes are "
                        + "placement_strategy, strategy_options, replication_factor and durable_writes");
            }
        }
    }

    /** Applies column family attributes to {@code cf}; column_metadata last, as its names follow the comparator. */
    static void apply(CfDef cf, List<Attribute> attributes) {
        Attribute metadata = null;
        for (Attribute a : attributes) {
            if (a.name().equals("column_metadata")) {
                metadata = a;
                continue;
            }
            String field = CF_ALIASES.getOrDefault(a.name(), a.name());
            CfDef._Fields f = CfDef._Fields.findByName(field);
            if (f == null || CF_NOT_SETTABLE.contains(field)) {
                throw new CliError("unknown column family attribute '" + a.name() + "'; the attributes are "
                        + String.join(", ", attributeNames()));
            }
            cf.setFieldValue(f, convert(a, CfDef.metaDataMap.get(f)));
        }
        if (metadata != null) {
            if (!(metadata.value() instanceof Array array)) {
                throw new CliError("column_metadata is a list: [{column_name: NAME, validation_class: TYPE}, ...]");
            }
            boolean isSuper = "Super".equalsIgnoreCase(cf.getColumn_type());
            CliType names = CliType.of(isSuper ? cf.getSubcomparator_type() : cf.getComparator_type());
            List<ColumnDef> defs = new ArrayList<>();
            for (Map<String, String> hash : array.hashes()) {
                defs.add(columnDef(hash, names));
            }
            cf.setColumn_metadata(defs);
        }
    }

    private static List<String> attributeNames() {
        TreeSet<String> names = new TreeSet<>(CF_ALIASES.keySet());
        for (CfDef._Fields f : CfDef.metaDataMap.keySet()) {
            if (!CF_NOT_SETTABLE.contains(f.getFieldName())) {
                names.add(f.getFieldName());
            }
        }
        names.add("column_metadata");
        return List.copyOf(names);
    }

    private static ColumnDef columnDef(Map<String, String> hash, CliType names) {
        ColumnDef def = new ColumnDef();
        for (Map.Entry<String, String> e : hash.entrySet()) {
            switch (e.getKey().toLowerCase(Locale.ROOT)) {
                case "column_name" -> {
                    try {
                        def.setName(names.parse(e.getValue()));
                    } catch (IllegalArgumentException bad) {
                        throw new CliError("column_metadata: bad column_name: " + bad.getMessage());
                    }
                }
                case "validation_class" -> def.setValidation_class(e.getValue());
                case "index_name" -> def.setIndex_name(e.getValue());
                case "index_type" -> def.setIndex_type(indexType(e.getValue()));
                default -> throw new CliError("unknown column_metadata attribute '" + e.getKey() + "'; the attributes "
                        + "are column_name, validation_class, index_type and index_name");
            }
        }
        if (def.getName() == null || def.getValidation_class() == null) {
            throw new CliError("column_metadata: each column needs column_name and validation_class");
        }
        return def;
    }

    private static IndexType indexType(String text) {
        try {
            IndexType t = IndexType.findByValue(Integer.parseInt(text));
            if (t != null) {
                return t;
            }
        } catch (NumberFormatException e) {
            for (IndexType t : IndexType.values()) {
                if (t.name().equalsIgnoreCase(text)) {
                    return t;
                }
            }
        }
        throw new CliError("unknown index_type '" + text + "'; KEYS, CUSTOM or COMPOSITES");
    }

    private static Object convert(Attribute a, FieldMetaData meta) {
        byte type = meta.valueMetaData.type;
        return switch (type) {
            case TType.STRING -> text(a);
            case TType.I32 -> whole(a);
            case TType.DOUBLE -> {
                try {
                    yield Double.parseDouble(text(a));
                } catch (NumberFormatException e) {
                    throw new CliError(a.name() + " is a number, not '" + text(a) + "'");
                }
            }
            case TType.BOOL -> bool(a);
            case TType.MAP -> options(a);
            default -> throw new CliError("attribute " + a.name() + " cannot be set from the cli");
        };
    }

    private static String text(Attribute a) {
        if (a.value() instanceof Text t) {
            return t.text();
        }
        throw new CliError(a.name() + " takes a single value, not " + describe(a.value()));
    }

    private static int whole(Attribute a) {
        try {
            return Integer.parseInt(text(a));
        } catch (NumberFormatException e) {
            throw new CliError(a.name() + " is a whole number, not '" + text(a) + "'");
        }
    }

    private static boolean bool(Attribute a) {
        String t = text(a);
        if (t.equalsIgnoreCase("true") || t.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(t.toLowerCase(Locale.ROOT));
        }
        throw new CliError(a.name() + " is true or false, not '" + t + "'");
    }

    /** {@code {k: v}}, or the 0.7 cli's {@code [{k: v}]}. */
    private static Map<String, String> options(Attribute a) {
        if (a.value() instanceof Hash h) {
            return new HashMap<>(h.entries());
        }
        if (a.value() instanceof Array arr) {
            Map<String, String> all = new HashMap<>();
            arr.hashes().forEach(all::putAll);
            return all;
        }
        throw new CliError(a.name() + " takes {name: value, ...}, not " + describe(a.value()));
    }

    private static String describe(AttributeValue v) {
        if (v instanceof Text t) {
            return "'" + t.text() + "'";
        }
        return v instanceof Hash ? "{...}" : "[...]";
    }
}
