package sibyl.thrift20;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import sibyl.db.CFMetaData;
import sibyl.db.CacheConfig;
import sibyl.db.ColumnIndexes;
import sibyl.db.KSMetaData;
import sibyl.db.Validators;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.MarshalTypes;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.ColumnDef;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.KsDef;

/**
 * Reads the KsDef and CfDef of the schema calls into the data model's metadata, the one place where a definition
 * of the 0.7+ dialect becomes a keyspace or column family (docs/thrift-api-0.7.md §Schema calls). It checks them
 * with Cassandra 3.11's texts and in its order; a field 3.11 would apply and Sibyl does not serve yet is refused
 * naming it, and the tuning fields of 3.11 (compaction, compression, caching, read repair, bloom filter) are taken
 * and not used, as they change no answer.
 */
final class DefinitionReader {
    /** A keyspace or table name as 3.11 allows it. */
    private static final Pattern NAME = Pattern.compile("\\w{1,48}");
    /** A class name in a type string: a word with dots, before an opening parenthesis, a comma or the end. */
    private static final Pattern CLASS_NAME = Pattern.compile("[A-Za-z_$][\\w$.]*(?=\\s*(\\(|,|\\)|$))");
    private static final String LOCATOR = "org.apache.cassandra.locator.";
    private static final String SIMPLE_STRATEGY = LOCATOR + "SimpleStrategy";
    /** 3.11's default gc_grace_seconds of a table. */
    static final int DEFAULT_GC_GRACE_SECONDS = 864000;
    /** The strategies 3.11 ships, which Sibyl knows by name; it serves SimpleStrategy. */
    private static final Set<String> STRATEGIES_OF_311 = Set.of("SimpleStrategy", "NetworkTopologyStrategy",
            "LocalStrategy", "OldNetworkTopologyStrategy", "EverywhereStrategy");
    /** The types 3.11 knows as comparators, by short name: those Sibyl does not know yet are refused as not served. */
    private static final Set<String> TYPES_OF_311 = Set.of("AsciiType", "BooleanType", "BytesType", "ByteType",
            "CompositeType", "CounterColumnType", "DateType", "DecimalType", "DoubleType", "DurationType",
            "DynamicCompositeType", "EmptyType", "FloatType", "FrozenType", "InetAddressType", "Int32Type",
            "IntegerType", "LexicalUUIDType", "ListType", "LongType", "MapType", "ReversedType", "SetType",
            "ShortType", "SimpleDateType", "TimeType", "TimeUUIDType", "TimestampType", "TupleType", "UTF8Type",
            "UUIDType", "UserType", "ColumnToCollectionType");

    private DefinitionReader() {
    }

    /** system_add_keyspace's KsDef, with its column families; {@code system} and existence are checked before. */
    static KSMetaData keyspace(KsDef def) throws InvalidRequestException {
        for (CfDef cf : def.getCf_defs()) {
            if (!def.getName().equals(cf.getKeyspace())) {
                throw new InvalidRequestException("CfDef (" + cf.getName() + ") had a keyspace definition that did not"
                        + " match KsDef");
            }
        }
        List<CFMetaData> families = new ArrayList<>();
        for (CfDef cf : def.getCf_defs()) families.add(columnFamily(cf));
        for (CFMetaData cf : families) IndexDefs.unique(cf, families);
        int replicationFactor = replicationFactor(def);
        name(def.getName(), "Keyspace");
        return new KSMetaData(def.getName(), replicationFactor, families);
    }

    /**
     * The replication factor of a KsDef's strategy: SimpleStrategy's replication_factor (or KsDef's own field, as
     * 0.7 clients give it).
     */
    static int replicationFactor(KsDef def) throws InvalidRequestException {
        String strategy = def.getStrategy_class();
        String qualified = strategy.indexOf('.') < 0 ? LOCATOR + strategy : strategy;
        if (!qualified.startsWith(LOCATOR) || !STRATEGIES_OF_311.contains(qualified.substring(LOCATOR.length()))) {
            throw new InvalidRequestException("Unable to find replication strategy class '" + qualified + "'");
        }
        if (!qualified.equals(SIMPLE_STRATEGY)) {
            throw new InvalidRequestException("Sibyl serves keyspaces of SimpleStrategy only, not "
                    + qualified.substring(LOCATOR.length()) + ": its nodes are one datacenter (issue #33)");
        }
        Map<String, String> options = def.getStrategy_options();
        String factor = options == null ? null : options.get("replication_factor");
        if (factor == null && def.isSetReplication_factor()) factor = Integer.toString(def.getReplication_factor());
        if (factor == null) {
            throw new InvalidRequestException("SimpleStrategy requires a replication_factor strategy option.");
        }
        int rf;
        try {
            rf = Integer.parseInt(factor);
        } catch (NumberFormatException e) {
            throw new InvalidRequestException("Replication factor must be non-negative; found " + factor);
        }
        if (rf < 0) throw new InvalidRequestException("Replication factor must be non-negative; found " + factor);
        // 3.11 takes 0 and then answers every request Unavailable; storage-conf.xml's ReplicationFactor is 1 or more.
        if (rf == 0) {
            throw new InvalidRequestException("Sibyl serves keyspaces of replication_factor 1 or more: this node holds"
                    + " every row of its keyspaces (issue #33)");
        }
        return rf;
    }

    /** A CfDef of system_add_column_family, system_update_column_family or a KsDef. */
    static CFMetaData columnFamily(CfDef def) throws InvalidRequestException {
        String columnType = def.isSetColumn_type() ? def.getColumn_type() : "Standard";
        boolean isSuper;
        if ("Standard".equals(columnType)) isSuper = false;
        else if ("Super".equals(columnType)) isSuper = true;
        else throw new InvalidRequestException("Invalid column type " + columnType);
        AbstractType comparator = type(def.isSetComparator_type() ? def.getComparator_type() : "BytesType",
                "comparator");
        AbstractType subcomparator = isSuper
                ? type(def.isSetSubcomparator_type() ? def.getSubcomparator_type() : "BytesType", "comparator") : null;
        name(def.getName(), "ColumnFamily");
        // A super column family's column_metadata names its subcolumns.
        Validators validators = ValidatorDefs.read(def, isSuper ? subcomparator : comparator);
        ColumnIndexes indexes = IndexDefs.read(def, isSuper, isSuper ? subcomparator : comparator, validators);
        int gcGrace = def.isSetGc_grace_seconds() ? def.getGc_grace_seconds() : DEFAULT_GC_GRACE_SECONDS;
        if (gcGrace < 0) throw new InvalidRequestException("gc_grace_seconds must be non-negative; found " + gcGrace);
        return SchemaDefinitions.withTimeToLiveOf(new CFMetaData(def.getKeyspace(), def.getName(), isSuper, comparator,
                subcomparator, def.isSetComment() ? def.getComment() : "", CacheConfig.NONE, OptionalInt.of(gcGrace),
                validators), def).withIndexes(indexes);
    }

    /**
     * A comparator or validation class by its name, parameters and all; 3.11's text for a name it does not know
     * either. Every class named, a parameter's too, must be one of Cassandra's own types: a client's name never loads
     * a class of its choosing.
     *
     * @param what the field's role, for the refusal of a type 3.11 has and Sibyl does not serve yet
     */
    static AbstractType type(String name, String what) throws InvalidRequestException {
        Matcher classes = CLASS_NAME.matcher(name);
        while (classes.find()) {
            String named = classes.group();
            String base = named.startsWith(AbstractType.PACKAGE + ".") ? named.substring(AbstractType.PACKAGE.length() + 1)
                    : named;
            if (base.indexOf('.') >= 0 || !TYPES_OF_311.contains(base)) {
                throw new InvalidRequestException("Unable to find abstract-type class '"
                        + (base.indexOf('.') >= 0 ? base : AbstractType.PACKAGE + "." + base) + "'");
            }
        }
        try {
            return MarshalTypes.forName(name);
        } catch (IllegalArgumentException e) {
            String shortName = name.startsWith(AbstractType.PACKAGE + ".")
                    ? name.substring(AbstractType.PACKAGE.length() + 1) : name;
            throw new InvalidRequestException("Sibyl does not serve " + what + " " + shortName + " yet (issue #33)");
        }
    }

    private static void name(String name, String what) throws InvalidRequestException {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new InvalidRequestException(what + " name must not be empty, more than 48 characters long, or"
                    + " contain non-alphanumeric-underscore characters (got \"" + name + "\")");
        }
    }
}
