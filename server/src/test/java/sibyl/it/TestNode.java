package sibyl.it;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import javax.management.DynamicMBean;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import sibyl.SibylNode;
import sibyl.auth.AuthSettings;
import sibyl.config.StorageConf;
import sibyl.config.StorageConfLoader;

/**
 * A real node for integration tests: the shipped conf/storage-conf.xml (optionally edited),
 * installed into a temporary directory so its relative var/ directories land there, bound
 * to a free port. Clients connect over real sockets with the generated bindings.
 */
public final class TestNode implements AutoCloseable {
    /** Where a test node stores: its embedded engine, or the shared local Cassandra (cluster mode). */
    public enum Backend {
        EMBEDDED, CLUSTER;

        /**
         * The backends the semantic suites run against: all, unless {@code -Dsibyl.backends=embedded}
         * (or {@code cluster}) names fewer.
         */
        public static List<Backend> underTest() {
            String names = System.getProperty("sibyl.backends", "embedded,cluster");
            List<Backend> backends = new ArrayList<>();
            for (String name : names.split(",")) {
                if (!name.isBlank()) backends.add(valueOf(name.trim().toUpperCase(java.util.Locale.ROOT)));
            }
            return backends;
        }
    }

    private static final java.util.concurrent.atomic.AtomicInteger CLUSTER_NODES =
            new java.util.concurrent.atomic.AtomicInteger();

    /** For {@code @MethodSource("sibyl.it.TestNode#backends")} of the suites run against every backend. */
    public static List<Backend> backends() {
        return Backend.underTest();
    }

    private final SibylNode node;
    private final Path confDir;
    private final List<TTransport> transports = new ArrayList<>();

    private TestNode(SibylNode node, Path confDir) {
        this.node = node;
        this.confDir = confDir;
    }

    public static Path shippedConfDir() {
        return Path.of(System.getProperty("sibyl.home", "..")).resolve("conf");
    }

    public static TestNode start(Path installDir) throws Exception {
        return start(installDir, UnaryOperator.identity());
    }

    /** Starts a node whose storage-conf.xml is the shipped one passed through {@code edit} ({@link ConfEdits}). */
    public static TestNode start(Path installDir, UnaryOperator<String> edit) throws Exception {
        return start(Backend.EMBEDDED, installDir, edit, null);
    }

    /**
     * As {@link #start(Path, UnaryOperator)}, storing with {@code backend}, with SimpleAuthenticator's password
     * mode (PLAIN, MD5, or null for the default); its files are the shipped ones copied into {@link #confDir()}.
     */
    public static TestNode start(Backend backend, Path installDir, UnaryOperator<String> edit, String passwordMode)
            throws Exception {
        UnaryOperator<String> stored = backend == Backend.CLUSTER ? ConfEdits.all(edit, inSharedCluster()) : edit;
        Path conf = Files.createDirectories(installDir.resolve("conf"));
        String xml = Files.readString(shippedConfDir().resolve("storage-conf.xml"))
                .replaceFirst("<ThriftPort>\\d+</ThriftPort>", "<ThriftPort>0</ThriftPort>")
                .replaceFirst("<ThriftAddress>[^<]*</ThriftAddress>", "<ThriftAddress>127.0.0.1</ThriftAddress>");
        Path file = Files.writeString(conf.resolve("storage-conf.xml"), stored.apply(xml));
        for (String f : List.of("passwd.properties", "access.properties")) {
            Files.copy(shippedConfDir().resolve(f), conf.resolve(f), StandardCopyOption.REPLACE_EXISTING); // restarts reuse the dir
        }
        StorageConf storageConf = StorageConfLoader.load(file, installDir);
        return new TestNode(SibylNode.start(storageConf, new AuthSettings(
                conf.resolve("passwd.properties"), conf.resolve("access.properties"), passwordMode)), conf);
    }

    /**
     * A config edit storing into the shared local Cassandra ({@link LocalCassandra#shared()}), under
     * keyspaces of a prefix no other node of this run uses, so every test node starts empty.
     */
    private static UnaryOperator<String> inSharedCluster() throws Exception {
        LocalCassandra cassandra = LocalCassandra.shared();
        String prefix = "t" + ProcessHandle.current().pid() + "_" + CLUSTER_NODES.incrementAndGet() + "_";
        return ConfEdits.inCluster(cassandra.contactPoint(1), prefix);
    }

    public int port() {
        return node.thriftAddress().getPort();
    }

    /** Where the node serves its metrics (MetricsPort); empty when it does not. */
    public Optional<InetSocketAddress> metricsAddress() {
        return node.metricsAddress();
    }

    public Path confDir() {
        return confDir;
    }

    /**
     * An attribute of a management bean, as bin/nodetool reads it, e.g.
     * {@code attribute("org.apache.cassandra.db:type=ColumnFamilyStores,keyspace=Keyspace1,columnfamily=Standard1", "KeyCacheSize")}.
     */
    public Object attribute(String objectName, String attribute) throws Exception {
        Object bean = node.managementBeans().get(objectName);
        if (bean == null) throw new IllegalArgumentException("no bean " + objectName);
        return ((DynamicMBean) bean).getAttribute(attribute);
    }

    /** Invokes an operation of a management bean with arguments of the types of the values given. */
    public Object invoke(String objectName, String operation, Object... arguments) throws Exception {
        String[] signature = new String[arguments.length];
        for (int i = 0; i < arguments.length; i++) signature[i] = arguments[i].getClass().getName();
        return ((DynamicMBean) node.managementBeans().get(objectName)).invoke(operation, arguments, signature);
    }

    /** An open unframed client; closed with the node. */
    public Cassandra.Client client() throws Exception {
        return client(false);
    }

    /** An open client, framed or not; closed with the node. */
    public synchronized Cassandra.Client client(boolean framed) throws Exception {
        TTransport t = new TSocket("127.0.0.1", port(), 10_000);
        if (framed) t = new TFramedTransport(t);
        t.open();
        transports.add(t);
        return new Cassandra.Client(new TBinaryProtocol(t));
    }

    @Override
    public synchronized void close() {
        transports.forEach(TTransport::close);
        node.close();
    }
}
