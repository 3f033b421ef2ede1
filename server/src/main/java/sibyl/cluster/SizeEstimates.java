package sibyl.cluster;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * How many rows each range of the ring holds, as the cluster estimates it: every node records, for
 * each table and each of its primary ranges, the partitions its SSTables hold there
 * ({@code system.size_estimates}, refreshed every five minutes, memtables not counted), in a table
 * of its own that only it answers for; so each node is asked. Summed over the given tables: what
 * describe_splits counts, the rows of every column family, as 0.6 counted its samples.
 */
final class SizeEstimates {
    static final String QUERY = "SELECT table_name, range_start, range_end, partitions_count FROM system.size_estimates"
            + " WHERE keyspace_name = ?";

    /** A range (start, end] of the ring, in a numeric partitioner's tokens, with the rows it holds. */
    record RangeEstimate(BigInteger start, BigInteger end, long rows) {
    }

    private SizeEstimates() {
    }

    /**
     * The estimates of the ranges of every node up now, for the tables named (CQL keyspace to table
     * names), sorted by range start. Ranges of a node that is down are missing.
     */
    static List<RangeEstimate> read(CqlSession session, Statements statements, Map<String, Set<String>> tables) {
        List<CompletableFuture<List<Row>>> answers = new ArrayList<>();
        for (Node node : session.getMetadata().getNodes().values()) {
            if (node.getState() != NodeState.UP) continue;
            for (String keyspace : tables.keySet()) {
                BoundStatement query = statements.errors().call(() -> statements.get(QUERY)).bind(keyspace).setNode(node);
                answers.add(AsyncRows.collect(session.executeAsync(query), new AllRows()));
            }
        }
        Map<List<BigInteger>, Long> rows = new TreeMap<>(Comparator.comparing((List<BigInteger> r) -> r.get(0))
                .thenComparing(r -> r.get(1)));
        int i = 0;
        for (Node node : session.getMetadata().getNodes().values()) {
            if (node.getState() != NodeState.UP) continue;
            for (String keyspace : tables.keySet()) {
                Set<String> wanted = tables.get(keyspace);
                for (Row row : statements.errors().join(answers.get(i++))) {
                    if (!wanted.contains(row.getString(0))) continue;
                    List<BigInteger> range = List.of(new BigInteger(row.getString(1)), new BigInteger(row.getString(2)));
                    rows.merge(range, row.getLong(3), Long::sum);
                }
            }
        }
        List<RangeEstimate> estimates = new ArrayList<>(rows.size());
        rows.forEach((range, n) -> estimates.add(new RangeEstimate(range.get(0), range.get(1), n)));
        return estimates;
    }

    private static final class AllRows implements AsyncRows.Sink<List<Row>> {
        private final List<Row> rows = new ArrayList<>();

        @Override
        public boolean accept(Row row) {
            rows.add(row);
            return true;
        }

        @Override
        public List<Row> result() {
            return rows;
        }
    }
}
