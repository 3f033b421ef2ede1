package sibyl.thrift20;

import java.time.Duration;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.thrift.TProcessor;
import sibyl.auth.Authenticator;
import sibyl.iface.v20.cassandra_0_7Constants;
import sibyl.service.SchemaEditor;
import sibyl.service.StorageHints;
import sibyl.service.StorageService;
import sibyl.thrift.AuthRefusals;
import sibyl.thrift.ConnectionSession;
import sibyl.thrift.QuickCalls;
import sibyl.thrift.NodeDescription;
import sibyl.thrift.SchemaCache;
import sibyl.transport.ConnectionContext;
import sibyl.transport.ProcessorFactory;

/**
 * Serves the 0.7+ dialect (API 20.1.0): gives each connection its own handler, keyspace and login state over the
 * shared views of the schema ({@link SchemaCache}), the node's description (asked for at each call) and the one
 * storage service. The dialect has no consistency level that acknowledges a write before it is applied (ANY waits
 * for the store as every other level does), so unlike the 0.6 factory this one needs no executor for such writes.
 */
public final class Cassandra20ProcessorFactory implements ProcessorFactory {
    /**
     * Calls answered from what the node holds in memory are quick (splits walk index entries; login reads files);
     * those of one key or a few while the store reads locally; writes while the store says they don't wait.
     */
    private static final QuickCalls QUICK = new QuickCalls(Set.of("describe_keyspace", "describe_keyspaces",
            "describe_cluster_name", "describe_version", "describe_ring", "describe_local_ring",
            "describe_token_map", "describe_partitioner", "describe_snitch", "describe_schema_versions",
            "set_keyspace", "set_cql_version", "trace_next_query"),
            Set.of("get", "get_slice", "multiget_slice", "get_count", "multiget_count"),
            Set.of("insert", "remove", "batch_mutate", "atomic_batch_mutate"));
    /** The calls of one or a few rows, which a store that asks another server answers later. */
    private static final Set<String> DEFERRED = Set.of("get", "get_slice", "multiget_slice", "insert", "remove",
            "batch_mutate", "atomic_batch_mutate");

    private final HandlerContext shared;

    /**
     * @param node       what the describe calls say of this node now
     * @param rpcTimeout RpcTimeoutInMillis: how long a call waits for its answer before TimedOutException
     * @param hints      what the store says of its answers: whether calls may run on the network threads
     */
    public Cassandra20ProcessorFactory(Supplier<NodeDescription> node, Duration rpcTimeout, StorageService storage,
                                       StorageHints hints, Authenticator authenticator, SchemaEditor schemaEditor) {
        this(node, rpcTimeout, storage, hints, authenticator, new AuthRefusals(), schemaEditor,
                cassandra_0_7Constants.VERSION);
    }

    /**
     * @param refusals     counts this dialect's refusals, with the 0.6 dialect's when the node shares one
     * @param schemaEditor takes the schema calls (system_add_keyspace and the like)
     * @param apiVersion   what describe_version answers (ThriftApiVersion)
     */
    public Cassandra20ProcessorFactory(Supplier<NodeDescription> node, Duration rpcTimeout, StorageService storage,
                                       StorageHints hints, Authenticator authenticator, AuthRefusals refusals,
                                       SchemaEditor schemaEditor, String apiVersion) {
        SchemaCache<SchemaView> views = new SchemaCache<>(storage, schema -> SchemaView.of(schema,
                storage.partitioner()));
        this.shared = new HandlerContext(views, node, authenticator, storage, hints, rpcTimeout.toMillis(),
                refusals, schemaEditor, apiVersion);
    }

    /** Calls of this dialect refused by authentication and access control, over every connection it served. */
    public AuthRefusals authRefusals() {
        return shared.refusals();
    }

    /** Whether the dialect has a method of this name. */
    public static boolean serves(String method) {
        return Cassandra20Calls.TABLE.exists(method);
    }

    @Override
    public boolean isQuick(String method) {
        return QUICK.isQuick(method, shared.hints());
    }

    @Override
    public TProcessor newProcessor(ConnectionContext connection) {
        ConnectionSession session = new ConnectionSession(shared.authenticator());
        connection.onClose(session::clear);
        // A store that asks another server answers the calls of a few rows later: they hold no thread meanwhile.
        return Cassandra20Calls.TABLE.connectionProcessor(new Cassandra20Handler(shared, session), DEFERRED,
                shared.hints().readsMayWait());
    }
}
