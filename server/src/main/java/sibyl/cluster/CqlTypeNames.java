package sibyl.cluster;

import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.ListType;
import com.datastax.oss.driver.api.core.type.MapType;
import com.datastax.oss.driver.api.core.type.SetType;
import com.datastax.oss.driver.api.core.type.TupleType;
import java.util.Map;
import java.util.StringJoiner;

/**
 * A CQL type by the name Cassandra 3.11 gives it to Thrift clients in CQL results and prepared statements: the class
 * of its type in {@code org.apache.cassandra.db.marshal}, with a collection's element types in parentheses and a
 * frozen one wrapped in FrozenType (docs/thrift-api-0.7.md §CQL).
 */
final class CqlTypeNames {
    private static final String PACKAGE = "org.apache.cassandra.db.marshal.";
    private static final Map<DataType, String> SCALARS = Map.ofEntries(
            Map.entry(DataTypes.ASCII, "AsciiType"), Map.entry(DataTypes.BIGINT, "LongType"),
            Map.entry(DataTypes.BLOB, "BytesType"), Map.entry(DataTypes.BOOLEAN, "BooleanType"),
            Map.entry(DataTypes.COUNTER, "CounterColumnType"), Map.entry(DataTypes.DECIMAL, "DecimalType"),
            Map.entry(DataTypes.DOUBLE, "DoubleType"), Map.entry(DataTypes.FLOAT, "FloatType"),
            Map.entry(DataTypes.INT, "Int32Type"), Map.entry(DataTypes.TIMESTAMP, "TimestampType"),
            Map.entry(DataTypes.UUID, "UUIDType"), Map.entry(DataTypes.VARINT, "IntegerType"),
            Map.entry(DataTypes.TIMEUUID, "TimeUUIDType"), Map.entry(DataTypes.INET, "InetAddressType"),
            Map.entry(DataTypes.DATE, "SimpleDateType"), Map.entry(DataTypes.TEXT, "UTF8Type"),
            Map.entry(DataTypes.TIME, "TimeType"), Map.entry(DataTypes.SMALLINT, "ShortType"),
            Map.entry(DataTypes.TINYINT, "ByteType"), Map.entry(DataTypes.DURATION, "DurationType"));

    private CqlTypeNames() {
    }

    /**
     * The 3.11 name of {@code type}. A type 3.11 had no class for (a vector, a user type, a custom one) is named as
     * its bytes are, BytesType: a Thrift client can only take its value as bytes.
     */
    static String of(DataType type) {
        String scalar = SCALARS.get(type);
        if (scalar != null) return PACKAGE + scalar;
        String named;
        if (type instanceof ListType list) {
            named = PACKAGE + "ListType(" + of(list.getElementType()) + ")";
            return list.isFrozen() ? frozen(named) : named;
        }
        if (type instanceof SetType set) {
            named = PACKAGE + "SetType(" + of(set.getElementType()) + ")";
            return set.isFrozen() ? frozen(named) : named;
        }
        if (type instanceof MapType map) {
            named = PACKAGE + "MapType(" + of(map.getKeyType()) + "," + of(map.getValueType()) + ")";
            return map.isFrozen() ? frozen(named) : named;
        }
        if (type instanceof TupleType tuple) {
            StringJoiner components = new StringJoiner(",", PACKAGE + "TupleType(", ")");
            for (DataType component : tuple.getComponentTypes()) components.add(of(component));
            return components.toString();
        }
        return PACKAGE + "BytesType";
    }

    private static String frozen(String named) {
        return PACKAGE + "FrozenType(" + named + ")";
    }
}
