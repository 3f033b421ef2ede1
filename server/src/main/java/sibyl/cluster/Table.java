package sibyl.cluster;

import sibyl.db.CFMetaData;

/**
 * The CQL table of one column family, with the texts of every statement Sibyl sends to it, built
 * once here rather than at each call ({@link TableStatements}).
 */
final class Table {
    private final String cqlKeyspace;
    private final String name;
    private final CFMetaData metadata;
    private final CqlType column1;
    private final CqlType column2;
    private final String qualifiedName;
    private final TableStatements statements;

    /**
     * @param column1 the type of column names (super column names in a super column family)
     * @param column2 the type of subcolumn names; null for a standard column family
     */
    Table(String cqlKeyspace, String name, CFMetaData metadata, CqlType column1, CqlType column2) {
        this.cqlKeyspace = cqlKeyspace;
        this.name = name;
        this.metadata = metadata;
        this.column1 = column1;
        this.column2 = column2;
        this.qualifiedName = ClusterSchema.quote(cqlKeyspace) + "." + ClusterSchema.quote(name);
        this.statements = new TableStatements(qualifiedName, column2 != null);
    }

    String cqlKeyspace() {
        return cqlKeyspace;
    }

    String name() {
        return name;
    }

    CFMetaData metadata() {
        return metadata;
    }

    CqlType column1() {
        return column1;
    }

    /** Null for a standard column family. */
    CqlType column2() {
        return column2;
    }

    boolean isSuper() {
        return column2 != null;
    }

    /** {@code "ks"."cf"}, quoted. */
    String qualifiedName() {
        return qualifiedName;
    }

    TableStatements statements() {
        return statements;
    }

    String createStatement() {
        return "CREATE TABLE IF NOT EXISTS " + qualifiedName() + " (key blob, column1 " + column1.cql()
                + (isSuper() ? ", column2 " + column2.cql() : "") + ", value blob, PRIMARY KEY (key, column1"
                + (isSuper() ? ", column2" : "") + "))"
                + (metadata.comment() == null ? "" : " WITH comment = '" + metadata.comment().replace("'", "''") + "'");
    }

    @Override
    public String toString() {
        return qualifiedName;
    }
}
