package sibyl.jmx;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.rmi.NoSuchObjectException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.RMIServerSocketFactory;
import java.rmi.server.UnicastRemoteObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;
import javax.management.remote.rmi.RMIConnectorServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the platform MBean server over JMX/RMI on one port, the way 0.6's launch script
 * exposed it for nodetool: {@code service:jmx:rmi:///jndi/rmi://HOST:PORT/jmxrmi}, no
 * authentication. Registry and connector share the port, so one firewall rule covers both,
 * and listen only on {@code host}.
 */
public final class JmxAgent implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(JmxAgent.class);

    private final MBeanServer server;
    private final List<ObjectName> registered;
    private final Registry registry;
    private final JMXConnectorServer connector;

    private JmxAgent(MBeanServer server, List<ObjectName> registered, Registry registry, JMXConnectorServer connector) {
        this.server = server;
        this.registered = registered;
        this.registry = registry;
        this.connector = connector;
    }

    /**
     * Registers {@code beans} (object name to MBean) in the platform MBean server and serves it
     * on {@code host:port}.
     *
     * @throws IOException when the port cannot be bound
     */
    public static JmxAgent start(String host, int port, Map<String, Object> beans) throws IOException {
        // RMI hands clients a stub naming the host to call back; unless told otherwise it names
        // this machine's primary address, where nothing listens when host is the loopback.
        if (System.getProperty("java.rmi.server.hostname") == null) System.setProperty("java.rmi.server.hostname", host);
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        List<ObjectName> registered = new ArrayList<>();
        Registry registry = null;
        try {
            for (Map.Entry<String, Object> bean : beans.entrySet()) {
                ObjectName name = new ObjectName(bean.getKey());
                server.registerMBean(bean.getValue(), name);
                registered.add(name);
            }
            BoundSocketFactory sockets = new BoundSocketFactory(InetAddress.getByName(host));
            registry = LocateRegistry.createRegistry(port, null, sockets);
            Map<String, Object> env = new HashMap<>();
            env.put(RMIConnectorServer.RMI_SERVER_SOCKET_FACTORY_ATTRIBUTE, sockets);
            JMXServiceURL url = new JMXServiceURL("service:jmx:rmi://" + host + ":" + port
                    + "/jndi/rmi://" + host + ":" + port + "/jmxrmi");
            JMXConnectorServer connector = JMXConnectorServerFactory.newJMXConnectorServer(url, env, server);
            connector.start();
            log.info("JMX (bin/nodetool) on {}:{}", host, port);
            return new JmxAgent(server, registered, registry, connector);
        } catch (JMException e) {
            unregister(server, registered);
            unexport(registry);
            throw new IOException("cannot register management beans: " + e.getMessage(), e);
        } catch (IOException | RuntimeException e) {
            unregister(server, registered);
            unexport(registry);
            throw e;
        }
    }

    /**
     * After a reload changed the column families: registers the beans of {@code beans} (object name to MBean,
     * as for {@link #start}) not registered yet and unregisters those of this agent no longer among them, so
     * nodetool's cfstats shows the column families served now. A bean that cannot be registered is logged.
     */
    public synchronized void update(Map<String, Object> beans) {
        List<ObjectName> gone = new ArrayList<>(registered);
        for (Map.Entry<String, Object> bean : beans.entrySet()) {
            try {
                ObjectName name = new ObjectName(bean.getKey());
                if (gone.remove(name)) continue;
                server.registerMBean(bean.getValue(), name);
                registered.add(name);
            } catch (JMException e) {
                log.warn("Cannot register management bean {}: {}", bean.getKey(), e.getMessage());
            }
        }
        unregister(server, gone);
        registered.removeAll(gone);
    }

    @Override
    public synchronized void close() {
        try {
            connector.stop();
        } catch (IOException e) {
            log.warn("Stopping the JMX connector: {}", e.getMessage());
        }
        unexport(registry);
        unregister(server, registered);
    }

    private static void unregister(MBeanServer server, List<ObjectName> names) {
        for (ObjectName name : names) {
            try {
                server.unregisterMBean(name);
            } catch (JMException e) {
                log.debug("Unregistering {}: {}", name, e.getMessage());
            }
        }
    }

    private static void unexport(Registry registry) {
        if (registry == null) return;
        try {
            UnicastRemoteObject.unexportObject(registry, true);
        } catch (NoSuchObjectException e) {
            // already gone
        }
    }

    /**
     * Listens on one address. Equal factories let RMI put the registry and the connector on
     * the same listening socket.
     */
    private record BoundSocketFactory(InetAddress address) implements RMIServerSocketFactory {
        @Override
        public ServerSocket createServerSocket(int port) throws IOException {
            return new ServerSocket(port, 50, address);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof BoundSocketFactory f && Objects.equals(address, f.address);
        }

        @Override
        public int hashCode() {
            return address.hashCode();
        }
    }
}
