package sibyl.db.marshal;

import java.util.Map;

/** Finds a type by the name a config file or a CfDef gives it. */
public final class MarshalTypes {
    private static final Map<String, AbstractType> BUILT_IN = Map.ofEntries(
            Map.entry("BytesType", BytesType.instance),
            Map.entry("AsciiType", AsciiType.instance),
            Map.entry("UTF8Type", UTF8Type.instance),
            Map.entry("LongType", LongType.instance),
            Map.entry("LexicalUUIDType", LexicalUUIDType.instance),
            Map.entry("TimeUUIDType", TimeUUIDType.instance),
            Map.entry("IntegerType", IntegerType.instance),
            Map.entry("Int32Type", Int32Type.instance),
            Map.entry("UUIDType", UUIDType.instance),
            Map.entry("DateType", DateType.instance),
            Map.entry("TimestampType", TimestampType.instance),
            Map.entry("BooleanType", BooleanType.instance),
            Map.entry("DoubleType", DoubleType.instance),
            Map.entry("FloatType", FloatType.instance),
            Map.entry("DecimalType", DecimalType.instance),
            Map.entry("InetAddressType", InetAddressType.instance),
            Map.entry("CounterColumnType", CounterColumnType.instance),
            Map.entry("ShortType", ShortType.instance),
            Map.entry("ByteType", ByteType.instance),
            Map.entry("SimpleDateType", SimpleDateType.instance),
            Map.entry("TimeType", TimeType.instance));

    private MarshalTypes() {
    }

    /**
     * A type from its string ({@link TypeParser}): a short ({@code UTF8Type}) or full
     * ({@code org.apache.cassandra.db.marshal.UTF8Type}) name, with parameters where the type takes them; or, for
     * any other dotted name, a subclass of {@link AbstractType} on the class path with a public no-argument
     * constructor.
     *
     * @throws IllegalArgumentException naming what is wrong, in Cassandra 3.11's words where it has them
     */
    public static AbstractType forName(String name) {
        return TypeParser.parse(name);
    }

    /** Whether {@code type} may order names: CounterColumnType only validates values. */
    public static boolean ordersNames(AbstractType type) {
        return !(type instanceof CounterColumnType);
    }

    /** A type without parameters, by short or full name. */
    static AbstractType simple(String name) {
        String shortName = name.startsWith(AbstractType.PACKAGE + ".")
                ? name.substring(AbstractType.PACKAGE.length() + 1)
                : name;
        AbstractType builtIn = BUILT_IN.get(shortName);
        if (builtIn != null) return builtIn;
        if (shortName.indexOf('.') < 0) {
            throw new IllegalArgumentException("Unable to find abstract-type class '" + AbstractType.PACKAGE + "."
                    + shortName + "'");
        }
        return custom(name);
    }

    private static AbstractType custom(String className) {
        try {
            Class<?> c = Class.forName(className);
            if (!AbstractType.class.isAssignableFrom(c)) {
                throw new IllegalArgumentException("comparator class " + className + " is not a "
                        + AbstractType.class.getName());
            }
            return (AbstractType) c.getConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("cannot load comparator " + className + ": " + e, e);
        }
    }
}
