package sibyl.config;

import java.util.List;
import java.util.Optional;

/**
 * The Cassandra class names storage-conf.xml may name for comparators, partitioners and
 * authenticators. The model always holds the full names below; the file may use the short name
 * (the part after the last dot) instead.
 */
public final class ClassNames {
    public static final String MARSHAL_PACKAGE = "org.apache.cassandra.db.marshal.";
    public static final String DHT_PACKAGE = "org.apache.cassandra.dht.";
    public static final String AUTH_PACKAGE = "org.apache.cassandra.auth.";

    public static final String BYTES_TYPE = MARSHAL_PACKAGE + "BytesType";
    public static final String ASCII_TYPE = MARSHAL_PACKAGE + "AsciiType";
    public static final String UTF8_TYPE = MARSHAL_PACKAGE + "UTF8Type";
    public static final String LONG_TYPE = MARSHAL_PACKAGE + "LongType";
    public static final String LEXICAL_UUID_TYPE = MARSHAL_PACKAGE + "LexicalUUIDType";
    public static final String TIME_UUID_TYPE = MARSHAL_PACKAGE + "TimeUUIDType";

    public static final String RANDOM_PARTITIONER = DHT_PACKAGE + "RandomPartitioner";
    public static final String ORDER_PRESERVING_PARTITIONER = DHT_PACKAGE + "OrderPreservingPartitioner";
    public static final String COLLATING_ORDER_PRESERVING_PARTITIONER =
            DHT_PACKAGE + "CollatingOrderPreservingPartitioner";
    public static final String BYTE_ORDERED_PARTITIONER = DHT_PACKAGE + "ByteOrderedPartitioner";
    public static final String MURMUR3_PARTITIONER = DHT_PACKAGE + "Murmur3Partitioner";

    public static final String ALLOW_ALL_AUTHENTICATOR = AUTH_PACKAGE + "AllowAllAuthenticator";
    public static final String SIMPLE_AUTHENTICATOR = AUTH_PACKAGE + "SimpleAuthenticator";

    public static final List<String> COMPARATORS =
            List.of(BYTES_TYPE, ASCII_TYPE, UTF8_TYPE, LONG_TYPE, LEXICAL_UUID_TYPE, TIME_UUID_TYPE);
    /**
     * Every type without parameters Sibyl knows (db.marshal.MarshalTypes has them): 0.6's comparators, then those
     * of 0.7 to 3.11. CounterColumnType validates values only.
     */
    public static final List<String> TYPES = List.of(BYTES_TYPE, ASCII_TYPE, UTF8_TYPE, LONG_TYPE, LEXICAL_UUID_TYPE,
            TIME_UUID_TYPE, MARSHAL_PACKAGE + "IntegerType", MARSHAL_PACKAGE + "Int32Type",
            MARSHAL_PACKAGE + "UUIDType", MARSHAL_PACKAGE + "DateType", MARSHAL_PACKAGE + "TimestampType",
            MARSHAL_PACKAGE + "BooleanType", MARSHAL_PACKAGE + "DoubleType", MARSHAL_PACKAGE + "FloatType",
            MARSHAL_PACKAGE + "DecimalType", MARSHAL_PACKAGE + "InetAddressType", MARSHAL_PACKAGE + "ShortType",
            MARSHAL_PACKAGE + "ByteType", MARSHAL_PACKAGE + "SimpleDateType", MARSHAL_PACKAGE + "TimeType",
            MARSHAL_PACKAGE + "CounterColumnType");
    /** The types that take parameters: {@code CompositeType(UTF8Type,LongType)} and the like. */
    public static final List<String> PARAMETERISED_TYPES = List.of(MARSHAL_PACKAGE + "CompositeType",
            MARSHAL_PACKAGE + "DynamicCompositeType", MARSHAL_PACKAGE + "ReversedType");
    private static final java.util.regex.Pattern TYPE_WORD = java.util.regex.Pattern.compile("[A-Za-z0-9_.]+(?!\\s*=>)");
    public static final List<String> PARTITIONERS =
            List.of(RANDOM_PARTITIONER, ORDER_PRESERVING_PARTITIONER, COLLATING_ORDER_PRESERVING_PARTITIONER,
                    BYTE_ORDERED_PARTITIONER, MURMUR3_PARTITIONER);
    public static final List<String> AUTHENTICATORS = List.of(ALLOW_ALL_AUTHENTICATOR, SIMPLE_AUTHENTICATOR);

    private ClassNames() {
    }

    /** The full comparator class name for a short or full one Sibyl supports. */
    public static Optional<String> comparator(String name) {
        return resolve(name, MARSHAL_PACKAGE, COMPARATORS);
    }

    /**
     * A type string as storage-conf.xml may give it: a name of {@link #TYPES}, short or full (then its full name),
     * or one of {@link #PARAMETERISED_TYPES} with parameters whose every name is known (then the text as given,
     * trimmed; its structure is checked where it is parsed). Empty when a name is not known.
     */
    public static Optional<String> type(String text) {
        String trimmed = text.strip();
        if (trimmed.indexOf('(') < 0) {
            Optional<String> simple = resolve(trimmed, MARSHAL_PACKAGE, TYPES);
            return simple.isPresent() ? simple : resolve(trimmed, MARSHAL_PACKAGE, PARAMETERISED_TYPES)
                    .filter(full -> !full.endsWith("ReversedType"));
        }
        java.util.regex.Matcher words = TYPE_WORD.matcher(trimmed);
        while (words.find()) {
            String word = words.group();
            if (resolve(word, MARSHAL_PACKAGE, TYPES).isEmpty() && resolve(word, MARSHAL_PACKAGE, PARAMETERISED_TYPES).isEmpty()) {
                return Optional.empty();
            }
        }
        return Optional.of(trimmed);
    }

    public static Optional<String> partitioner(String name) {
        return resolve(name, DHT_PACKAGE, PARTITIONERS);
    }

    public static Optional<String> authenticator(String name) {
        return resolve(name, AUTH_PACKAGE, AUTHENTICATORS);
    }

    /**
     * The part after the last dot: {@code UTF8Type} for {@code org.apache.cassandra.db.marshal.UTF8Type}; a type
     * string with parameters without the package of each name in it.
     */
    public static String shortName(String className) {
        if (className.indexOf('(') >= 0) return className.replace(MARSHAL_PACKAGE, "");
        return className.substring(className.lastIndexOf('.') + 1);
    }

    static String shortNames(List<String> classNames) {
        return String.join(", ", classNames.stream().map(ClassNames::shortName).toList());
    }

    private static Optional<String> resolve(String name, String packagePrefix, List<String> known) {
        String full = name.indexOf('.') < 0 ? packagePrefix + name : name;
        return known.contains(full) ? Optional.of(full) : Optional.empty();
    }
}
