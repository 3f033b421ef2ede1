package sibyl.cluster;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.metadata.Node;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.config.ClusterConf;
import sibyl.config.ConfigurationException;

/** The driver session to the cluster: built from ClusterConf, waiting a bounded time for the cluster. */
final class ClusterConnection implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ClusterConnection.class);
    private static final Duration RETRY_DELAY = Duration.ofSeconds(1);

    private final CqlSession session;

    private ClusterConnection(CqlSession session) {
        this.session = session;
    }

    CqlSession session() {
        return session;
    }

    /**
     * Connects, retrying for at most ConnectTimeoutInSeconds while no contact point answers (a
     * cluster starting together with Sibyl). The driver's connections run on {@code loops}
     * ({@link SharedLoopsNettyOptions}), which closing the session leaves running.
     *
     * @param channelClass the socket channel class {@code loops} serve
     *
     * @throws ConfigurationException naming the contact points and what failed at each, when none answered in
     *                                time; naming LocalDatacenter when the cluster has no such datacenter
     */
    static ClusterConnection connect(ClusterConf conf, EventLoopGroup loops, Class<? extends Channel> channelClass)
            throws ConfigurationException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(conf.connectTimeoutInSeconds()).toNanos();
        DriverConfigLoader config = config(conf);
        SSLContext ssl = conf.trustStore() == null ? null : sslContext(conf);
        String lastFailure;
        while (true) {
            try {
                CqlSessionBuilder builder = new SharedLoopsSessionBuilder(loops, channelClass).withConfigLoader(config)
                        .withLocalDatacenter(conf.localDatacenter());
                for (ClusterConf.ContactPoint p : conf.contactPoints()) {
                    builder.addContactPoint(InetSocketAddress.createUnresolved(p.host(), p.port()));
                }
                if (conf.username() != null) builder.withAuthCredentials(conf.username(), conf.password());
                if (ssl != null) builder.withSslContext(ssl);
                CqlSession session = builder.build();
                checkDatacenter(conf, session);
                log.info("Connected to cluster '{}' through {}: {} node(s)", session.getMetadata().getClusterName()
                        .orElse("?"), conf.contactPoints(), session.getMetadata().getNodes().size());
                return new ClusterConnection(session);
            } catch (AllNodesFailedException e) {
                lastFailure = describe(e);
            } catch (DriverException | IllegalArgumentException e) {
                lastFailure = e.getMessage();
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new ConfigurationException(conf.file(), ClusterConf.CONTACT_POINTS_ELEMENT,
                        "could not reach the cluster at " + conf.contactPoints() + " within "
                                + conf.connectTimeoutInSeconds() + " s (ConnectTimeoutInSeconds): " + lastFailure);
            }
            log.info("The cluster at {} does not answer yet ({}); trying again", conf.contactPoints(), lastFailure);
            Thread.sleep(Math.min(RETRY_DELAY.toMillis(), Math.max(1, left / 1_000_000))); // a retry delay, not a wait for state
        }
    }

    /** What failed at each contact point, one clause each: {@code 127.0.0.1:9042: Connection refused}. */
    private static String describe(AllNodesFailedException e) {
        Map<Node, List<Throwable>> errors = e.getAllErrors();
        if (errors.isEmpty()) return e.getMessage();
        return errors.entrySet().stream()
                .map(en -> address(en.getKey()) + ": " + en.getValue().stream().map(ClusterConnection::reason)
                        .collect(Collectors.joining("; ")))
                .collect(Collectors.joining(", "));
    }

    /** host:port as the contact point was given, without the driver's "/<unresolved>". */
    private static String address(Node node) {
        SocketAddress a = node.getEndPoint().resolve();
        return a instanceof InetSocketAddress i ? i.getHostString() + ":" + i.getPort() : String.valueOf(a);
    }

    /**
     * Why a connection failed. The driver reports a refused connection as "failed to send request
     * (StacklessClosedChannelException)" and keeps the reason (Connection refused, No route to host) as a
     * suppressed exception: that reason when there is one, else the driver's message.
     */
    private static String reason(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            for (Throwable suppressed : t.getSuppressed()) {
                Throwable root = suppressed;
                while (root.getCause() != null) root = root.getCause();
                if (root.getMessage() != null) return root.getMessage();
            }
        }
        return failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
    }

    private static void checkDatacenter(ClusterConf conf, CqlSession session) throws ConfigurationException {
        Set<String> datacenters = new TreeSet<>();
        for (Node n : session.getMetadata().getNodes().values()) {
            if (n.getDatacenter() != null) datacenters.add(n.getDatacenter());
        }
        if (!datacenters.isEmpty() && !datacenters.contains(conf.localDatacenter())) {
            session.close();
            throw new ConfigurationException(conf.file(), "Storage/Cluster/LocalDatacenter", "the cluster has no"
                    + " datacenter '" + conf.localDatacenter() + "'; its datacenters are " + datacenters);
        }
    }

    /** The driver configuration of a session to the cluster {@code conf} names. */
    static DriverConfigLoader config(ClusterConf conf) {
        Duration request = Duration.ofMillis(conf.requestTimeoutInMillis());
        return DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, request)
                .withDuration(DefaultDriverOption.CONNECTION_CONNECT_TIMEOUT, Duration.ofSeconds(5))
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(5))
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(5))
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(30))
                // DDL at start-up waits for every node to agree on the schema
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(30))
                // Schema events are refreshed at once rather than gathered for a second: creating the tables at
                // start-up waits for each refresh in turn.
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_WINDOW, Duration.ofMillis(10))
                .withBoolean(DefaultDriverOption.RECONNECT_ON_INIT, false)
                // A node that is down is tried again after 1 s, 2 s, 4 s, ... but at least every 10 s (the driver's
                // default is 60 s): with the whole cluster down, requests cannot bring it back, only these attempts,
                // so this bounds how long Sibyl goes on refusing calls once the cluster serves again.
                .withDuration(DefaultDriverOption.RECONNECTION_BASE_DELAY, Duration.ofSeconds(1))
                .withDuration(DefaultDriverOption.RECONNECTION_MAX_DELAY, Duration.ofSeconds(10))
                // Every write carries its client's timestamp, so repeating one changes nothing: the driver may
                // retry it on another node when a connection fails.
                .withBoolean(DefaultDriverOption.REQUEST_DEFAULT_IDEMPOTENCE, true)
                .withString(DefaultDriverOption.REQUEST_CONSISTENCY, "ONE")
                .withString(DefaultDriverOption.SESSION_NAME, "sibyl")
                // The driver still builds an I/O group of its own, which no connection uses (they run on the node's
                // network loops): one thread's worth, let go at once on close.
                .withInt(DefaultDriverOption.NETTY_IO_SIZE, 1)
                .withInt(DefaultDriverOption.NETTY_IO_SHUTDOWN_QUIET_PERIOD, 0)
                // advanced.connection.pool.local.size stays 1: the requests of all the network loops coalesce into
                // that connection's writes. A connection per loop cost Sibyl 10-20% more CPU per call (32 blocking
                // clients, 2 loops): the driver gives a request the least busy connection, not its own loop's, so
                // it saved no hand-off and split the writes.
                .build();
    }

    private static SSLContext sslContext(ClusterConf conf) throws ConfigurationException {
        char[] password = conf.trustStorePassword() == null ? null : conf.trustStorePassword().toCharArray();
        try {
            KeyStore store = KeyStore.getInstance(conf.trustStore().toFile(), password);
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, tmf.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigurationException(conf.file(), "Storage/Cluster/TrustStore", "cannot load trust store "
                    + conf.trustStore() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        session.close();
    }
}
