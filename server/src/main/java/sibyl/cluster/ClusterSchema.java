package sibyl.cluster;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.schema.ClusteringOrder;
import com.datastax.oss.driver.api.core.metadata.schema.ColumnMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.config.ClusterConf;
import sibyl.config.ConfigurationException;
import sibyl.config.ElementPath;
import sibyl.db.CFMetaData;
import sibyl.db.KSMetaData;
import sibyl.db.SystemKeyspace;

/**
 * Creates the CQL keyspaces and tables the configured keyspaces and column families map onto,
 * when they are absent, and refuses to start over a table of another shape. Never alters or
 * drops anything: a cluster's schema is its operators' to change.
 */
final class ClusterSchema {
    private static final Logger log = LoggerFactory.getLogger(ClusterSchema.class);

    private ClusterSchema() {
    }

    /**
     * Makes sure every configured column family has its table, and returns them by keyspace and
     * column family name.
     *
     * @throws ConfigurationException naming the column family's element when its table exists with another shape,
     *                                or when its comparator has no CQL type
     */
    static Map<String, Map<String, Table>> ensure(CqlSession session, ClusterConf conf, List<KSMetaData> keyspaces)
            throws ConfigurationException {
        return ensure(session, conf, keyspaces, null);
    }

    /**
     * As {@link #ensure(CqlSession, ClusterConf, List)}, while the node runs with the tables of {@code running} (null
     * at start): a column_metadata entry that a column family did not have there (or of a column family it did not
     * serve) gets its static column in an existing table that lacks one (ALTER TABLE ADD). At start, and for an entry
     * it had, such a column stays in (column1, value), as the table has it.
     */
    static Map<String, Map<String, Table>> ensure(CqlSession session, ClusterConf conf, List<KSMetaData> keyspaces,
                                                  Map<String, Map<String, Table>> running)
            throws ConfigurationException {
        Map<String, Map<String, Table>> tables = new LinkedHashMap<>();
        for (KSMetaData ks : keyspaces) {
            if (ks.name().equals(SystemKeyspace.NAME)) continue; // Sibyl's own; not stored in the cluster
            String cqlKeyspace = conf.keyspacePrefix() + ks.name();
            Optional<KeyspaceMetadata> existing = session.getMetadata().getKeyspace(CqlIdentifier.fromInternal(cqlKeyspace));
            String replication = replication(conf, ks);
            if (existing.isEmpty()) {
                session.execute(schemaChange(conf, "CREATE KEYSPACE IF NOT EXISTS " + quote(cqlKeyspace)
                        + " WITH replication = " + replication));
                log.info("Created keyspace {} in the cluster with replication {}", cqlKeyspace, replication);
            } else {
                warnIfReplicationDiffers(existing.get(), cqlKeyspace, replication);
            }
            Map<String, Table> byName = new LinkedHashMap<>();
            for (CFMetaData cf : ks.columnFamilies()) {
                Set<ByteBuffer> added = running == null ? Set.of() : addedEntries(cf,
                        running.getOrDefault(ks.name(), Map.of()).get(cf.name()));
                byName.put(cf.name(), ensureTable(session, conf, cqlKeyspace, cf, added));
            }
            tables.put(ks.name(), byName);
        }
        return tables;
    }

    /** The column_metadata names of {@code cf} that {@code before} (null for none) did not declare. */
    private static Set<ByteBuffer> addedEntries(CFMetaData cf, Table before) {
        Set<ByteBuffer> added = new HashSet<>(cf.validators().columns().keySet());
        if (before != null) added.removeAll(before.metadata().validators().columns().keySet());
        return added;
    }

    /** @param added the declared names whose missing static column is added to an existing table */
    private static Table ensureTable(CqlSession session, ClusterConf conf, String cqlKeyspace, CFMetaData cf,
                                     Set<ByteBuffer> added) throws ConfigurationException {
        String element = ElementPath.columnFamily(cf.keyspace(), cf.name());
        if (!cf.indexes().isEmpty()) {
            throw new ConfigurationException(conf.file(), element + "/Column/@IndexType", "Sibyl does not serve"
                    + " secondary indexes (IndexType of Column) in cluster mode: they are served by the embedded engine"
                    + " only, as the cluster's tables carry no index that answers as 3.11's KEYS indexes do"
                    + " (docs/differences.md)");
        }
        Table table = TableLayouts.of(conf, cqlKeyspace, cf);
        List<StaticColumn> declared = StaticColumns.declared(cf);
        Optional<TableMetadata> existing = session.getMetadata().getKeyspace(CqlIdentifier.fromInternal(cqlKeyspace))
                .flatMap(k -> k.getTable(CqlIdentifier.fromInternal(cf.name())));
        if (existing.isEmpty()) {
            table = table.withStatics(declared);
            session.execute(schemaChange(conf, table.createStatement()));
            log.info("Created table {}.{} in the cluster", cqlKeyspace, cf.name());
            return table;
        }
        List<String> differences = differences(table, existing.get());
        if (!differences.isEmpty()) {
            throw new ConfigurationException(conf.file(), element, "the cluster's table " + cqlKeyspace + "."
                    + cf.name() + " has the layout " + layout(existing.get()) + ", not the " + table.layout()
                    + " this " + cf.columnType() + " column family needs (" + String.join("; ", differences)
                    + "); Sibyl alters no table: drop or rename it, or change the column family");
        }
        return table.withStatics(staticColumns(session, conf, element, table, existing.get(), declared, added));
    }

    /**
     * The declared columns an existing table holds as static columns, detected from its columns rather than assumed:
     * a table made before Sibyl stored declared columns so, or one whose column family gained a column_metadata
     * entry while no node ran, has none for them, and their values stay in (column1, value). While the node runs
     * one of the {@code added} entries gets its column, once the whole table has been checked. A column of a declared
     * column's name that is not a static column of its type, or a static column no entry declares (its values would
     * be hidden), stops the change.
     */
    private static List<StaticColumn> staticColumns(CqlSession session, ClusterConf conf, String element, Table table,
                                                    TableMetadata actual, List<StaticColumn> declared,
                                                    Set<ByteBuffer> added) throws ConfigurationException {
        List<StaticColumn> held = new ArrayList<>();
        List<StaticColumn> missing = new ArrayList<>();
        Set<String> declaredColumns = new HashSet<>();
        for (StaticColumn c : declared) {
            declaredColumns.add(c.column());
            Optional<ColumnMetadata> column = actual.getColumn(CqlIdentifier.fromInternal(c.column()));
            if (column.isEmpty()) {
                if (!added.contains(ByteBuffer.wrap(c.name()))) continue;
                missing.add(c);
            } else if (!column.get().isStatic() || !c.type().matches(typeOf(column.get()))) {
                throw new ConfigurationException(conf.file(), element, "the cluster's table "
                        + table.qualifiedName() + " has the column " + (column.get().isStatic() ? "" : "non-static ")
                        + definition(column.get()) + " where column_metadata's column " + c.column()
                        + " needs " + c.type().cql() + " STATIC; Sibyl alters no column: drop or rename it, or change"
                        + " the column's validation class (docs/configuration.md §Cluster)");
            }
            held.add(c);
        }
        for (ColumnMetadata column : actual.getColumns().values()) {
            if (column.isStatic() && !declaredColumns.contains(column.getName().asInternal())) {
                throw new ConfigurationException(conf.file(), element, "the cluster's table "
                        + table.qualifiedName() + " has the static column " + definition(column) + ", which no"
                        + " column_metadata entry of the column family declares, so its values would be hidden from"
                        + " Thrift clients: declare the column again, or drop it from the table"
                        + " (docs/configuration.md §Cluster)");
            }
        }
        for (StaticColumn c : missing) {
            session.execute(schemaChange(conf, "ALTER TABLE " + table.qualifiedName() + " ADD " + c.definition()));
            log.info("Added static column {} to table {} in the cluster", c.column(), table.qualifiedName());
        }
        return held;
    }

    /**
     * A CREATE statement, given as long as start-up waits for the cluster (ConnectTimeoutInSeconds, at least the
     * request timeout): the driver waits for every node to agree on the new schema, which takes a busy cluster
     * longer than a read or a write.
     */
    private static SimpleStatement schemaChange(ClusterConf conf, String cql) {
        Duration wait = Duration.ofSeconds(conf.connectTimeoutInSeconds());
        Duration request = Duration.ofMillis(conf.requestTimeoutInMillis());
        return SimpleStatement.newInstance(cql).setTimeout(wait.compareTo(request) > 0 ? wait : request);
    }

    /** What differs between the table the column family needs and the one the cluster has, in words. */
    static List<String> differences(Table wanted, TableMetadata actual) {
        List<String> problems = new ArrayList<>();
        List<ColumnMetadata> partitionKey = actual.getPartitionKey();
        if (partitionKey.size() != 1 || !partitionKey.get(0).getName().asInternal().equals("key")
                || !CqlType.BLOB.matches(typeOf(partitionKey.get(0)))) {
            problems.add("partition key is " + describe(partitionKey) + ", not key blob");
        }
        List<Map.Entry<ColumnMetadata, ClusteringOrder>> clustering = new ArrayList<>(
                actual.getClusteringColumns().entrySet());
        List<ClusteringColumn> wantedColumns = wanted.clustering();
        if (clustering.size() != wantedColumns.size()) {
            problems.add("clustering columns are " + describe(clustering.stream().map(Map.Entry::getKey).toList())
                    + ", not " + expected(wantedColumns)
                    + (clustering.size() == 2 && !wanted.isSuper() && wanted.names() == null
                    ? " (a super column family's table?)"
                    : clustering.size() == 1 && wanted.isSuper() ? " (a standard column family's table?)" : ""));
        } else {
            for (int i = 0; i < clustering.size(); i++) {
                ColumnMetadata c = clustering.get(i).getKey();
                ClusteringColumn w = wantedColumns.get(i);
                if (!c.getName().asInternal().equals(w.name()) || !w.type().matches(typeOf(c))) {
                    problems.add("clustering column " + (i + 1) + " is " + c.getName().asInternal() + " "
                            + typeOf(c) + ", not " + w.definition());
                }
                String order = clustering.get(i).getValue() == ClusteringOrder.DESC ? "DESC" : "ASC";
                if (!order.equals(w.order(false))) {
                    problems.add(c.getName().asInternal() + " is ordered " + order + ", not " + w.order(false));
                }
            }
        }
        Optional<ColumnMetadata> value = actual.getColumn(CqlIdentifier.fromInternal("value"));
        CqlType valueType = wanted.valueType();
        if (value.isEmpty() || !valueType.matches(typeOf(value.get()))) {
            problems.add(value.map(v -> "value is " + typeOf(v) + ", not " + valueType.cql())
                    .orElse("it has no value column"));
        }
        return problems;
    }

    private static String expected(List<ClusteringColumn> columns) {
        StringBuilder s = new StringBuilder("(");
        for (int i = 0; i < columns.size(); i++) s.append(i == 0 ? "" : ", ").append(columns.get(i).definition());
        return s.append(')').toString();
    }

    /** The layout of a table of the cluster, as {@link Table#layout()} writes one. */
    private static String layout(TableMetadata table) {
        StringBuilder s = new StringBuilder("(");
        for (ColumnMetadata c : table.getPartitionKey()) s.append(s.length() > 1 ? ", " : "").append(definition(c));
        for (Map.Entry<ColumnMetadata, ClusteringOrder> c : table.getClusteringColumns().entrySet()) {
            s.append(", ").append(definition(c.getKey())).append(c.getValue() == ClusteringOrder.DESC ? " DESC" : "");
        }
        for (ColumnMetadata c : table.getColumns().values()) {
            if (!table.getPrimaryKey().contains(c)) s.append(", ").append(definition(c));
        }
        return s.append(')').toString();
    }

    private static String definition(ColumnMetadata column) {
        return column.getName().asInternal() + " " + typeOf(column);
    }

    private static String describe(List<ColumnMetadata> columns) {
        StringBuilder s = new StringBuilder("(");
        for (int i = 0; i < columns.size(); i++) s.append(i == 0 ? "" : ", ").append(definition(columns.get(i)));
        return s.append(')').toString();
    }

    private static String typeOf(ColumnMetadata column) {
        return column.getType().asCql(false, true);
    }

    /** RackUnawareStrategy: SimpleStrategy with the ReplicationFactor; DatacenterReplication: NetworkTopologyStrategy. */
    static String replication(ClusterConf conf, KSMetaData ks) {
        Optional<Map<String, Integer>> perDc = conf.datacenterReplication(ks.name());
        if (perDc.isEmpty()) {
            return "{'class': 'SimpleStrategy', 'replication_factor': " + ks.replicationFactor() + "}";
        }
        StringBuilder s = new StringBuilder("{'class': 'NetworkTopologyStrategy'");
        perDc.get().forEach((dc, rf) -> s.append(", ").append(literal(dc)).append(": ").append(rf));
        return s.append('}').toString();
    }

    private static void warnIfReplicationDiffers(KeyspaceMetadata existing, String cqlKeyspace, String wanted) {
        Map<String, String> actual = existing.getReplication();
        String cls = actual.getOrDefault("class", "");
        boolean simple = wanted.contains("SimpleStrategy");
        if (simple != cls.endsWith("SimpleStrategy")) {
            log.warn("Keyspace {} exists in the cluster with replication {}; storage-conf.xml asks for {}. Left as it"
                    + " is: change it with ALTER KEYSPACE if the configuration is right", cqlKeyspace, actual, wanted);
        }
    }

    /** A CQL identifier, quoted so that its case is kept. */
    static String quote(String name) {
        return CqlIdentifier.fromInternal(name).asCql(false);
    }

    private static String literal(String s) {
        return "'" + s.replace("'", "''") + "'";
    }
}
