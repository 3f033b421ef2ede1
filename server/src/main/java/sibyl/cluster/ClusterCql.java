package sibyl.cluster;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.ColumnDefinitions;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.schema.ColumnMetadata;
import com.datastax.oss.driver.api.core.type.DataType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import sibyl.db.InvalidQueryException;
import sibyl.service.Consistency;
import sibyl.service.CqlAnswer;
import sibyl.service.CqlPrepared;

/**
 * CQL over Thrift on the cluster (docs/thrift-api-0.7.md §CQL): a statement runs in the cluster as written, its
 * unqualified tables in the CQL keyspace of the connection's keyspace, and its rows, every page of them, come back
 * with their types named as 3.11 names them ({@link CqlTypeNames}). Prepared statements are kept here by the id
 * Thrift clients name them by, the most recently used {@value #PREPARED_KEPT} of them, as 3.11 kept a bounded cache.
 */
final class ClusterCql {
    static final int PREPARED_KEPT = 4096;

    private record Prepared(int id, PreparedStatement statement) {
    }

    private final CqlSession session;
    private final ClusterErrors errors;
    private final String keyspacePrefix;
    /** By id, least recently used first; guarded by itself, as is {@link #byText}. */
    private final LinkedHashMap<Integer, Prepared> byId = new LinkedHashMap<>(16, 0.75f, true);
    /** The id of each statement text prepared in a keyspace, so that preparing it again gives the same id. */
    private final Map<String, Integer> byText = new HashMap<>();
    private int nextId = 1;

    ClusterCql(CqlSession session, ClusterErrors errors, String keyspacePrefix) {
        this.session = session;
        this.errors = errors;
        this.keyspacePrefix = keyspacePrefix;
    }

    CompletableFuture<CqlAnswer> execute(String keyspace, String statement, Consistency consistency) {
        SimpleStatement s = inKeyspace(SimpleStatement.newInstance(statement), keyspace)
                .setConsistencyLevel(ConsistencyLevels.write(consistency));
        return errors.async(() -> session.executeAsync(s)).thenCompose(this::answer);
    }

    CompletableFuture<CqlPrepared> prepare(String keyspace, String statement) {
        SimpleStatement s = inKeyspace(SimpleStatement.newInstance(statement), keyspace);
        String text = keyspace + "\u0000" + statement;
        return errors.async(() -> session.prepareAsync(s)).thenApply(prepared -> {
            int id = kept(text, prepared);
            List<String> names = new ArrayList<>();
            List<String> types = new ArrayList<>();
            for (ColumnDefinition d : prepared.getVariableDefinitions()) {
                names.add(d.getName().asInternal());
                types.add(CqlTypeNames.of(d.getType()));
            }
            return new CqlPrepared(id, names, types);
        });
    }

    CompletableFuture<CqlAnswer> executePrepared(int id, List<ByteBuffer> values, Consistency consistency) {
        Prepared prepared;
        synchronized (byId) {
            prepared = byId.get(id);
        }
        if (prepared == null) {
            return CompletableFuture.failedFuture(new InvalidQueryException("Prepared query with ID " + id
                    + " not found (either the query was not prepared on this host (maybe the host has been"
                    + " restarted?) or you have prepared too many queries and it has been evicted from the internal"
                    + " cache)"));
        }
        ColumnDefinitions markers = prepared.statement().getVariableDefinitions();
        if (markers.size() != values.size()) {
            return CompletableFuture.failedFuture(new InvalidQueryException("there were " + markers.size()
                    + " markers(?) in CQL but " + values.size() + " bound variables"));
        }
        BoundStatementBuilder bound = prepared.statement().boundStatementBuilder();
        for (int i = 0; i < values.size(); i++) bound.setBytesUnsafe(i, values.get(i));
        bound.setConsistencyLevel(ConsistencyLevels.write(consistency));
        return errors.async(() -> session.executeAsync(bound.build())).thenCompose(this::answer);
    }

    private SimpleStatement inKeyspace(SimpleStatement s, String keyspace) {
        return keyspace == null ? s : s.setKeyspace(CqlIdentifier.fromInternal(keyspacePrefix + keyspace));
    }

    /** Keeps {@code prepared} under the id of its text, a fresh one unless it was kept already; forgets the oldest. */
    private int kept(String text, PreparedStatement prepared) {
        synchronized (byId) {
            Integer id = byText.get(text);
            if (id == null) {
                id = nextId++;
                byText.put(text, id);
            }
            byId.put(id, new Prepared(id, prepared));
            if (byId.size() > PREPARED_KEPT) {
                Map.Entry<Integer, Prepared> eldest = byId.entrySet().iterator().next();
                byId.remove(eldest.getKey());
                byText.values().remove(eldest.getKey());
            }
            return id;
        }
    }

    /** The answer of a statement: nothing, or every row of every page. */
    private CompletableFuture<CqlAnswer> answer(AsyncResultSet first) {
        ColumnDefinitions columns = first.getColumnDefinitions();
        if (columns.size() == 0) return CompletableFuture.completedFuture(CqlAnswer.NOTHING);
        List<String> names = new ArrayList<>(columns.size());
        List<String> types = new ArrayList<>(columns.size());
        for (ColumnDefinition d : columns) {
            names.add(d.getName().asInternal());
            types.add(CqlTypeNames.of(declared(d)));
        }
        List<List<ByteBuffer>> rows = new ArrayList<>();
        return pages(first, columns.size(), rows).thenApply(done -> CqlAnswer.rows(names, types, rows));
    }

    /**
     * The type of a column as its table declares it, which says whether a collection is frozen (the protocol's
     * column metadata does not); the metadata's type for what is no table's column (count(*), writetime(v)).
     */
    private DataType declared(ColumnDefinition d) {
        return session.getMetadata().getKeyspace(d.getKeyspace()).flatMap(ks -> ks.getTable(d.getTable()))
                .flatMap(t -> t.getColumn(d.getName())).map(ColumnMetadata::getType).orElse(d.getType());
    }

    private CompletableFuture<Void> pages(AsyncResultSet page, int width, List<List<ByteBuffer>> rows) {
        for (Row row : page.currentPage()) {
            List<ByteBuffer> values = new ArrayList<>(width);
            for (int i = 0; i < width; i++) values.add(row.getBytesUnsafe(i));
            rows.add(values);
        }
        if (!page.hasMorePages()) return CompletableFuture.completedFuture(null);
        return errors.async(page::fetchNextPage).thenCompose(next -> pages(next, width, rows));
    }
}
