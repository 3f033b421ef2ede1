package sibyl.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The settings of storage-conf.xml that Sibyl uses, with defaults applied and relative
 * directories resolved. Settings a 0.6 file may carry that have no effect in Sibyl (the ring's
 * Seeds or PhiConvictThreshold, 0.6's buffer sizes, ...) are checked by the loader and not kept
 * here ({@link UnusedSettings}). Immutable; built once by {@link StorageConfLoader} (or by a {@link Builder} in tests) and passed
 * to whatever needs it. Nothing here reads files.
 *
 * <p>Accessors are named for the XML elements. Sibyl's own additions ({@code ThriftMax...},
 * {@code ThriftIdleTimeoutInSeconds}, {@code JmxPort}, {@code MetricsPort}) are marked as such.
 */
public final class StorageConf {
    /*
     * The value of each setting when storage-conf.xml does not give it: 0.6's shipped values (see
     * docs/configuration.md), the one place they are written down; the loader and the builder
     * both use these.
     */
    public static final String DEFAULT_CLUSTER_NAME = "Test Cluster";
    public static final int DEFAULT_INDEX_INTERVAL = 128;
    public static final int DEFAULT_RPC_TIMEOUT_IN_MILLIS = 10_000;
    public static final int DEFAULT_COMMIT_LOG_ROTATION_THRESHOLD_IN_MB = 128;
    public static final int DEFAULT_THRIFT_PORT = 9160;
    public static final int DEFAULT_COLUMN_INDEX_SIZE_IN_KB = 64;
    public static final int DEFAULT_MEMTABLE_THROUGHPUT_IN_MB = 64;
    public static final double DEFAULT_MEMTABLE_OPERATIONS_IN_MILLIONS = 0.1;
    public static final int DEFAULT_MEMTABLE_FLUSH_AFTER_MINUTES = 60;
    public static final int DEFAULT_CONCURRENT_READS = 8;
    public static final int DEFAULT_CONCURRENT_WRITES = 32;
    public static final int DEFAULT_GC_GRACE_SECONDS = 864_000;
    public static final int DEFAULT_THRIFT_MAX_MESSAGE_LENGTH_IN_MB = 16;
    public static final int DEFAULT_THRIFT_MAX_CONNECTIONS = 1024;
    public static final int DEFAULT_THRIFT_IDLE_TIMEOUT_IN_SECONDS = 0;
    public static final int DEFAULT_JMX_PORT = 8080;
    /** Sibyl's own: the metrics endpoint is off unless asked for. */
    public static final int DEFAULT_METRICS_PORT = 0;

    private final String clusterName;
    private final int indexInterval;
    private final String authenticator;
    private final String partitioner;
    private final String initialToken;
    private final Path savedCachesDirectory;
    private final Path commitLogDirectory;
    private final List<Path> dataFileDirectories;
    private final int rpcTimeoutInMillis;
    private final int commitLogRotationThresholdInMB;
    private final String listenAddress;
    private final String thriftAddress;
    private final int thriftPort;
    private final DiskAccessMode diskAccessMode;
    private final int columnIndexSizeInKB;
    private final int memtableThroughputInMB;
    private final double memtableOperationsInMillions;
    private final int memtableFlushAfterMinutes;
    private final int concurrentReads;
    private final int concurrentWrites;
    private final CommitLogSync commitLogSync;
    private final Integer commitLogSyncPeriodInMS;
    private final Double commitLogSyncBatchWindowInMS;
    private final int gcGraceSeconds;
    private final boolean snapshotBeforeCompaction;
    private final int thriftMaxMessageLengthInMB;
    private final int thriftMaxConnections;
    private final int thriftNetworkThreads;
    private final int thriftIdleTimeoutInSeconds;
    private final int jmxPort;
    private final int metricsPort;
    private final List<KeyspaceConf> keyspaces;
    private final ClusterConf cluster;
    private final Path configFile;
    private final Path installDirectory;

    private StorageConf(Builder b) {
        this.clusterName = Objects.requireNonNull(b.clusterName, "clusterName");
        this.indexInterval = b.indexInterval;
        this.authenticator = Objects.requireNonNull(b.authenticator, "authenticator");
        this.partitioner = Objects.requireNonNull(b.partitioner, "partitioner");
        this.initialToken = b.initialToken;
        this.savedCachesDirectory = Objects.requireNonNull(b.savedCachesDirectory, "savedCachesDirectory");
        this.commitLogDirectory = Objects.requireNonNull(b.commitLogDirectory, "commitLogDirectory");
        this.dataFileDirectories = List.copyOf(b.dataFileDirectories);
        this.rpcTimeoutInMillis = b.rpcTimeoutInMillis;
        this.commitLogRotationThresholdInMB = b.commitLogRotationThresholdInMB;
        this.listenAddress = b.listenAddress;
        this.thriftAddress = b.thriftAddress;
        this.thriftPort = b.thriftPort;
        this.diskAccessMode = Objects.requireNonNull(b.diskAccessMode, "diskAccessMode");
        this.columnIndexSizeInKB = b.columnIndexSizeInKB;
        this.memtableThroughputInMB = b.memtableThroughputInMB;
        this.memtableOperationsInMillions = b.memtableOperationsInMillions;
        this.memtableFlushAfterMinutes = b.memtableFlushAfterMinutes;
        this.concurrentReads = b.concurrentReads;
        this.concurrentWrites = b.concurrentWrites;
        this.commitLogSync = Objects.requireNonNull(b.commitLogSync, "commitLogSync");
        this.commitLogSyncPeriodInMS = b.commitLogSyncPeriodInMS;
        this.commitLogSyncBatchWindowInMS = b.commitLogSyncBatchWindowInMS;
        this.gcGraceSeconds = b.gcGraceSeconds;
        this.snapshotBeforeCompaction = b.snapshotBeforeCompaction;
        this.thriftMaxMessageLengthInMB = b.thriftMaxMessageLengthInMB;
        this.thriftMaxConnections = b.thriftMaxConnections;
        this.thriftNetworkThreads = b.thriftNetworkThreads;
        this.thriftIdleTimeoutInSeconds = b.thriftIdleTimeoutInSeconds;
        this.jmxPort = b.jmxPort;
        this.metricsPort = b.metricsPort;
        this.keyspaces = List.copyOf(b.keyspaces);
        this.cluster = b.cluster;
        this.configFile = Objects.requireNonNull(b.configFile, "configFile");
        this.installDirectory = Objects.requireNonNull(b.installDirectory, "installDirectory");
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The configured keyspace of that name (case-sensitive). */
    public Optional<KeyspaceConf> keyspace(String name) {
        return keyspaces.stream().filter(ks -> ks.name().equals(name)).findFirst();
    }

    /** ClusterName; describe_cluster_name returns it. "Test Cluster" when absent. */
    public String clusterName() {
        return clusterName;
    }

    /** IndexInterval: one index entry in this many is sampled into memory; also used by describe_splits. */
    public int indexInterval() {
        return indexInterval;
    }

    /** Authenticator: full class name, {@code org.apache.cassandra.auth.AllowAllAuthenticator} or {@code org.apache.cassandra.auth.SimpleAuthenticator}. */
    public String authenticator() {
        return authenticator;
    }

    /** Partitioner: full class name {@code org.apache.cassandra.dht.X}, X one of RandomPartitioner, OrderPreservingPartitioner, CollatingOrderPreservingPartitioner. */
    public String partitioner() {
        return partitioner;
    }

    /** InitialToken as written, or null when not given. */
    public String initialToken() {
        return initialToken;
    }

    /** SavedCachesDirectory, absolute. */
    public Path savedCachesDirectory() {
        return savedCachesDirectory;
    }

    /** CommitLogDirectory, absolute; never equal to a data directory. */
    public Path commitLogDirectory() {
        return commitLogDirectory;
    }

    /** DataFileDirectories, absolute, at least one, in file order. */
    public List<Path> dataFileDirectories() {
        return dataFileDirectories;
    }

    /** RpcTimeoutInMillis: a call that takes longer answers TimedOutException. 10000 when absent. */
    public int rpcTimeoutInMillis() {
        return rpcTimeoutInMillis;
    }

    /** CommitLogRotationThresholdInMB: commit log segment size. */
    public int commitLogRotationThresholdInMB() {
        return commitLogRotationThresholdInMB;
    }

    /** ListenAddress as written, or null for the host's own address (0.6 used InetAddress.getLocalHost()). Never a wildcard address. */
    public String listenAddress() {
        return listenAddress;
    }

    /** ThriftAddress as written, or null for the host's own address (the ListenAddress default). A wildcard such as 0.0.0.0 is allowed. */
    public String thriftAddress() {
        return thriftAddress;
    }

    /** ThriftPort: the client port. */
    public int thriftPort() {
        return thriftPort;
    }

    /** DiskAccessMode. */
    public DiskAccessMode diskAccessMode() {
        return diskAccessMode;
    }

    /** ColumnIndexSizeInKB: a row gets a column index entry every this many KB; in bytes, it fits an int. */
    public int columnIndexSizeInKB() {
        return columnIndexSizeInKB;
    }

    /** MemtableThroughputInMB: flush a memtable after this much data. */
    public int memtableThroughputInMB() {
        return memtableThroughputInMB;
    }

    /** MemtableOperationsInMillions: flush a memtable after this many million column writes. */
    public double memtableOperationsInMillions() {
        return memtableOperationsInMillions;
    }

    /** MemtableFlushAfterMinutes: flush a memtable at the latest this long after its first write. */
    public int memtableFlushAfterMinutes() {
        return memtableFlushAfterMinutes;
    }

    /** ConcurrentReads, at least 2; with ConcurrentWrites, the number of threads serving client calls. */
    public int concurrentReads() {
        return concurrentReads;
    }

    /** ConcurrentWrites, at least 2; with ConcurrentReads, the number of threads serving client calls. */
    public int concurrentWrites() {
        return concurrentWrites;
    }

    /** CommitLogSync. */
    public CommitLogSync commitLogSync() {
        return commitLogSync;
    }

    /** CommitLogSyncPeriodInMS with periodic sync; null with batch. */
    public Integer commitLogSyncPeriodInMS() {
        return commitLogSyncPeriodInMS;
    }

    /** CommitLogSyncBatchWindowInMS with batch sync; null with periodic. */
    public Double commitLogSyncBatchWindowInMS() {
        return commitLogSyncBatchWindowInMS;
    }

    /** GCGraceSeconds: how long tombstones are kept before compaction may purge them, unless a CF sets its own. */
    public int gcGraceSeconds() {
        return gcGraceSeconds;
    }

    /** SnapshotBeforeCompaction: each compaction first snapshots the SSTables of its column family. */
    public boolean snapshotBeforeCompaction() {
        return snapshotBeforeCompaction;
    }

    /** Sibyl: ThriftMaxMessageLengthInMB, the largest client message accepted; larger ones close the connection. */
    public int thriftMaxMessageLengthInMB() {
        return thriftMaxMessageLengthInMB;
    }

    /** Sibyl: ThriftMaxConnections, client connections served at once. */
    public int thriftMaxConnections() {
        return thriftMaxConnections;
    }

    /** Sibyl: ThriftNetworkThreads, the threads reading and writing client connections; 0 for one per processor. */
    public int thriftNetworkThreads() {
        return thriftNetworkThreads;
    }

    /** Sibyl: ThriftIdleTimeoutInSeconds, close a client connection idle this long; 0 = never. */
    public int thriftIdleTimeoutInSeconds() {
        return thriftIdleTimeoutInSeconds;
    }

    /** Sibyl: JmxPort, the JMX port (bin/cassandra.in.sh's 8080 in 0.6). */
    public int jmxPort() {
        return jmxPort;
    }

    /** Sibyl: MetricsPort, where the metrics are served over HTTP in Prometheus' text format; 0 = off. */
    public int metricsPort() {
        return metricsPort;
    }

    /** The configured keyspaces in file order, at least one; the implicit system keyspace is not among them. */
    public List<KeyspaceConf> keyspaces() {
        return keyspaces;
    }

    /** Sibyl: Cluster, the Cassandra cluster to store into; empty for the embedded engine. */
    public Optional<ClusterConf> cluster() {
        return Optional.ofNullable(cluster);
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
     * Collects values for a {@link StorageConf}. Starts from the defaults the loader applies when
     * an element is absent; partitioner, directories, disk access mode, commit log sync, the
     * config file and install directory have no default and must be set. Checks no rules beyond
     * that: {@link StorageConfLoader} is where files are validated.
     */
    public static final class Builder {
        private String clusterName = DEFAULT_CLUSTER_NAME;
        private int indexInterval = DEFAULT_INDEX_INTERVAL;
        private String authenticator = "org.apache.cassandra.auth.AllowAllAuthenticator";
        private String partitioner;
        private String initialToken = null;
        private Path savedCachesDirectory;
        private Path commitLogDirectory;
        private List<Path> dataFileDirectories = List.of();
        private int rpcTimeoutInMillis = DEFAULT_RPC_TIMEOUT_IN_MILLIS;
        private int commitLogRotationThresholdInMB = DEFAULT_COMMIT_LOG_ROTATION_THRESHOLD_IN_MB;
        private String listenAddress = null;
        private String thriftAddress = null;
        private int thriftPort = DEFAULT_THRIFT_PORT;
        private DiskAccessMode diskAccessMode;
        private int columnIndexSizeInKB = DEFAULT_COLUMN_INDEX_SIZE_IN_KB;
        private int memtableThroughputInMB = DEFAULT_MEMTABLE_THROUGHPUT_IN_MB;
        private double memtableOperationsInMillions = DEFAULT_MEMTABLE_OPERATIONS_IN_MILLIONS;
        private int memtableFlushAfterMinutes = DEFAULT_MEMTABLE_FLUSH_AFTER_MINUTES;
        private int concurrentReads = DEFAULT_CONCURRENT_READS;
        private int concurrentWrites = DEFAULT_CONCURRENT_WRITES;
        private CommitLogSync commitLogSync;
        private Integer commitLogSyncPeriodInMS = null;
        private Double commitLogSyncBatchWindowInMS = null;
        private int gcGraceSeconds = DEFAULT_GC_GRACE_SECONDS;
        private boolean snapshotBeforeCompaction;
        private int thriftMaxMessageLengthInMB = DEFAULT_THRIFT_MAX_MESSAGE_LENGTH_IN_MB;
        private int thriftMaxConnections = DEFAULT_THRIFT_MAX_CONNECTIONS;
        private int thriftNetworkThreads;
        private int thriftIdleTimeoutInSeconds = DEFAULT_THRIFT_IDLE_TIMEOUT_IN_SECONDS;
        private int jmxPort = DEFAULT_JMX_PORT;
        private int metricsPort = DEFAULT_METRICS_PORT;
        private List<KeyspaceConf> keyspaces = List.of();
        private ClusterConf cluster;
        private Path configFile;
        private Path installDirectory;

        private Builder() {
        }

        public Builder clusterName(String value) {
            this.clusterName = value;
            return this;
        }

        public Builder indexInterval(int value) {
            this.indexInterval = value;
            return this;
        }

        public Builder authenticator(String value) {
            this.authenticator = value;
            return this;
        }

        public Builder partitioner(String value) {
            this.partitioner = value;
            return this;
        }

        public Builder initialToken(String value) {
            this.initialToken = value;
            return this;
        }

        public Builder savedCachesDirectory(Path value) {
            this.savedCachesDirectory = value;
            return this;
        }

        public Builder commitLogDirectory(Path value) {
            this.commitLogDirectory = value;
            return this;
        }

        public Builder dataFileDirectories(List<Path> value) {
            this.dataFileDirectories = value;
            return this;
        }

        public Builder rpcTimeoutInMillis(int value) {
            this.rpcTimeoutInMillis = value;
            return this;
        }

        public Builder commitLogRotationThresholdInMB(int value) {
            this.commitLogRotationThresholdInMB = value;
            return this;
        }

        public Builder listenAddress(String value) {
            this.listenAddress = value;
            return this;
        }

        public Builder thriftAddress(String value) {
            this.thriftAddress = value;
            return this;
        }

        public Builder thriftPort(int value) {
            this.thriftPort = value;
            return this;
        }

        public Builder diskAccessMode(DiskAccessMode value) {
            this.diskAccessMode = value;
            return this;
        }

        public Builder columnIndexSizeInKB(int value) {
            this.columnIndexSizeInKB = value;
            return this;
        }

        public Builder memtableThroughputInMB(int value) {
            this.memtableThroughputInMB = value;
            return this;
        }

        public Builder memtableOperationsInMillions(double value) {
            this.memtableOperationsInMillions = value;
            return this;
        }

        public Builder memtableFlushAfterMinutes(int value) {
            this.memtableFlushAfterMinutes = value;
            return this;
        }

        public Builder concurrentReads(int value) {
            this.concurrentReads = value;
            return this;
        }

        public Builder concurrentWrites(int value) {
            this.concurrentWrites = value;
            return this;
        }

        public Builder commitLogSync(CommitLogSync value) {
            this.commitLogSync = value;
            return this;
        }

        public Builder commitLogSyncPeriodInMS(Integer value) {
            this.commitLogSyncPeriodInMS = value;
            return this;
        }

        public Builder commitLogSyncBatchWindowInMS(Double value) {
            this.commitLogSyncBatchWindowInMS = value;
            return this;
        }

        public Builder gcGraceSeconds(int value) {
            this.gcGraceSeconds = value;
            return this;
        }

        public Builder snapshotBeforeCompaction(boolean value) {
            this.snapshotBeforeCompaction = value;
            return this;
        }

        public Builder thriftMaxMessageLengthInMB(int value) {
            this.thriftMaxMessageLengthInMB = value;
            return this;
        }

        public Builder thriftNetworkThreads(int value) {
            this.thriftNetworkThreads = value;
            return this;
        }

        public Builder thriftMaxConnections(int value) {
            this.thriftMaxConnections = value;
            return this;
        }

        public Builder thriftIdleTimeoutInSeconds(int value) {
            this.thriftIdleTimeoutInSeconds = value;
            return this;
        }

        public Builder jmxPort(int value) {
            this.jmxPort = value;
            return this;
        }

        public Builder metricsPort(int value) {
            this.metricsPort = value;
            return this;
        }

        public Builder keyspaces(List<KeyspaceConf> value) {
            this.keyspaces = value;
            return this;
        }

        public Builder cluster(ClusterConf value) {
            this.cluster = value;
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

        public StorageConf build() {
            return new StorageConf(this);
        }
    }
}
