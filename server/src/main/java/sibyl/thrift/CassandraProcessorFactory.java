package sibyl.thrift;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.apache.thrift.TProcessor;
import sibyl.auth.Authenticator;
import sibyl.db.RowMutation;
import sibyl.service.Consistency;
import sibyl.service.StorageHints;
import sibyl.service.StorageService;
import sibyl.transport.ConnectionContext;
import sibyl.transport.ProcessorFactory;

/**
 * Gives each connection its own handler and login state over the shared descriptions of the
 * schema and the node and the one storage service. The schema's views follow the storage's schema
 * as a reload replaces it ({@link SchemaViews}); the node's description is asked for at each call.
 *
 * <p>{@code background} runs writes at consistency level ZERO, which are acknowledged
 * before they are applied, of the calls run on workers; its owner shuts it down after the
 * transport. Those of calls started on a network thread hold no thread ({@link UnacknowledgedWrites}).
 */
public final class CassandraProcessorFactory implements ProcessorFactory {
    /**
     * Calls that describe the node from what it holds in memory: quick. describe_splits walks index entries and
     * goes to the workers, as does login (an authenticator may read files). Calls that read one key or a few are
     * quick while the store reads from memory or the page cache, never when it asks another server
     * ({@link StorageHints#readsMayWait}); range scans walk many rows and go to the workers. Writes are quick while
     * the store says they don't wait (periodic commit log, flushes keeping up).
     */
    private static final QuickCalls QUICK = new QuickCalls(Set.of("describe_keyspace", "describe_keyspaces",
            "describe_cluster_name", "describe_version", "describe_ring", "get_string_property",
            "get_string_list_property"), Set.of("get", "get_slice", "multiget", "multiget_slice", "get_count"),
            Set.of("insert", "batch_insert", "remove", "batch_mutate"));
    /** The calls of one or a few rows, which a store that asks another server answers later. */
    private static final Set<String> DEFERRED = Set.of("get", "get_slice", "multiget", "multiget_slice", "insert",
            "batch_insert", "remove", "batch_mutate");
    /**
     * ZERO writes of calls started on the network threads that may await the store at once; past that, calls wait
     * for theirs. Half of what the cluster driver takes on one connection (its max-requests-per-connection, 1024),
     * so that a flood of them is slowed, rather than refused by the driver (which would lose them) and leaving
     * other calls no room.
     */
    static final int MAX_UNACKNOWLEDGED_WRITES = 512;
    /** A ZERO write handed to {@code background}: the call may be answered at once. Nothing completes it again. */
    private static final CompletableFuture<Void> APPLIED_LATER = CompletableFuture.completedFuture(null);

    private final SchemaViews views;
    private final Supplier<NodeDescription> node;
    private final Authenticator authenticator;
    private final StorageService storage;
    private final StorageHints hints;
    private final Executor background;
    private final UnacknowledgedWrites unacknowledged = new UnacknowledgedWrites(MAX_UNACKNOWLEDGED_WRITES);
    private final long rpcTimeoutMillis;
    private final AuthRefusals authRefusals = new AuthRefusals();

    /**
     * @param node       what the describe calls say of this node now
     * @param rpcTimeout RpcTimeoutInMillis: how long a call waits for its answer before TimedOutException
     * @param hints      what the store says of its answers: whether calls may run on the network threads
     * @param background runs writes at consistency level ZERO after their call has returned
     */
    public CassandraProcessorFactory(Supplier<NodeDescription> node, Duration rpcTimeout, StorageService storage,
                                     StorageHints hints, Authenticator authenticator, Executor background) {
        this.views = new SchemaViews(storage);
        this.background = background;
        this.rpcTimeoutMillis = rpcTimeout.toMillis();
        this.node = node;
        this.storage = storage;
        this.hints = hints;
        this.authenticator = authenticator;
    }

    /** Calls refused by authentication and access control, over every connection this factory served. */
    public AuthRefusals authRefusals() {
        return authRefusals;
    }

    @Override
    public boolean isQuick(String method) {
        return QUICK.isQuick(method, hints);
    }

    @Override
    public TProcessor newProcessor(ConnectionContext connection) {
        ConnectionSession session = new ConnectionSession(authenticator);
        connection.onClose(session::clear);
        // A store that asks another server answers the calls of a few rows later: they hold no thread meanwhile,
        // nor do their ZERO writes.
        boolean deferring = hints.readsMayWait();
        CassandraHandler.ZeroWrites zeroWrites = deferring
                ? m -> unacknowledged.start(m, () -> storage.write(m, Consistency.ZERO))
                : this::applyInBackground;
        CassandraHandler handler = new CassandraHandler(views, node, authenticator, session, storage, hints,
                zeroWrites, rpcTimeoutMillis, authRefusals);
        return CassandraCalls.TABLE.connectionProcessor(handler, DEFERRED, deferring);
    }

    /**
     * A ZERO write of a call run on a thread that may wait: applied by {@code background}, whose queue, when full,
     * has the caller apply it, so that a flood of them slows its senders. A failure can only be logged.
     */
    private CompletableFuture<Void> applyInBackground(RowMutation m) {
        background.execute(() -> storage.write(m, Consistency.ZERO).whenComplete((none, failure) -> {
            if (failure != null) UnacknowledgedWrites.lost(m, failure);
        }));
        return APPLIED_LATER;
    }
}
