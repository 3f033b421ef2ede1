package sibyl.client.nodetool;

import java.io.IOException;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.management.AttributeNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A JMX connection to one node and typed reads of the beans nodetool shows. Beans are found by
 * 0.6's object names and read by attribute name, so nodetool needs none of the server's classes.
 */
final class NodeProbe implements AutoCloseable {
    static final String STORAGE_SERVICE = "org.apache.cassandra.service:type=StorageService";
    static final String COLUMN_FAMILIES = "org.apache.cassandra.db:type=ColumnFamilyStores,*";
    static final String THREAD_POOLS = "org.apache.cassandra.concurrent:type=*";
    /** Sibyl's own bean: the node's storage-conf.xml and its reload. */
    static final String CONFIGURATION = "sibyl:type=Configuration";

    private final JMXConnector connector;
    private final MBeanServerConnection server;

    private NodeProbe(JMXConnector connector) throws IOException {
        this.connector = connector;
        this.server = connector.getMBeanServerConnection();
    }

    static NodeProbe connect(String host, int port) throws IOException {
        JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + host + ":" + port + "/jmxrmi");
        return new NodeProbe(JMXConnectorFactory.connect(url));
    }

    Object attribute(ObjectName bean, String name) throws IOException, JMException {
        return server.getAttribute(bean, name);
    }

    /** The attribute, or null when the bean has no such attribute (an older or other server). */
    Object optionalAttribute(ObjectName bean, String name) throws IOException, JMException {
        try {
            return server.getAttribute(bean, name);
        } catch (AttributeNotFoundException e) {
            return null;
        }
    }

    Object storage(String attribute) throws IOException, JMException {
        return attribute(new ObjectName(STORAGE_SERVICE), attribute);
    }

    /** An attribute of the node's StorageService bean, or null when it has none (a node of the other mode). */
    Object optionalStorage(String attribute) throws IOException, JMException {
        return optionalAttribute(new ObjectName(STORAGE_SERVICE), attribute);
    }

    Object invokeStorage(String operation, Object[] args, String[] signature) throws IOException, JMException {
        return server.invoke(new ObjectName(STORAGE_SERVICE), operation, args, signature);
    }

    /** An operation of the configuration bean that takes no arguments. */
    Object invokeConfiguration(String operation) throws IOException, JMException {
        return server.invoke(new ObjectName(CONFIGURATION), operation, new Object[0], new String[0]);
    }

    @SuppressWarnings("unchecked")
    List<String> keyspaces() throws IOException, JMException {
        return (List<String>) storage("Keyspaces");
    }

    long uptimeMillis() throws IOException, JMException {
        return (Long) attribute(new ObjectName("java.lang:type=Runtime"), "Uptime");
    }

    MemoryUsage heap() throws IOException, JMException {
        return MemoryUsage.from((CompositeData) attribute(new ObjectName("java.lang:type=Memory"), "HeapMemoryUsage"));
    }

    /** Column family beans, sorted by keyspace then column family. */
    List<ObjectName> columnFamilies() throws IOException, JMException {
        return sorted(server.queryNames(new ObjectName(COLUMN_FAMILIES), null));
    }

    List<ObjectName> threadPools() throws IOException, JMException {
        return sorted(server.queryNames(new ObjectName(THREAD_POOLS), null));
    }

    @SuppressWarnings("unchecked")
    Map<String, String> tokenToEndpoint() throws IOException, JMException {
        return (Map<String, String>) storage("TokenToEndpointMap");
    }

    private static List<ObjectName> sorted(Set<ObjectName> names) {
        return new ArrayList<>(new TreeSet<>(names));
    }

    @Override
    public void close() throws IOException {
        connector.close();
    }
}
