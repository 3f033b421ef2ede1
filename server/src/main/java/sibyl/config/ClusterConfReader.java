package sibyl.config;

import java.util.Optional;
import java.util.Set;

/** Reads Sibyl's {@code Storage/Cluster} ({@link ClusterConf}): each child {@link ClusterSettings} declares. */
final class ClusterConfReader {
    private ClusterConfReader() {
    }

    /** @param global the global settings read before the cluster: RpcTimeoutInMillis, the keyspaces */
    static Optional<ClusterConf> read(ConfigNode storage, StorageConf.Builder global) throws ConfigurationException {
        Optional<ConfigNode> found = storage.child("Cluster");
        if (found.isEmpty()) return Optional.empty();
        ChildValues read = ChildValues.read(ClusterSettings.ALL, found.get(), Set.of(), global);
        return Optional.of(new ClusterConf(read.get(ClusterSettings.CONTACT_POINTS),
                read.get(ClusterSettings.LOCAL_DATACENTER), read.get(ClusterSettings.USERNAME),
                read.get(ClusterSettings.PASSWORD), read.get(ClusterSettings.TRUST_STORE),
                read.get(ClusterSettings.TRUST_STORE_PASSWORD), read.get(ClusterSettings.REQUEST_TIMEOUT_IN_MILLIS),
                read.get(ClusterSettings.CONNECT_TIMEOUT_IN_SECONDS), read.get(ClusterSettings.KEYSPACE_PREFIX),
                read.get(ClusterSettings.DATACENTER_REPLICATION), storage.file(),
                read.get(ClusterSettings.THRIFT_ENDPOINTS)));
    }
}
