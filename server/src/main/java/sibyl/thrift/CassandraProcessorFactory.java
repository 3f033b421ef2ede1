package sibyl.thrift;

import java.util.concurrent.Executor;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.thrift.TProcessor;
import sibyl.auth.Authenticator;
import sibyl.config.StorageConf;
import sibyl.service.StorageService;
import sibyl.transport.ConnectionContext;
import sibyl.transport.ProcessorFactory;

/**
 * Gives each connection its own handler and login state over the shared, immutable
 * descriptions of the schema and the node and the one storage service.
 *
 * <p>{@code background} runs writes at consistency level ZERO, which are acknowledged
 * before they are applied; its owner shuts it down after the transport.
 */
public final class CassandraProcessorFactory implements ProcessorFactory {
    private final SchemaDescription schema;
    private final NodeDescription node;
    private final Authenticator authenticator;
    private final StorageService storage;
    private final ThriftValidation validation;
    private final Executor background;
    private final long rpcTimeoutMillis;

    /**
     * @param token      this node's token
     * @param endpoint   the address this node is known by on the ring
     * @param configText the text of storage-conf.xml, or null if unreadable
     */
    public CassandraProcessorFactory(StorageConf conf, StorageService storage, Authenticator authenticator,
                                     Executor background, String token, String endpoint, String configText) {
        this.validation = new ThriftValidation(storage);
        this.background = background;
        this.rpcTimeoutMillis = conf.rpcTimeoutInMillis();
        this.schema = new SchemaDescription(storage.keyspaces());
        this.node = new NodeDescription(conf.clusterName(), conf.partitioner(), token, endpoint, configText);
        this.storage = storage;
        this.authenticator = authenticator;
    }

    @Override
    public TProcessor newProcessor(ConnectionContext connection) {
        ConnectionSession session = new ConnectionSession(authenticator);
        connection.onClose(session::clear);
        return new Cassandra.Processor<>(new CassandraHandler(schema, node, authenticator, session, storage,
                validation, background, rpcTimeoutMillis));
    }
}
