package sibyl.faults;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import sibyl.jmx.ColumnFamilyStoreMBean;
import sibyl.jmx.StorageServiceMBean;

/**
 * What bin/nodetool does, from a test: a JMX connection to a forked node (whose conf sets
 * ListenAddress 127.0.0.1 and {@link #freePort() a free} JmxPort), with the node's own MBean
 * interfaces as proxies, so an operation's failure arrives as the IOException it threw.
 */
final class NodeJmx implements AutoCloseable {
    private final JMXConnector connector;
    private final MBeanServerConnection connection;

    private NodeJmx(JMXConnector connector) throws IOException {
        this.connector = connector;
        this.connection = connector.getMBeanServerConnection();
    }

    static NodeJmx connect(int port) throws IOException {
        return new NodeJmx(JMXConnectorFactory.connect(
                new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + port + "/jmxrmi")));
    }

    /** A port nothing listens on now, for a node's JmxPort (the node binds it a moment later). */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    StorageServiceMBean storageService() {
        return JMX.newMBeanProxy(connection, name("org.apache.cassandra.service:type=StorageService"),
                StorageServiceMBean.class);
    }

    ColumnFamilyStoreMBean store(String keyspace, String columnFamily) {
        return JMX.newMBeanProxy(connection, name("org.apache.cassandra.db:type=ColumnFamilyStores,keyspace=" + keyspace
                + ",columnfamily=" + columnFamily), ColumnFamilyStoreMBean.class);
    }

    private static ObjectName name(String name) {
        try {
            return new ObjectName(name);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException(name, e);
        }
    }

    @Override
    public void close() throws IOException {
        connector.close();
    }
}
