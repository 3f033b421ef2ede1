package sibyl.cql;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import sibyl.db.CFMetaData;
import sibyl.db.InvalidQueryException;
import sibyl.db.KSMetaData;
import sibyl.service.Consistency;
import sibyl.service.CqlAnswer;
import sibyl.service.CqlPrepared;
import sibyl.service.Schema;
import sibyl.service.StorageService;

/**
 * CQL over Thrift on a store that serves no CQL of its own (the embedded engine): the subset of
 * docs/thrift-api-0.7.md §CQL, SELECT, INSERT, UPDATE and DELETE on the compact-storage view of a standard column
 * family, run as the store's reads and writes. Every refusal is an {@link InvalidQueryException} in a failed future;
 * nothing a client sends makes anything else of it. Prepared statements are kept by id, the most recently used
 * {@value #PREPARED_KEPT}.
 */
public final class LocalCql {
    static final int PREPARED_KEPT = 4096;

    /** A prepared statement: its text and keyspace, its plan, and its markers. */
    private record Prepared(String keyspace, String text, Plan plan) {
    }

    /** A statement checked against its table: what it will run, and what its markers stand for. */
    private record Plan(String keyspace, Action action, Specs specs, int markers) {
        CompletableFuture<CqlAnswer> run(Target target, Bindings values) {
            return action.run(target, values);
        }
    }

    private final StorageService store;
    private final LongSupplier clockMicros;
    private final AtomicLong lastMicros = new AtomicLong();
    private final LinkedHashMap<Integer, Prepared> prepared = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, Prepared> eldest) {
            return size() > PREPARED_KEPT;
        }
    };

    /** Runs statements on {@code store}, timestamps taken from {@code clockMicros} (microseconds since the epoch). */
    public LocalCql(StorageService store, LongSupplier clockMicros) {
        this.store = store;
        this.clockMicros = clockMicros;
    }

    public CompletableFuture<CqlAnswer> execute(String keyspace, String statement, Consistency consistency) {
        try {
            Plan plan = plan(keyspace, statement);
            if (plan.markers() > 0) throw new InvalidQueryException("Invalid amount of bind variables");
            return plan.run(target(plan, consistency), new Bindings(plan.markers(), List.of()));
        } catch (InvalidQueryException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    public CompletableFuture<CqlPrepared> prepare(String keyspace, String statement) {
        try {
            Plan plan = plan(keyspace, statement);
            int id;
            synchronized (prepared) {
                id = (plan.keyspace() + '\u0000' + statement).hashCode();
                while (true) {
                    Prepared known = prepared.get(id);
                    if (known == null || known.text().equals(statement) && known.keyspace().equals(plan.keyspace())) break;
                    id++;
                }
                prepared.put(id, new Prepared(plan.keyspace(), statement, plan));
            }
            return CompletableFuture.completedFuture(new CqlPrepared(id, plan.specs().names(), plan.specs().types()));
        } catch (InvalidQueryException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    public CompletableFuture<CqlAnswer> executePrepared(int id, List<ByteBuffer> values, Consistency consistency) {
        try {
            Prepared p;
            synchronized (prepared) {
                p = prepared.get(id);
            }
            if (p == null) {
                throw new InvalidQueryException("Prepared query with ID " + id + " not found (either the query was not"
                        + " prepared on this host (maybe the host has been restarted?) or you have prepared too many"
                        + " queries and it has been evicted from the internal cache)");
            }
            // The schema may have changed since: the statement is checked again against the table as it is now.
            Plan plan = plan(p.keyspace(), p.text());
            return plan.run(target(plan, consistency), new Bindings(plan.markers(), values));
        } catch (InvalidQueryException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private Target target(Plan plan, Consistency consistency) {
        long now = lastMicros.updateAndGet(last -> Math.max(last + 1, clockMicros.getAsLong()));
        return new Target(store, plan.keyspace(), consistency, now);
    }

    private Plan plan(String connectionKeyspace, String text) {
        Statement statement = Parser.parse(text);
        String keyspace = statement.table().keyspace() != null ? statement.table().keyspace() : connectionKeyspace;
        if (keyspace == null) {
            throw new InvalidQueryException("No keyspace has been specified. USE a keyspace, or explicitly specify"
                    + " keyspace.tablename");
        }
        Schema schema = store.schema();
        KSMetaData ks = schema.keyspace(keyspace)
                .orElseThrow(() -> new InvalidQueryException("Keyspace " + keyspace + " does not exist"));
        CFMetaData cf = ks.columnFamily(statement.table().name())
                .orElseThrow(() -> new InvalidQueryException("unconfigured table " + statement.table().name()));
        CompactView view = CompactView.of(cf);
        Specs specs = new Specs(statement.markers());
        Action plan;
        if (statement instanceof Statement.Select s) plan = SelectPlan.of(s, view, specs);
        else if (statement instanceof Statement.Insert s) plan = WritePlan.insert(s, view, specs);
        else if (statement instanceof Statement.Update s) plan = WritePlan.update(s, view, specs);
        else plan = DeletePlan.of((Statement.Delete) statement, view, specs);
        if (!specs.complete()) throw Parser.notServed("a bind marker in this place");
        return new Plan(keyspace, plan, specs, statement.markers());
    }
}
