package sibyl.cluster;

/**
 * One clustering column of a column family's table: {@code column1}, {@code column2}… with the CQL type of its
 * comparator (or of that component of a CompositeType), in descending order where the comparator (or component)
 * is a ReversedType (docs/configuration.md §Cluster).
 */
record ClusteringColumn(String name, CqlType type, boolean descending) {
    /** {@code column1 text}, as CREATE TABLE and the start-up errors write it. */
    String definition() {
        return name + " " + type.cql();
    }

    /** {@code ASC} or {@code DESC}: the declared order, or its opposite when {@code reversed}. */
    String order(boolean reversed) {
        return descending != reversed ? "DESC" : "ASC";
    }
}
