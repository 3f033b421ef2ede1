package sibyl.jmx;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadPoolExecutor;
import javax.management.NotCompliantMBeanException;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import sibyl.cluster.ClusterStorageService;
import sibyl.config.ConfigurationException;
import sibyl.db.CFMetaData;
import sibyl.db.KSMetaData;
import sibyl.db.SystemKeyspace;
import sibyl.engine.ColumnFamilyStore;
import sibyl.engine.Keyspace;
import sibyl.engine.LocalStorageService;
import sibyl.service.RequestMetrics;

/** The management beans of one node, by 0.6's object names. */
public final class NodeBeans {
    private NodeBeans() {
    }

    /**
     * @param requests the requests the storage seam counted, for cfstats' reads and writes
     * @param pools    worker pools by the name tpstats shows, e.g. {@code THRIFT-WORKERS}
     */
    public static Map<String, Object> of(String clusterName, String token, String endpoint,
                                         LocalStorageService storage, RequestMetrics requests,
                                         Map<String, ThreadPoolExecutor> pools) {
        Map<String, Object> beans = new LinkedHashMap<>();
        beans.put("org.apache.cassandra.service:type=StorageService",
                standard(new StorageServiceStats(clusterName, token, endpoint, storage), StorageServiceMBean.class));
        for (Keyspace ks : storage.openKeyspaces()) {
            for (ColumnFamilyStore store : ks.stores()) {
                beans.put("org.apache.cassandra.db:type=ColumnFamilyStores,keyspace=" + quote(ks.name())
                        + ",columnfamily=" + quote(store.metadata().name()),
                        standard(new ColumnFamilyStoreStats(store, requests.of(ks.name(), store.metadata().name())),
                                ColumnFamilyStoreMBean.class));
            }
        }
        pools.forEach((name, pool) -> beans.put("org.apache.cassandra.concurrent:type=" + quote(name),
                standard(new ThreadPoolStats(pool), ThreadPoolMBean.class)));
        return beans;
    }

    /** A reload of the configuration, as the node runs it. */
    @FunctionalInterface
    public interface Reload {
        /**
         * @return one line per change applied
         * @throws ConfigurationException the refusal; nothing was applied
         */
        List<String> reload() throws ConfigurationException, InterruptedException;
    }

    /** The object name of the configuration bean (Sibyl's own; 0.6 had no reload). */
    public static final String CONFIGURATION = "sibyl:type=Configuration";

    /** The configuration bean, for either storage mode: bin/nodetool reloadconf. */
    public static Object configuration(Path file, Reload reload) {
        return standard(new ConfigurationControl(file, reload), ConfigurationMBean.class);
    }

    /**
     * The beans of a node in cluster mode: the node with the cluster's ring and its refusals of storage
     * operations, each configured column family's requests, the worker pools.
     *
     * @param endpoint this node's address
     */
    public static Map<String, Object> ofCluster(String clusterName, String endpoint, ClusterStorageService storage,
                                                RequestMetrics requests, Map<String, ThreadPoolExecutor> pools) {
        Map<String, Object> beans = new LinkedHashMap<>();
        beans.put("org.apache.cassandra.service:type=StorageService",
                standard(new ClusterStorageServiceStats(clusterName, endpoint, storage, requests),
                        ClusterStorageServiceMBean.class));
        for (KSMetaData ks : storage.schema().keyspaces()) {
            if (ks.name().equals(SystemKeyspace.NAME)) continue; // Sibyl's own, not stored in the cluster
            for (CFMetaData cf : ks.columnFamilies()) {
                beans.put("org.apache.cassandra.db:type=ColumnFamilyStores,keyspace=" + quote(ks.name())
                        + ",columnfamily=" + quote(cf.name()),
                        standard(new ColumnFamilyRequestsStats(requests.of(ks.name(), cf.name())),
                                ColumnFamilyRequestsMBean.class));
            }
        }
        pools.forEach((name, pool) -> beans.put("org.apache.cassandra.concurrent:type=" + quote(name),
                standard(new ThreadPoolStats(pool), ThreadPoolMBean.class)));
        return beans;
    }

    /** Our implementation classes are not named after their interfaces, so say which one is the bean's. */
    private static <T> StandardMBean standard(T bean, Class<T> type) {
        try {
            return new StandardMBean(bean, type);
        } catch (NotCompliantMBeanException e) {
            throw new IllegalStateException("not a management interface: " + type.getName(), e);
        }
    }

    /** Names are configured text; quote those that object-name syntax would misread. */
    private static String quote(String value) {
        return value.matches("[A-Za-z0-9_.\\-]+") ? value : ObjectName.quote(value);
    }
}
