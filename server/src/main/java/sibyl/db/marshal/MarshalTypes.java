package sibyl.db.marshal;

import java.util.Map;

/** Finds a comparator by the name a config file gives it. */
public final class MarshalTypes {
    private static final Map<String, AbstractType> BUILT_IN = Map.of(
            "BytesType", BytesType.instance,
            "AsciiType", AsciiType.instance,
            "UTF8Type", UTF8Type.instance,
            "LongType", LongType.instance,
            "LexicalUUIDType", LexicalUUIDType.instance,
            "TimeUUIDType", TimeUUIDType.instance);

    private MarshalTypes() {
    }

    /**
     * A built-in comparator from its short name ({@code UTF8Type}) or full 0.6 name
     * ({@code org.apache.cassandra.db.marshal.UTF8Type}); or, for any other dotted name, a
     * subclass of {@link AbstractType} on the class path with a public no-argument constructor.
     *
     * @throws IllegalArgumentException naming the comparator when none of these applies
     */
    public static AbstractType forName(String name) {
        String shortName = name.startsWith(AbstractType.PACKAGE + ".")
                ? name.substring(AbstractType.PACKAGE.length() + 1)
                : name;
        AbstractType builtIn = BUILT_IN.get(shortName);
        if (builtIn != null) return builtIn;
        if (shortName.indexOf('.') < 0) {
            throw new IllegalArgumentException("unknown comparator " + name + "; known: " + BUILT_IN.keySet());
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
