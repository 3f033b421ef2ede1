package sibyl.cluster;

/**
 * A column the column family declares in its column_metadata, stored in a static column of the table (one value per
 * row key, as a Thrift column is), named by the comparator's text form of the column's name and typed by its
 * validation class: what 3.11 makes of such a column family, before and after DROP COMPACT STORAGE
 * (docs/configuration.md §Cluster).
 *
 * @param name   the Thrift column's name; callers must not modify the array
 * @param column the CQL column's name, unquoted
 * @param type   the CQL column's type
 */
record StaticColumn(byte[] name, String column, CqlType type) {
    /** {@code "age" bigint STATIC}, for CREATE TABLE and ALTER TABLE ADD. */
    String definition() {
        return ClusterSchema.quote(column) + " " + type.cql() + " STATIC";
    }
}
