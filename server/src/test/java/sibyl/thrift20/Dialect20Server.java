package sibyl.thrift20;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import sibyl.auth.Authenticator;
import sibyl.db.CFMetaData;
import sibyl.db.KSMetaData;
import sibyl.db.SystemKeyspace;
import sibyl.db.TestSchema;
import sibyl.db.marshal.BytesType;
import sibyl.dht.Partitioner;
import sibyl.dht.Partitioners;
import sibyl.engine.LocalStorageService;
import sibyl.iface.v20.Cassandra;
import sibyl.service.NodeSchema;
import sibyl.service.SchemaFile;
import sibyl.service.StorageHints;
import sibyl.testing.TestConf;
import sibyl.thrift.NodeDescription;
import sibyl.transport.NetworkLoops;
import sibyl.transport.ThriftServer;
import sibyl.transport.TransportLimits;

/**
 * A ThriftServer serving the 0.7+ dialect alone, through {@link Cassandra20ProcessorFactory}, over an in-memory
 * embedded store of {@link TestSchema#keyspace1()}, on a free local port; clients are the generated 0.7+ bindings
 * over framed transport. Closes its clients, the server and its network loops.
 */
final class Dialect20Server implements AutoCloseable {
    static final String CLUSTER = "Sibyl 0.7 test cluster";
    static final String ENDPOINT = "127.0.0.1";
    static final String TOKEN = "42";

    final Partitioner partitioner = Partitioners.forName("org.apache.cassandra.dht.RandomPartitioner");
    /** A keyspace whose ReplicationFactor one node cannot meet at QUORUM. */
    static final String REPLICATED = "Replicated";
    /**
     * A keyspace whose tables have a default_time_to_live: Standard1 1000 s, Super1 500 s, and Far 400000000 s, which
     * expires past 2038 from any write of today.
     */
    static final String EXPIRING = "Expiring";
    /** The keyspaces "of the file": the API may not change them. */
    final List<KSMetaData> configured = List.of(TestSchema.keyspace1(),
            new KSMetaData(REPLICATED, 3, List.of(CFMetaData.standard(REPLICATED, TestSchema.STD, BytesType.instance))),
            new KSMetaData(EXPIRING, 1, List.of(
                    CFMetaData.standard(EXPIRING, TestSchema.STD, BytesType.instance).withDefaultTimeToLive(1000),
                    CFMetaData.ofSuper(EXPIRING, TestSchema.SUPER, BytesType.instance, BytesType.instance)
                            .withDefaultTimeToLive(500),
                    CFMetaData.standard(EXPIRING, "Far", BytesType.instance).withDefaultTimeToLive(400_000_000))),
            SystemKeyspace.metadata());
    final LocalStorageService engine;
    /** Takes the schema calls; keeps nothing on disk, as the store. */
    final NodeSchema schema;
    final Cassandra20ProcessorFactory factory;
    private final NetworkLoops network = NetworkLoops.open(1);
    private final ThriftServer server;
    private final List<TTransport> transports = new ArrayList<>();

    /**
     * @param deferring whether the store says its reads may wait, so that the calls of a few rows are started on
     *                  the network thread and answered later, as over a cluster
     */
    Dialect20Server(boolean deferring, Authenticator authenticator) throws InterruptedException {
        this(deferring, authenticator, Clock.systemUTC());
    }

    /** @param clock the time the store judges expiring columns by (writes count their ttl from the system clock) */
    Dialect20Server(boolean deferring, Authenticator authenticator, Clock clock) throws InterruptedException {
        engine = new LocalStorageService(partitioner, configured, 128, clock);
        schema = new NodeSchema(TestConf.builder(Path.of("target", "dialect20")).build(), configured,
                SchemaFile.Contents.EMPTY, engine, Optional.empty());
        StorageHints hints = deferring ? new StorageHints() {
            @Override
            public boolean countsReplicas() {
                return false;
            }

            @Override
            public boolean writesMayWait() {
                return true;
            }

            @Override
            public boolean readsMayWait() {
                return true;
            }
        } : engine;
        NodeDescription node = new NodeDescription(CLUSTER, partitioner.className(), TOKEN, ENDPOINT, null);
        factory = new Cassandra20ProcessorFactory(() -> node, Duration.ofSeconds(10), engine, hints, authenticator,
                schema);
        server = new ThriftServer(ENDPOINT, 0, new TransportLimits(1 << 20, 16, 0), network, 2, factory);
        server.start();
    }

    Cassandra.Client client() throws Exception {
        InetSocketAddress address = server.boundAddress();
        TTransport transport = new TFramedTransport(new TSocket(address.getHostString(), address.getPort(), 10_000));
        transport.open();
        transports.add(transport);
        return new Cassandra.Client(new TBinaryProtocol(transport));
    }

    @Override
    public void close() throws Exception {
        for (TTransport t : transports) t.close();
        server.close();
        network.close();
        engine.close();
    }
}
