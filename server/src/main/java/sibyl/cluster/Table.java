package sibyl.cluster;

import sibyl.db.CFMetaData;

/**
 * The CQL table of one column family.
 *
 * @param column1 the type of column names (super column names in a super column family)
 * @param column2 the type of subcolumn names; null for a standard column family
 */
record Table(String cqlKeyspace, String name, CFMetaData metadata, CqlType column1, CqlType column2) {

    boolean isSuper() {
        return column2 != null;
    }

    /** {@code "ks"."cf"}, quoted. */
    String qualifiedName() {
        return ClusterSchema.quote(cqlKeyspace) + "." + ClusterSchema.quote(name);
    }

    String createStatement() {
        return "CREATE TABLE IF NOT EXISTS " + qualifiedName() + " (key blob, column1 " + column1.cql()
                + (isSuper() ? ", column2 " + column2.cql() : "") + ", value blob, PRIMARY KEY (key, column1"
                + (isSuper() ? ", column2" : "") + "))"
                + (metadata.comment() == null ? "" : " WITH comment = '" + metadata.comment().replace("'", "''") + "'");
    }
}
