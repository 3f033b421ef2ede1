package sibyl.config;

import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The settings of storage-conf.xml that Sibyl uses, with defaults applied and relative
 * directories resolved: a value for each setting {@link NodeSettings} declares, looked up by its
 * declaration ({@link #get}) or by the accessors below, named for the XML elements. Settings a 0.6
 * file may carry that have no effect in Sibyl (the ring's Seeds or PhiConvictThreshold, 0.6's
 * buffer sizes, ...) are checked by the loader and not kept here ({@link UnusedSettings}).
 * Immutable; built once by {@link StorageConfLoader} (or by a {@link Builder} in tests) and passed
 * to whatever needs it. Nothing here reads files.
 *
 * <p>Sibyl's own additions ({@code ThriftMax...}, {@code ThriftIdleTimeoutInSeconds},
 * {@code JmxPort}, {@code MetricsPort}, {@code Cluster}) are marked as such.
 */
public final class StorageConf {
    private final Map<Setting<?>, Object> values;
    private final Path configFile;
    private final Path installDirectory;

    private StorageConf(Map<Setting<?>, Object> values, Path configFile, Path installDirectory) {
        this.values = Collections.unmodifiableMap(values);
        this.configFile = configFile;
        this.installDirectory = installDirectory;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The value of {@code setting}; null when it has none (an unset setting, or one with no effect). */
    @SuppressWarnings("unchecked") // set only through Builder#set, which takes a value of the setting's type
    public <T> T get(Setting<T> setting) {
        return (T) values.get(setting);
    }

    /** The configured keyspace of that name (case-sensitive). */
    public Optional<KeyspaceConf> keyspace(String name) {
        return keyspaces().stream().filter(ks -> ks.name().equals(name)).findFirst();
    }

    /** ClusterName; describe_cluster_name returns it. */
    public String clusterName() {
        return get(NodeSettings.CLUSTER_NAME);
    }

    /** IndexInterval: one index entry in this many is sampled into memory; also used by describe_splits. */
    public int indexInterval() {
        return get(NodeSettings.INDEX_INTERVAL);
    }

    /** Authenticator: full class name, {@code org.apache.cassandra.auth.AllowAllAuthenticator} or {@code org.apache.cassandra.auth.SimpleAuthenticator}. */
    public String authenticator() {
        return get(NodeSettings.AUTHENTICATOR);
    }

    /** Partitioner: full class name {@code org.apache.cassandra.dht.X}, X one of RandomPartitioner, OrderPreservingPartitioner, CollatingOrderPreservingPartitioner, ByteOrderedPartitioner, Murmur3Partitioner. */
    public String partitioner() {
        return get(NodeSettings.PARTITIONER);
    }

    /** InitialToken as written, or null when not given. */
    public String initialToken() {
        return get(NodeSettings.INITIAL_TOKEN);
    }

    /** SavedCachesDirectory, absolute. */
    public Path savedCachesDirectory() {
        return get(NodeSettings.SAVED_CACHES_DIRECTORY);
    }

    /** CommitLogDirectory, absolute; never equal to a data directory. */
    public Path commitLogDirectory() {
        return get(NodeSettings.COMMIT_LOG_DIRECTORY);
    }

    /** DataFileDirectories, absolute, at least one, in file order. */
    public List<Path> dataFileDirectories() {
        return get(NodeSettings.DATA_FILE_DIRECTORIES);
    }

    /** RpcTimeoutInMillis: a call that takes longer answers TimedOutException. */
    public int rpcTimeoutInMillis() {
        return get(NodeSettings.RPC_TIMEOUT_IN_MILLIS);
    }

    /** CommitLogRotationThresholdInMB: commit log segment size. */
    public int commitLogRotationThresholdInMB() {
        return get(NodeSettings.COMMIT_LOG_ROTATION_THRESHOLD_IN_MB);
    }

    /** ListenAddress as written, or null for the host's own address (0.6 used InetAddress.getLocalHost()). Never a wildcard address. */
    public String listenAddress() {
        return get(NodeSettings.LISTEN_ADDRESS);
    }

    /** ThriftAddress as written, or null for the host's own address (the ListenAddress default). A wildcard such as 0.0.0.0 is allowed. */
    public String thriftAddress() {
        return get(NodeSettings.THRIFT_ADDRESS);
    }

    /** ThriftPort: the client port. */
    public int thriftPort() {
        return get(NodeSettings.THRIFT_PORT);
    }

    /** ThriftDialect: {@code 0.6} or {@code 0.7}, the dialect of a connection until its calls show one. */
    public String thriftDialect() {
        return get(NodeSettings.THRIFT_DIALECT);
    }

    /** ThriftApiVersion: what describe_version answers on connections of the 0.7+ dialect. */
    public String thriftApiVersion() {
        return get(NodeSettings.THRIFT_API_VERSION);
    }

    /** DiskAccessMode. */
    public DiskAccessMode diskAccessMode() {
        return get(NodeSettings.DISK_ACCESS_MODE);
    }

    /** ColumnIndexSizeInKB: a row gets a column index entry every this many KB; in bytes, it fits an int. */
    public int columnIndexSizeInKB() {
        return get(NodeSettings.COLUMN_INDEX_SIZE_IN_KB);
    }

    /** MemtableThroughputInMB: flush a memtable after this much data. */
    public int memtableThroughputInMB() {
        return get(NodeSettings.MEMTABLE_THROUGHPUT_IN_MB);
    }

    /** MemtableOperationsInMillions: flush a memtable after this many million column writes. */
    public double memtableOperationsInMillions() {
        return get(NodeSettings.MEMTABLE_OPERATIONS_IN_MILLIONS);
    }

    /** MemtableFlushAfterMinutes: flush a memtable at the latest this long after its first write. */
    public int memtableFlushAfterMinutes() {
        return get(NodeSettings.MEMTABLE_FLUSH_AFTER_MINUTES);
    }

    /** ConcurrentReads, at least 2; with ConcurrentWrites, the number of threads serving client calls. */
    public int concurrentReads() {
        return get(NodeSettings.CONCURRENT_READS);
    }

    /** ConcurrentWrites, at least 2; with ConcurrentReads, the number of threads serving client calls. */
    public int concurrentWrites() {
        return get(NodeSettings.CONCURRENT_WRITES);
    }

    /** CommitLogSync. */
    public CommitLogSync commitLogSync() {
        return get(NodeSettings.COMMIT_LOG_SYNC);
    }

    /** CommitLogSyncPeriodInMS with periodic sync; null with batch. */
    public Integer commitLogSyncPeriodInMS() {
        return get(NodeSettings.COMMIT_LOG_SYNC_PERIOD_IN_MS);
    }

    /** CommitLogSyncBatchWindowInMS with batch sync; null with periodic. */
    public Double commitLogSyncBatchWindowInMS() {
        return get(NodeSettings.COMMIT_LOG_SYNC_BATCH_WINDOW_IN_MS);
    }

    /** GCGraceSeconds: how long tombstones are kept before compaction may purge them, unless a CF sets its own. */
    public int gcGraceSeconds() {
        return get(NodeSettings.GC_GRACE_SECONDS);
    }

    /** SnapshotBeforeCompaction: each compaction first snapshots the SSTables of its column family. */
    public boolean snapshotBeforeCompaction() {
        return get(NodeSettings.SNAPSHOT_BEFORE_COMPACTION);
    }

    /** Sibyl: ThriftMaxMessageLengthInMB, the largest client message accepted; larger ones close the connection. */
    public int thriftMaxMessageLengthInMB() {
        return get(NodeSettings.THRIFT_MAX_MESSAGE_LENGTH_IN_MB);
    }

    /** Sibyl: ThriftMaxConnections, client connections served at once. */
    public int thriftMaxConnections() {
        return get(NodeSettings.THRIFT_MAX_CONNECTIONS);
    }

    /** Sibyl: ThriftNetworkThreads, the threads reading and writing client connections; 0 for one per processor. */
    public int thriftNetworkThreads() {
        return get(NodeSettings.THRIFT_NETWORK_THREADS);
    }

    /** Sibyl: ThriftIdleTimeoutInSeconds, close a client connection idle this long; 0 = never. */
    public int thriftIdleTimeoutInSeconds() {
        return get(NodeSettings.THRIFT_IDLE_TIMEOUT_IN_SECONDS);
    }

    /** Sibyl: JmxPort, the JMX port (bin/cassandra.in.sh's 8080 in 0.6). */
    public int jmxPort() {
        return get(NodeSettings.JMX_PORT);
    }

    /** Sibyl: MetricsPort, where the metrics are served over HTTP in Prometheus' text format; 0 = off. */
    public int metricsPort() {
        return get(NodeSettings.METRICS_PORT);
    }

    /** The configured keyspaces in file order, at least one; the implicit system keyspace is not among them. */
    public List<KeyspaceConf> keyspaces() {
        return get(NodeSettings.KEYSPACES);
    }

    /** Sibyl: Cluster, the Cassandra cluster to store into; empty for the embedded engine. */
    public Optional<ClusterConf> cluster() {
        return Optional.ofNullable(get(NodeSettings.CLUSTER));
    }

    /** The storage-conf.xml this was loaded from, as it was given to the loader. */
    public Path configFile() {
        return configFile;
    }

    /** The install directory, absolute: relative directories in the file were resolved against it. */
    public Path installDirectory() {
        return installDirectory;
    }

    /**
     * Collects values for a {@link StorageConf}. A setting not given gets its declared default
     * (directories under the install directory); those without one that are required (partitioner,
     * commit log directory, disk access mode, commit log sync), the config file and the install
     * directory must be set, and the lists of data directories and keyspaces start empty. Checks
     * no rules beyond that: {@link StorageConfLoader} is where files are validated.
     */
    public static final class Builder {
        private final Map<Setting<?>, Object> values = new HashMap<>();
        private Path configFile;
        private Path installDirectory;

        private Builder() {
            values.put(NodeSettings.DATA_FILE_DIRECTORIES, List.of());
            values.put(NodeSettings.KEYSPACES, List.of());
        }

        /** Gives {@code setting} this value (null for none). */
        public <T> Builder set(Setting<T> setting, T value) {
            values.put(Objects.requireNonNull(setting, "setting"), value);
            return this;
        }

        public Builder configFile(Path value) {
            this.configFile = value;
            return this;
        }

        public Builder installDirectory(Path value) {
            this.installDirectory = value;
            return this;
        }

        /** The value set so far, for a setting whose reading depends on one read before it. */
        @SuppressWarnings("unchecked") // as StorageConf#get
        <T> T get(Setting<T> setting) {
            return (T) values.get(setting);
        }

        Path installDirectory() {
            return installDirectory;
        }

        public StorageConf build() {
            Objects.requireNonNull(configFile, "configFile");
            Objects.requireNonNull(installDirectory, "installDirectory");
            Map<Setting<?>, Object> all = new HashMap<>();
            for (Setting<?> setting : NodeSettings.ALL) {
                if (setting.appliesTo() == AppliesTo.NOTHING) continue;
                Object value = values.containsKey(setting) ? values.get(setting)
                        : setting.defaultValue(configFile, installDirectory);
                if (value == null && setting.absent() instanceof Setting.Absent.Required) {
                    throw new NullPointerException(setting.element());
                }
                all.put(setting, value instanceof List<?> list ? List.copyOf(list) : value);
            }
            return new StorageConf(all, configFile, installDirectory);
        }
    }
}
