package sibyl.cluster;

import java.util.List;
import java.util.stream.Collectors;
import sibyl.db.CFMetaData;

/**
 * The CQL table of one column family, with the texts of every statement Sibyl sends to it, built
 * once here rather than at each call ({@link TableStatements}).
 */
final class Table {
    private final String cqlKeyspace;
    private final String name;
    private final CFMetaData metadata;
    private final List<ClusteringColumn> clustering;
    private final ClusteringNames names;
    private final StaticColumns statics;
    private final String qualifiedName;
    private final TableStatements statements;

    /**
     * @param clustering {@code column1} (a super table's super column names), {@code column2} in a super table (its
     *                   subcolumn names), or a standard table's {@code column1}…{@code columnN}
     * @param names      how a standard table's names map onto its clustering columns when they are not one
     *                   ascending column (a CompositeType or ReversedType comparator); null otherwise
     */
    Table(String cqlKeyspace, String name, CFMetaData metadata, List<ClusteringColumn> clustering,
          ClusteringNames names) {
        this(cqlKeyspace, name, metadata, clustering, names, List.of());
    }

    /** @param statics the declared columns the table holds as static columns ({@link StaticColumns}) */
    private Table(String cqlKeyspace, String name, CFMetaData metadata, List<ClusteringColumn> clustering,
                  ClusteringNames names, List<StaticColumn> statics) {
        this.cqlKeyspace = cqlKeyspace;
        this.name = name;
        this.metadata = metadata;
        this.clustering = List.copyOf(clustering);
        this.names = names;
        this.qualifiedName = ClusterSchema.quote(cqlKeyspace) + "." + ClusterSchema.quote(name);
        this.statics = statics.isEmpty() ? null : new StaticColumns(qualifiedName, metadata.comparator(), statics);
        this.statements = new TableStatements(qualifiedName, metadata.isSuper(), names, metadata.isCounter(), this.statics);
    }

    /** This table holding {@code statics} in static columns: those the cluster's table has. */
    Table withStatics(List<StaticColumn> statics) {
        return new Table(cqlKeyspace, name, metadata, clustering, names, statics);
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

    List<ClusteringColumn> clustering() {
        return clustering;
    }

    /** Null unless a standard table's names are a CompositeType's components or in a ReversedType's order. */
    ClusteringNames names() {
        return names;
    }

    /** Null unless some declared columns are the table's static columns. */
    StaticColumns statics() {
        return statics;
    }

    boolean isSuper() {
        return metadata.isSuper();
    }

    /** {@code "ks"."cf"}, quoted. */
    String qualifiedName() {
        return qualifiedName;
    }

    TableStatements statements() {
        return statements;
    }

    /**
     * The CQL type of {@code value}: {@code counter} in a counter column family's table (DefaultValidationClass
     * CounterColumnType), else {@code blob}.
     */
    CqlType valueType() {
        return metadata.isCounter() ? CqlType.COUNTER : CqlType.BLOB;
    }

    /**
     * {@code (key blob, column1 text, column2 bigint DESC, value blob)}, with static columns where there are: the
     * layout, for start-up's errors.
     */
    String layout() {
        return "(key blob, " + clustering.stream().map(c -> c.definition() + (c.descending() ? " DESC" : ""))
                .collect(Collectors.joining(", ")) + ", value " + valueType().cql()
                + (statics == null ? "" : statics.definitions()) + ")";
    }

    String createStatement() {
        String columns = clustering.stream().map(ClusteringColumn::name).collect(Collectors.joining(", "));
        String options = names == null ? "" : "CLUSTERING ORDER BY (" + names.order(false) + ")";
        if (metadata.comment() != null) {
            options += (options.isEmpty() ? "" : " AND ") + "comment = '" + metadata.comment().replace("'", "''") + "'";
        }
        return "CREATE TABLE IF NOT EXISTS " + qualifiedName() + " (key blob, "
                + clustering.stream().map(ClusteringColumn::definition).collect(Collectors.joining(", "))
                + ", value " + valueType().cql() + (statics == null ? "" : statics.definitions()) + ", PRIMARY KEY (key, "
                + columns + "))" + (options.isEmpty() ? "" : " WITH " + options);
    }

    @Override
    public String toString() {
        return qualifiedName;
    }
}
