package sibyl.metrics.node;

import java.util.List;
import sibyl.engine.LocalStorageService;
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
     * @param requests what the storage seam counted per column family
     * @param storage  the embedded store, for SSTables, memtables, caches, flushes, compactions, commit log
     * @param thrift   the front end, for connections and overload refusals
     * @param auth     the refusals of authentication and access control
     */
    public static MetricsRegistry registry(RequestMetrics requests, LocalStorageService storage, ThriftServer thrift,
                                           AuthRefusals auth) {
        return new MetricsRegistry(List.of(new RequestCollector(requests), new StorageCollector(storage),
                new ClientCollector(thrift, auth), new JvmCollector()));
    }
}
