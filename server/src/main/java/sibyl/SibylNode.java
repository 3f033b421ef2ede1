package sibyl;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.auth.AuthSettings;
import sibyl.auth.Authenticator;
import sibyl.cluster.ClusterStorageService;
import sibyl.cluster.DriverThreads;
import sibyl.commitlog.CommitLogSettings;
import sibyl.config.ClusterConf;
import sibyl.config.ConfigChange;
import sibyl.config.ConfigurationException;
import sibyl.config.StorageConf;
import sibyl.db.Column;
import sibyl.db.KSMetaData;
import sibyl.db.QueryPath;
import sibyl.db.SystemKeyspace;
import sibyl.dht.Partitioner;
import sibyl.dht.Partitioners;
import sibyl.engine.EngineSettings;
import sibyl.engine.LocalStorageService;
import sibyl.jmx.NodeBeans;
import sibyl.metrics.MetricsRegistry;
import sibyl.metrics.MetricsServer;
import sibyl.metrics.node.NodeMetrics;
import sibyl.service.ConfigReloader;
import sibyl.service.ConfiguredSchema;
import sibyl.service.MeteredStorageService;
import sibyl.service.NodeSchema;
import sibyl.service.NodeToken;
import sibyl.service.Reconfigurable;
import sibyl.service.RequestMetrics;
import sibyl.service.SchemaFile;
import sibyl.service.StorageHints;
import sibyl.service.StorageService;
import sibyl.thrift.CassandraProcessorFactory;
import sibyl.thrift20.Cassandra20ProcessorFactory;
import sibyl.thrift20.DialectSwitchFactory;
import sibyl.thrift20.ThriftDialect;
import sibyl.thrift.NodeDescription;
import sibyl.transport.NetworkLoops;
import sibyl.transport.ThriftServer;
import sibyl.transport.TransportLimits;

/**
 * One Sibyl node, built from its configuration in this one place: read this class to see
 * what a node is made of and in which order it starts and stops.
 */
public final class SibylNode implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SibylNode.class);

    private final ThriftServer thrift;
    /** The network threads, shared by the Thrift server and, in cluster mode, the driver; closed last. */
    private final NetworkLoops network;
    private final ThreadPoolExecutor zeroWrites;
    private final StorageService storage;
    private final AutoCloseable closeStorage;
    private final LocalStorageService local; // null in cluster mode
    private final ClusterStorageService remote; // null unless in cluster mode
    private final RequestMetrics requests;
    private final MetricsServer metrics; // null when MetricsPort is 0 or could not be bound
    private final String clusterName;
    private final String token;
    private final String endpoint;
    private final ConfigReloader reloader;
    /** What the describe calls say of the node; a reload replaces the configuration text. */
    private final AtomicReference<NodeDescription> description;
    private final List<Runnable> reloadListeners = new CopyOnWriteArrayList<>();

    private SibylNode(ThriftServer thrift, NetworkLoops network, ThreadPoolExecutor zeroWrites, StorageService storage,
                      AutoCloseable closeStorage, LocalStorageService local, ClusterStorageService remote,
                      RequestMetrics requests, MetricsServer metrics, String clusterName, String token,
                      String endpoint, ConfigReloader reloader, AtomicReference<NodeDescription> description) {
        this.thrift = thrift;
        this.network = network;
        this.zeroWrites = zeroWrites;
        this.storage = storage;
        this.closeStorage = closeStorage;
        this.local = local;
        this.remote = remote;
        this.requests = requests;
        this.metrics = metrics;
        this.clusterName = clusterName;
        this.token = token;
        this.endpoint = endpoint;
        this.reloader = reloader;
        this.description = description;
    }

    /**
     * Builds the node and starts serving clients; throws if it cannot.
     *
     * @throws ConfigurationException in cluster mode, when the cluster cannot be reached or does not fit the
     *                                configuration (its partitioner, its tables)
     */
    public static SibylNode start(StorageConf conf, AuthSettings auth)
            throws IOException, InterruptedException, ConfigurationException {
        Authenticator authenticator = auth.authenticatorFor(conf.authenticator());
        Partitioner partitioner = Partitioners.forName(conf.partitioner());
        Optional<ClusterConf> cluster = conf.cluster();
        // Made before the storage, as the driver runs its connections on them too: a call whose client connection
        // and driver connection share a loop goes to the cluster and back without waking another thread.
        NetworkLoops network = cluster.isPresent()
                ? NetworkLoops.open(conf.thriftNetworkThreads(), new DriverThreads(NetworkLoops.THREAD_NAME))
                : NetworkLoops.open(conf.thriftNetworkThreads());
        try {
            return start(conf, authenticator, partitioner, cluster, network);
        } catch (IOException | InterruptedException | ConfigurationException | RuntimeException | Error e) {
            network.close();
            throw e;
        }
    }

    /**
     * Refuses a token its partitioner cannot read: one saved under another partitioner (a changed Partitioner over a
     * data directory in which nothing was flushed yet, which the SSTables' own check does not see), or a mistyped
     * InitialToken.
     */
    private static void checkToken(Partitioner partitioner, String token, Path systemDir) throws IOException {
        try {
            partitioner.fromString(token);
        } catch (IllegalArgumentException e) {
            throw new IOException("this node's token " + token + " (saved in " + systemDir.resolve("token")
                    + ", from InitialToken or drawn at the first start) is not a token of " + partitioner.className()
                    + ": " + e.getMessage() + "; it was chosen under another Partitioner, which this data directory"
                    + " still belongs to, or InitialToken is not of this one");
        }
    }

    private static SibylNode start(StorageConf conf, Authenticator authenticator, Partitioner partitioner,
                                   Optional<ClusterConf> cluster, NetworkLoops network)
            throws IOException, InterruptedException, ConfigurationException {
        StorageService storage;
        StorageHints hints;
        Reconfigurable reconfigurable;
        AutoCloseable closeStorage;
        LocalStorageService local = null;
        CommitLogOpener commitLog = null; // the engine's log, opened when the engine asks
        ClusterStorageService remote = null;
        String token;
        // One schema: storage-conf.xml's keyspaces and those made by API, kept in the schema file.
        SchemaFile schemaFile = SchemaFile.of(conf);
        SchemaFile.Contents madeByApi = schemaFile.read();
        List<KSMetaData> configured = ConfiguredSchema.keyspaces(conf);
        List<KSMetaData> keyspaces = NodeSchema.merged(conf.configFile(), configured, madeByApi);
        if (cluster.isPresent()) {
            // Keeps nothing on disk: the cluster holds the data, and every Sibyl node in front of it is alike.
            remote = ClusterStorageService.open(cluster.get(), partitioner, keyspaces,
                    network.group(), network.socketChannelClass());
            storage = remote;
            hints = remote;
            reconfigurable = remote;
            closeStorage = remote;
            token = conf.initialToken() != null ? conf.initialToken()
                    : partitioner.toString(partitioner.getMinimumToken());
        } else {
            // Replays the commit log before anything is served.
            commitLog = new CommitLogOpener(CommitLogSettings.from(conf));
            local = LocalStorageService.open(partitioner, keyspaces, commitLog, EngineSettings.from(conf),
                    madeByApi::droppedAt);
            Path systemDir = conf.dataFileDirectories().get(0).resolve(SystemKeyspace.NAME);
            try {
                // After the storage opened: a Cassandra 0.6 node's token is in its system keyspace's tables.
                token = NodeToken.resolve(conf.initialToken(), conf.partitioner(), systemDir, savedByCassandra06(local));
                checkToken(partitioner, token, systemDir);
            } catch (IOException | RuntimeException e) {
                closeQuietly(local);
                throw e;
            }
            storage = local;
            hints = local;
            reconfigurable = local;
            closeStorage = local;
        }
        NodeSchema schema = new NodeSchema(conf, configured, madeByApi, reconfigurable, Optional.of(schemaFile));
        ThreadPoolExecutor zeroWrites = zeroWriteExecutor();
        String endpoint = endpointAddress(conf.listenAddress());
        // In cluster mode the ring's ranges name the deployment's Sibyl nodes, which 0.6 clients can talk to.
        List<String> ringEndpoints = cluster.map(ClusterConf::thriftEndpoints).filter(e -> !e.isEmpty())
                .orElse(List.of(endpoint));
        AtomicReference<NodeDescription> description = new AtomicReference<>(new NodeDescription(conf.clusterName(),
                conf.partitioner(), token, endpoint, readConfigText(conf.configFile()), ringEndpoints));
        // Requests are counted at the seam, where either backend's pass.
        RequestMetrics requests = new RequestMetrics();
        MeteredStorageService metered = new MeteredStorageService(storage, requests);
        Duration rpcTimeout = Duration.ofMillis(conf.rpcTimeoutInMillis());
        CassandraProcessorFactory processors = new CassandraProcessorFactory(description::get, rpcTimeout, metered,
                hints, authenticator, zeroWrites);
        // Both dialects on the one port, each call in its own (docs/thrift-api-0.7.md §Both dialects on one port).
        DialectSwitchFactory dialects = new DialectSwitchFactory(processors,
                new Cassandra20ProcessorFactory(description::get, rpcTimeout, metered, hints, authenticator,
                        processors.authRefusals(), schema, conf.thriftApiVersion()),
                ThriftDialect.named(conf.thriftDialect()).orElseThrow());

        TransportLimits limits = new TransportLimits(conf.thriftMaxMessageLengthInMB() * 1024 * 1024,
                conf.thriftMaxConnections(), conf.thriftIdleTimeoutInSeconds());
        ThriftServer thrift;
        try {
            thrift = new ThriftServer(thriftBindAddress(conf.thriftAddress()), conf.thriftPort(), limits, network,
                    conf.concurrentReads() + conf.concurrentWrites(), dialects);
            thrift.start();
        } catch (IOException | RuntimeException | InterruptedException e) {
            zeroWrites.shutdownNow();
            closeQuietly(closeStorage);
            throw e;
        }
        MetricsServer metrics = startMetrics(conf, NodeMetrics.registry(requests, Optional.ofNullable(local),
                Optional.ofNullable(commitLog).flatMap(CommitLogOpener::opened), thrift,
                processors.authRefusals()));
        return new SibylNode(thrift, network, zeroWrites, storage, closeStorage, local, remote, requests, metrics,
                conf.clusterName(), token, endpoint, new ConfigReloader(conf, schema), description);
    }

    /** What a Cassandra 0.6 node whose directories these are saved of itself in system.LocationInfo, row "L". */
    private static NodeToken.SavedByCassandra06 savedByCassandra06(LocalStorageService storage) {
        return new NodeToken.SavedByCassandra06(locationInfo(storage, "Token"), Optional.ofNullable(
                locationInfo(storage, "Partitioner")).map(b -> new String(b, StandardCharsets.UTF_8)).orElse(null));
    }

    private static byte[] locationInfo(LocalStorageService storage, String column) {
        QueryPath path = QueryPath.column(SystemKeyspace.LOCATION_INFO, column.getBytes(StandardCharsets.UTF_8));
        return storage.get(SystemKeyspace.NAME, "L", path).map(c -> ((Column) c).value()).orElse(null);
    }

    /**
     * bin/nodetool reloadconf and SIGHUP: reads storage-conf.xml again and applies what changed, all of it or
     * nothing (docs/configuration.md §Reloading without a restart). The node serves on either way; the outcome
     * is logged.
     *
     * @return one line per change applied ({@code element: what changed}); empty when nothing changed
     * @throws ConfigurationException the refusal, naming the file and the element; nothing was applied
     */
    public List<String> reloadConfiguration() throws ConfigurationException, InterruptedException {
        List<ConfigChange> changes = reloader.reload();
        StorageConf now = reloader.running();
        description.updateAndGet(d -> d.withConfigText(readConfigText(now.configFile())));
        if (!changes.isEmpty()) {
            for (Runnable listener : reloadListeners) listener.run();
        }
        return changes.stream().map(ConfigChange::toString).toList();
    }

    /** Runs {@code listener} after each reload that changed something (JMX registers new column families' beans). */
    public void onReload(Runnable listener) {
        reloadListeners.add(listener);
    }

    /** The configuration the node runs with: the one it started with, or the last reload applied. */
    public StorageConf configuration() {
        return reloader.running();
    }

    /**
     * Serves the metrics on MetricsPort (0 turns them off) at ListenAddress, as JMX is served. A node that
     * cannot open the port still serves clients: monitoring is worth a warning, not an outage.
     */
    private static MetricsServer startMetrics(StorageConf conf, MetricsRegistry registry) {
        if (conf.metricsPort() == 0) return null;
        String host = conf.listenAddress() == null || conf.listenAddress().isEmpty() ? "localhost" : conf.listenAddress();
        try {
            return MetricsServer.start(host, conf.metricsPort(), registry);
        } catch (IOException e) {
            log.warn("Metrics unavailable: {}", e.getMessage());
            return null;
        }
    }

    public InetSocketAddress thriftAddress() {
        return thrift.boundAddress();
    }

    /** Where the metrics are served; empty when MetricsPort is 0 or its port could not be bound. */
    public Optional<InetSocketAddress> metricsAddress() {
        return Optional.ofNullable(metrics).map(MetricsServer::boundAddress);
    }

    /** What bin/nodetool sees of this node now, by JMX object name. */
    public Map<String, Object> managementBeans() {
        Map<String, ThreadPoolExecutor> pools = new LinkedHashMap<>();
        pools.put("THRIFT-WORKERS", thrift.workerPool());
        pools.put("ZERO-WRITES", zeroWrites);
        Map<String, Object> beans = new LinkedHashMap<>(local == null
                ? NodeBeans.ofCluster(clusterName, endpoint, remote, requests, pools)
                : NodeBeans.of(clusterName, token, endpoint, local, requests, pools));
        beans.put(NodeBeans.CONFIGURATION, NodeBeans.configuration(reloader.running().configFile(),
                this::reloadConfiguration));
        return beans;
    }

    /**
     * Stops in the order that loses nothing: clients first, then pending ZERO writes, then the log (or the
     * driver's session), then the network threads the session's connections ran on.
     */
    @Override
    public void close() {
        if (metrics != null) metrics.close();
        thrift.close();
        zeroWrites.shutdown();
        try {
            if (!zeroWrites.awaitTermination(10, TimeUnit.SECONDS)) {
                log.warn("Writes at consistency level ZERO still pending after 10 s; abandoning them");
                zeroWrites.shutdownNow();
            }
        } catch (InterruptedException e) {
            zeroWrites.shutdownNow();
            Thread.currentThread().interrupt();
        }
        closeQuietly(closeStorage);
        network.close();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            log.warn("Closing the storage failed: {}", e.toString());
        }
    }

    /**
     * Applies writes sent at consistency level ZERO after they were acknowledged. Bounded, and
     * the caller applies the write itself when it is full, so a flood of ZERO writes slows its
     * senders instead of filling the heap.
     */
    private static ThreadPoolExecutor zeroWriteExecutor() {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(4096), r -> {
                    Thread t = new Thread(r, "zero-writes");
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.CallerRunsPolicy());
        return pool;
    }

    /** The address other nodes know this one by: ListenAddress, resolved; the local host if unset. */
    private static String endpointAddress(String listenAddress) {
        try {
            InetAddress a = listenAddress == null || listenAddress.isEmpty()
                    ? InetAddress.getLocalHost() : InetAddress.getByName(listenAddress);
            return a.getHostAddress();
        } catch (UnknownHostException e) {
            log.warn("ListenAddress {} does not resolve; describe_ring will show it as written", listenAddress);
            return listenAddress == null ? "127.0.0.1" : listenAddress;
        }
    }

    /** ThriftAddress as configured; when absent, this host's own address, as in 0.6. */
    private static String thriftBindAddress(String configured) throws UnknownHostException {
        return configured == null || configured.isEmpty() ? InetAddress.getLocalHost().getHostAddress() : configured;
    }

    private static String readConfigText(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        }
    }
}
