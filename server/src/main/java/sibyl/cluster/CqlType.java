package sibyl.cluster;

import java.util.Optional;
import sibyl.db.marshal.AbstractType;

/**
 * The CQL type that orders and validates column names as a comparator does: each keeps its order
 * and accepts what Sibyl accepts (WriteReadTest runs against both backends). AsciiType is a
 * blob: CQL's ascii refuses bytes above 127, which 0.6 took, and a blob orders as AsciiType did.
 * The types of 0.7 to 3.11 map to the CQL type of the same class, whose order Cassandra 5 keeps;
 * CompositeType and ReversedType are laid out from these by {@link TableLayouts}; DateType and TimeType (whose range
 * Cassandra 5 checks and 3.11 did not) have none and are refused at start, naming the column family
 * (docs/configuration.md §Cluster).
 */
enum CqlType {
    BLOB("org.apache.cassandra.db.marshal.BytesType", "blob"),
    ASCII("org.apache.cassandra.db.marshal.AsciiType", "blob"),
    TEXT("org.apache.cassandra.db.marshal.UTF8Type", "text"),
    BIGINT("org.apache.cassandra.db.marshal.LongType", "bigint"),
    TIMEUUID("org.apache.cassandra.db.marshal.TimeUUIDType", "timeuuid"),
    LEXICAL_UUID("org.apache.cassandra.db.marshal.LexicalUUIDType",
            "'org.apache.cassandra.db.marshal.LexicalUUIDType'"),
    VARINT("org.apache.cassandra.db.marshal.IntegerType", "varint"),
    INT("org.apache.cassandra.db.marshal.Int32Type", "int"),
    UUID("org.apache.cassandra.db.marshal.UUIDType", "uuid"),
    TIMESTAMP("org.apache.cassandra.db.marshal.TimestampType", "timestamp"),
    BOOLEAN("org.apache.cassandra.db.marshal.BooleanType", "boolean"),
    DOUBLE("org.apache.cassandra.db.marshal.DoubleType", "double"),
    FLOAT("org.apache.cassandra.db.marshal.FloatType", "float"),
    DECIMAL("org.apache.cassandra.db.marshal.DecimalType", "decimal"),
    INET("org.apache.cassandra.db.marshal.InetAddressType", "inet"),
    SMALLINT("org.apache.cassandra.db.marshal.ShortType", "smallint"),
    TINYINT("org.apache.cassandra.db.marshal.ByteType", "tinyint"),
    DATE("org.apache.cassandra.db.marshal.SimpleDateType", "date"),
    /** The value of a counter column family's table only: CQL orders no clustering column by it. */
    COUNTER("org.apache.cassandra.db.marshal.CounterColumnType", "counter");

    private final String comparatorClass;
    private final String cql;

    CqlType(String comparatorClass, String cql) {
        this.comparatorClass = comparatorClass;
        this.cql = cql;
    }

    /** As written in CREATE TABLE. */
    String cql() {
        return cql;
    }

    /** The type of a comparator; empty for one the cluster does not order by here. */
    static Optional<CqlType> of(AbstractType comparator) {
        for (CqlType t : values()) {
            if (t != COUNTER && t.comparatorClass.equals(comparator.className())) return Optional.of(t);
        }
        return Optional.empty();
    }

    /**
     * Whether the driver's name for a column's type ({@code DataType.asCql(false, true)}, e.g.
     * {@code blob} or {@code 'org.apache.cassandra.db.marshal.LexicalUUIDType'}) is this type.
     */
    boolean matches(String driverType) {
        String t = driverType.toLowerCase(java.util.Locale.ROOT);
        return this == LEXICAL_UUID ? t.contains("lexicaluuidtype") : t.equals(cql);
    }
}
