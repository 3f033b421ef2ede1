package sibyl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.apache.cassandra.thrift.cassandraConstants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.auth.AuthSettings;
import sibyl.config.ConfigurationException;
import sibyl.config.StorageConf;
import sibyl.config.StorageConfLoader;
import sibyl.fs.ForeignFilesException;
import sibyl.jmx.JmxAgent;

/**
 * The server's entry point, as bin/server runs it:
 * {@code java -cp ... sibyl.SibylServer --home DIR --conf DIR [--pidfile FILE]}, or {@code --version}.
 *
 * <p>Exit codes follow 0.6: 1 for a bad configuration, 3 when the node fails to start.
 */
public final class SibylServer {
    private static final Logger log = LoggerFactory.getLogger(SibylServer.class);

    private SibylServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length == 1 && args[0].equals("--version")) {
            System.out.println(version());
            return;
        }
        Path home = Path.of(".");
        Path conf = null;
        Path pidfile = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--home" -> home = Path.of(value(args, ++i));
                case "--conf" -> conf = Path.of(value(args, ++i));
                case "--pidfile" -> pidfile = Path.of(value(args, ++i));
                default -> usage("unknown argument " + args[i]);
            }
        }
        home = home.toAbsolutePath().normalize();
        conf = (conf == null ? home.resolve("conf") : conf).toAbsolutePath().normalize();

        StorageConf storageConf;
        try {
            storageConf = StorageConfLoader.load(conf.resolve("storage-conf.xml"), home);
        } catch (ConfigurationException e) {
            System.err.println("Bad configuration; unable to start server: " + e.getMessage());
            System.exit(1);
            return;
        }

        SibylNode node;
        try {
            node = SibylNode.start(storageConf, AuthSettings.fromSystemProperties(conf));
        } catch (ConfigurationException e) {
            // cluster mode: the cluster cannot be reached, or does not fit the configuration
            log.error("Sibyl could not start: {}", e.getMessage());
            System.err.println("Bad configuration; unable to start server: " + e.getMessage());
            System.exit(1);
            return;
        } catch (ForeignFilesException e) {
            // Not a failure of the node: its directories hold files it must not touch; the message says which.
            log.error("Sibyl could not start: {}", e.getMessage());
            System.err.println("Sibyl could not start: " + e.getMessage());
            System.exit(3);
            return;
        } catch (Exception e) {
            log.error("Sibyl could not start", e);
            System.err.println("Sibyl could not start: " + e.getMessage());
            System.exit(3);
            return;
        }

        JmxAgent jmx = startJmx(storageConf, node);
        // A reload may add or remove column families: nodetool's cfstats follows.
        if (jmx != null) node.onReload(() -> jmx.update(node.managementBeans()));
        ReloadSignal.install(node);

        CountDownLatch stopped = new CountDownLatch(1);
        Path pid = pidfile;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            log.info("Shutting down");
            if (jmx != null) jmx.close();
            node.close();
            if (pid != null) {
                try {
                    Files.deleteIfExists(pid);
                } catch (Exception ignored) {
                    // best effort: a stale pidfile is harmless once the process is gone
                }
            }
            stopped.countDown();
            log.info("Stopped");
        }, "sibyl-shutdown"));
        // bin/server waits for this exact line before it reports success.
        System.out.println("Sibyl is serving on " + node.thriftAddress().getHostString() + ":"
                + node.thriftAddress().getPort());
        System.out.flush();
        stopped.await();
    }

    /**
     * Serves bin/nodetool on JmxPort (0 turns it off) at ListenAddress. A node that cannot
     * open it still serves clients: management is worth a warning, not an outage.
     */
    private static JmxAgent startJmx(StorageConf conf, SibylNode node) {
        if (conf.jmxPort() == 0) return null;
        String host = conf.listenAddress() == null || conf.listenAddress().isEmpty() ? "localhost" : conf.listenAddress();
        try {
            return JmxAgent.start(host, conf.jmxPort(), node.managementBeans());
        } catch (IOException e) {
            log.warn("JMX unavailable on {}:{} ({}); bin/nodetool cannot reach this node", host, conf.jmxPort(),
                    e.getMessage());
            return null;
        }
    }

    /** What bin/server --version prints: this build's version (from its jar) and the Thrift API it answers. */
    static String version() {
        String built = SibylServer.class.getPackage().getImplementationVersion();
        return "Sibyl " + (built == null ? "(unpackaged build)" : built) + ", Thrift API " + cassandraConstants.VERSION
                + " (Cassandra 0.6), on Java " + Runtime.version();
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) usage("missing value after " + args[i - 1]);
        return args[i];
    }

    private static void usage(String problem) {
        System.err.println(problem + "\nusage: sibyl-server --home DIR [--conf DIR] [--pidfile FILE]");
        System.exit(1);
    }
}
