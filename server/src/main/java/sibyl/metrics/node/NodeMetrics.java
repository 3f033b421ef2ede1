package sibyl.metrics.node;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import sibyl.commitlog.CommitLog;
import sibyl.engine.LocalStorageService;
import sibyl.metrics.Collector;
import sibyl.metrics.JvmCollector;
import sibyl.metrics.MetricsRegistry;
import sibyl.service.RequestMetrics;
import sibyl.thrift.AuthRefusals;
import sibyl.transport.ThriftServer;

/** The metrics of one node: what its parts already count, named for the metrics endpoint. */
public final class NodeMetrics {
    private NodeMetrics() {
    }

    /**
     * @param requests what the storage seam counted per column family, whichever backend served them
     * @param embedded  the embedded store, for SSTables, memtables, caches, flushes and compactions; empty in
     *                  cluster mode, where the cluster keeps those
     * @param commitLog the embedded store's commit log; empty in cluster mode
     * @param thrift   the front end, for connections and overload refusals
     * @param auth     the refusals of authentication and access control
     */
    public static MetricsRegistry registry(RequestMetrics requests, Optional<LocalStorageService> embedded,
                                           Optional<CommitLog> commitLog, ThriftServer thrift, AuthRefusals auth) {
        List<Collector> collectors = new ArrayList<>();
        collectors.add(new RequestCollector(requests));
        embedded.ifPresent(store -> collectors.add(new StorageCollector(store, commitLog)));
        collectors.add(new ClientCollector(thrift, auth));
        collectors.add(new JvmCollector());
        return new MetricsRegistry(collectors);
    }
}
