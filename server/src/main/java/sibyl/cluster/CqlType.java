package sibyl.cluster;

import java.util.Optional;
import sibyl.db.marshal.AbstractType;

/**
 * The CQL type that orders and validates column names as a 0.6 comparator does: each keeps 0.6's
 * order and accepts what 0.6 accepts (WriteReadTest runs against both backends). AsciiType is a
 * blob: CQL's ascii refuses bytes above 127, which 0.6 took, and a blob orders as AsciiType did.
 */
enum CqlType {
    BLOB("org.apache.cassandra.db.marshal.BytesType", "blob"),
    ASCII("org.apache.cassandra.db.marshal.AsciiType", "blob"),
    TEXT("org.apache.cassandra.db.marshal.UTF8Type", "text"),
    BIGINT("org.apache.cassandra.db.marshal.LongType", "bigint"),
    TIMEUUID("org.apache.cassandra.db.marshal.TimeUUIDType", "timeuuid"),
    LEXICAL_UUID("org.apache.cassandra.db.marshal.LexicalUUIDType",
            "'org.apache.cassandra.db.marshal.LexicalUUIDType'");

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

    /** The type of a 0.6 comparator; empty for a custom comparator, which the cluster cannot order by. */
    static Optional<CqlType> of(AbstractType comparator) {
        for (CqlType t : values()) {
            if (t.comparatorClass.equals(comparator.className())) return Optional.of(t);
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
