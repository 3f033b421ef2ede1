package sibyl.config;

import static sibyl.config.Setting.Absent.logged;
import static sibyl.config.Setting.Absent.required;
import static sibyl.config.Setting.Absent.unset;
import static sibyl.config.Setting.Absent.value;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Every global element of storage-conf.xml, each declared once ({@link Setting}), in the order
 * the loader reads them; so a file with several faults is refused for the first of them in this
 * order. docs/configuration.md §Global elements and §Additions document them, and a test holds
 * the two together.
 */
public final class NodeSettings {
    static final int MAX_PORT = 65_535;
    /** Keeps the limit in bytes within an int. */
    static final int MAX_MESSAGE_LENGTH_IN_MB = 2047;
    /** Keeps the column index size in bytes within an int. */
    static final int MAX_COLUMN_INDEX_SIZE_IN_KB = Integer.MAX_VALUE >> 10;
    private static final int ANY = Integer.MAX_VALUE;
    private static final String MISSING = "required element is missing";

    // Where 0.6 silently used a surprising code default, 0.6's shipped value stands and the log says so.

    public static final Setting<String> CLUSTER_NAME = Setting.text("ClusterName",
            logged("Test Cluster", "no ClusterName; using the shipped value '{}' (0.6 would have used none)"),
            AppliesTo.NODE_IDENTITY);
    public static final Setting<String> PARTITIONER = Setting.parsed("Partitioner", required(MISSING),
            AppliesTo.PARTITIONER, (value, install) -> ClassNames.partitioner(value.text()).orElseThrow(() ->
                    value.error("unknown partitioner '" + value.text() + "'; Sibyl supports "
                            + ClassNames.shortNames(ClassNames.PARTITIONERS))));
    public static final Setting<String> AUTHENTICATOR = Setting.parsed("Authenticator",
            value("AllowAllAuthenticator"), AppliesTo.AUTHENTICATOR, (value, install) ->
                    ClassNames.authenticator(value.text()).orElseThrow(() -> value.error(
                            "unknown authenticator '" + value.text() + "'; Sibyl supports "
                                    + ClassNames.shortNames(ClassNames.AUTHENTICATORS))));
    public static final Setting<String> INITIAL_TOKEN = Setting.text("InitialToken", unset(), AppliesTo.NODE_IDENTITY);

    // Required from 0.6.6 on, absent from 0.6.0-0.6.5 files, which must still load.
    public static final Setting<Path> SAVED_CACHES_DIRECTORY = Setting.parsed("SavedCachesDirectory",
            logged("var/saved_caches", "no SavedCachesDirectory; using {}"), AppliesTo.DIRECTORIES,
            ConfigValue::asDirectory);
    public static final Setting<Path> COMMIT_LOG_DIRECTORY = Setting.parsed("CommitLogDirectory", required(MISSING),
            AppliesTo.DIRECTORIES, ConfigValue::asDirectory);
    public static final Setting<List<Path>> DATA_FILE_DIRECTORIES = Setting.read("DataFileDirectories",
            required(MISSING + "; at least one is needed"), AppliesTo.DIRECTORIES, NodeSettings::dataFileDirectories);

    public static final Setting<String> LISTEN_ADDRESS = Setting.parsed("ListenAddress", unset(), AppliesTo.SOCKETS,
            (value, install) -> {
                if (isWildcard(value.text())) {
                    throw value.error("'" + value.text() + "' is a wildcard address; other nodes need one they"
                            + " can reach, so give this host's address or leave ListenAddress empty");
                }
                return value.text();
            });
    public static final Setting<String> THRIFT_ADDRESS = Setting.text("ThriftAddress", unset(), AppliesTo.SOCKETS);
    public static final Setting<Integer> THRIFT_PORT =
            Setting.integer("ThriftPort", value("9160"), AppliesTo.SOCKETS, 0, MAX_PORT);
    /**
     * The dialect of a connection's calls until one shows its own: most calls do, only the describe calls alike in
     * both dialects do not. See docs/thrift-api-0.7.md §Both dialects on one port.
     */
    public static final Setting<String> THRIFT_DIALECT = Setting.parsed("ThriftDialect", value("0.6"),
            AppliesTo.FRONT_END, (value, install) -> {
                if (!value.text().equals("0.6") && !value.text().equals("0.7")) {
                    throw value.error("unknown Thrift dialect '" + value.text() + "'; expected 0.6 or 0.7");
                }
                return value.text();
            });
    /**
     * What describe_version answers on connections of the 0.7+ dialect: 3.11's 20.1.0, or an older API version for
     * a client that wants the one of Cassandra 0.7 to 2.2 (19.x.y). See docs/thrift-api-0.7.md §Served calls.
     */
    public static final Setting<String> THRIFT_API_VERSION = Setting.parsed("ThriftApiVersion", value("20.1.0"),
            AppliesTo.FRONT_END, (value, install) -> {
                if (!value.text().matches("(19|20)\\.(0|[1-9]\\d{0,3})\\.(0|[1-9]\\d{0,3})")) {
                    throw value.error("'" + value.text() + "' is not an API version of the 0.7+ dialect; expected"
                            + " 19.x.y (Cassandra 0.7 to 2.2) or 20.x.y (3.0 to 3.11), such as 20.1.0");
                }
                return value.text();
            });
    public static final Setting<Integer> THRIFT_MAX_MESSAGE_LENGTH_IN_MB = Setting.integer(
            "ThriftMaxMessageLengthInMB", value("16"), AppliesTo.FRONT_END, 1, MAX_MESSAGE_LENGTH_IN_MB);
    public static final Setting<Integer> THRIFT_MAX_CONNECTIONS =
            Setting.integer("ThriftMaxConnections", value("1024"), AppliesTo.FRONT_END, 1, ANY);
    public static final Setting<Integer> THRIFT_NETWORK_THREADS =
            Setting.integer("ThriftNetworkThreads", value("0"), AppliesTo.FRONT_END, 0, ANY);
    public static final Setting<Integer> THRIFT_IDLE_TIMEOUT_IN_SECONDS =
            Setting.integer("ThriftIdleTimeoutInSeconds", value("0"), AppliesTo.FRONT_END, 0, ANY);
    /** bin/cassandra.in.sh's port in 0.6. */
    public static final Setting<Integer> JMX_PORT = Setting.integer("JmxPort", value("8080"), AppliesTo.SOCKETS,
            0, MAX_PORT);
    /** The metrics endpoint is off unless asked for. */
    public static final Setting<Integer> METRICS_PORT = Setting.integer("MetricsPort", value("0"), AppliesTo.SOCKETS,
            0, MAX_PORT);

    public static final Setting<DiskAccessMode> DISK_ACCESS_MODE = Setting.parsed("DiskAccessMode",
            required(MISSING + " (auto, mmap, mmap_index_only or standard)"), AppliesTo.SSTABLES,
            (value, install) -> DiskAccessMode.fromConfigName(value.text()).orElseThrow(() -> value.error(
                    "unknown disk access mode '" + value.text() + "'; expected auto, mmap, mmap_index_only or"
                            + " standard"))).shownAs(DiskAccessMode::configName);
    public static final Setting<Integer> INDEX_INTERVAL =
            Setting.integer("IndexInterval", value("128"), AppliesTo.SSTABLES, 1, ANY);
    public static final Setting<Integer> COMMIT_LOG_ROTATION_THRESHOLD_IN_MB =
            Setting.integer("CommitLogRotationThresholdInMB", value("128"), AppliesTo.COMMIT_LOG, 1, ANY);
    public static final Setting<Integer> COLUMN_INDEX_SIZE_IN_KB = Setting.integer("ColumnIndexSizeInKB",
            value("64"), AppliesTo.SSTABLES, 1, MAX_COLUMN_INDEX_SIZE_IN_KB);
    public static final Setting<Integer> MEMTABLE_THROUGHPUT_IN_MB =
            Setting.integer("MemtableThroughputInMB", value("64"), AppliesTo.MEMTABLES, 1, ANY);
    public static final Setting<Double> MEMTABLE_OPERATIONS_IN_MILLIONS = Setting.parsed(
            "MemtableOperationsInMillions", value("0.1"), AppliesTo.MEMTABLES,
            (value, install) -> value.asPositiveDecimal());
    public static final Setting<Integer> MEMTABLE_FLUSH_AFTER_MINUTES =
            Setting.integer("MemtableFlushAfterMinutes", value("60"), AppliesTo.MEMTABLES, 1, ANY);
    public static final Setting<Integer> CONCURRENT_READS =
            Setting.integer("ConcurrentReads", value("8"), AppliesTo.FRONT_END, 2, ANY);
    public static final Setting<Integer> CONCURRENT_WRITES =
            Setting.integer("ConcurrentWrites", value("32"), AppliesTo.FRONT_END, 2, ANY);
    public static final Setting<Integer> GC_GRACE_SECONDS =
            Setting.integer("GCGraceSeconds", value("864000"), AppliesTo.TOMBSTONES, 0, ANY);
    public static final Setting<Boolean> SNAPSHOT_BEFORE_COMPACTION =
            Setting.bool("SnapshotBeforeCompaction", value("false"), AppliesTo.SSTABLES);

    public static final Setting<CommitLogSync> COMMIT_LOG_SYNC = Setting.parsed("CommitLogSync", required(MISSING),
            AppliesTo.COMMIT_LOG, (value, install) -> CommitLogSync.fromConfigName(value.text()).orElseThrow(() ->
                    value.error("unknown commit log sync mode '" + value.text() + "'; expected periodic or batch")))
            .shownAs(CommitLogSync::configName);
    /** With periodic sync; null with batch. */
    public static final Setting<Integer> COMMIT_LOG_SYNC_PERIOD_IN_MS = Setting.read("CommitLogSyncPeriodInMS",
            unset(), AppliesTo.COMMIT_LOG, NodeSettings::commitLogSyncPeriod);
    /** With batch sync; null with periodic. */
    public static final Setting<Double> COMMIT_LOG_SYNC_BATCH_WINDOW_IN_MS = Setting.read(
            "CommitLogSyncBatchWindowInMS", unset(), AppliesTo.COMMIT_LOG, NodeSettings::commitLogSyncBatchWindow);

    public static final Setting<List<KeyspaceConf>> KEYSPACES = Setting.read("Keyspaces",
            unset(), AppliesTo.SCHEMA,
            KeyspacesReader::read);
    public static final Setting<Integer> RPC_TIMEOUT_IN_MILLIS = Setting.integer("RpcTimeoutInMillis",
            logged("10000", "no RpcTimeoutInMillis; using the shipped value {} (0.6's code default was 2000)"),
            AppliesTo.FRONT_END, 1, ANY);
    /** Sibyl's: the Cassandra cluster to store into; null for the embedded engine. */
    public static final Setting<ClusterConf> CLUSTER = Setting.read("Cluster", unset(), AppliesTo.CLUSTER,
            (storage, earlier) -> ClusterConfReader.read(storage, earlier).orElse(null));

    /** Every global element, in the order the loader reads them. */
    public static final List<Setting<?>> ALL = all();

    private NodeSettings() {
    }

    private static List<Setting<?>> all() {
        List<Setting<?>> all = new ArrayList<>(List.of(CLUSTER_NAME, PARTITIONER, AUTHENTICATOR, INITIAL_TOKEN,
                SAVED_CACHES_DIRECTORY, COMMIT_LOG_DIRECTORY, DATA_FILE_DIRECTORIES,
                LISTEN_ADDRESS, THRIFT_ADDRESS, THRIFT_PORT, THRIFT_DIALECT, THRIFT_API_VERSION,
                THRIFT_MAX_MESSAGE_LENGTH_IN_MB, THRIFT_MAX_CONNECTIONS, THRIFT_NETWORK_THREADS, THRIFT_IDLE_TIMEOUT_IN_SECONDS, JMX_PORT, METRICS_PORT,
                DISK_ACCESS_MODE, INDEX_INTERVAL, COMMIT_LOG_ROTATION_THRESHOLD_IN_MB, COLUMN_INDEX_SIZE_IN_KB,
                MEMTABLE_THROUGHPUT_IN_MB, MEMTABLE_OPERATIONS_IN_MILLIONS, MEMTABLE_FLUSH_AFTER_MINUTES,
                CONCURRENT_READS, CONCURRENT_WRITES, GC_GRACE_SECONDS, SNAPSHOT_BEFORE_COMPACTION,
                COMMIT_LOG_SYNC, COMMIT_LOG_SYNC_PERIOD_IN_MS, COMMIT_LOG_SYNC_BATCH_WINDOW_IN_MS));
        all.addAll(UnusedSettings.ALL);
        all.addAll(List.of(KEYSPACES, RPC_TIMEOUT_IN_MILLIS, CLUSTER));
        return List.copyOf(all);
    }

    /** The names of {@link #ALL}: the global elements the loader knows. */
    static Set<String> elements() {
        return ALL.stream().map(Setting::element).collect(Collectors.toUnmodifiableSet());
    }

    /** Each DataFileDirectory, at least one; none may be the commit log directory. */
    private static List<Path> dataFileDirectories(ConfigNode storage, StorageConf.Builder earlier)
            throws ConfigurationException {
        Path commitLogDirectory = earlier.get(COMMIT_LOG_DIRECTORY);
        List<Path> dataDirectories = new ArrayList<>();
        for (ConfigValue value : storage.listValues("DataFileDirectories", "DataFileDirectory")) {
            Path dataDirectory = value.asDirectory(earlier.installDirectory());
            if (dataDirectory.equals(commitLogDirectory)) {
                throw storage.error(COMMIT_LOG_DIRECTORY.element(), "the commit log directory must differ from"
                        + " every data directory, but equals " + value.path() + " (" + dataDirectory + ")");
            }
            dataDirectories.add(dataDirectory);
        }
        return dataDirectories;
    }

    /**
     * Required with periodic sync, refused with batch. Both elements are looked at here, so the
     * refusal of a file that gives the wrong one is the same whichever of the two is wrong.
     */
    private static Integer commitLogSyncPeriod(ConfigNode storage, StorageConf.Builder earlier)
            throws ConfigurationException {
        var period = storage.value(COMMIT_LOG_SYNC_PERIOD_IN_MS.element());
        var window = storage.value(COMMIT_LOG_SYNC_BATCH_WINDOW_IN_MS.element());
        if (earlier.get(COMMIT_LOG_SYNC) == CommitLogSync.PERIODIC) {
            if (window.isPresent()) {
                throw window.get().error("not allowed with periodic CommitLogSync (it belongs to batch)");
            }
            return period.orElseThrow(() -> storage.error(COMMIT_LOG_SYNC_PERIOD_IN_MS.element(),
                    MISSING + " (CommitLogSync is periodic)")).asInt(1, ANY);
        }
        if (period.isPresent()) {
            throw period.get().error("not allowed with batch CommitLogSync (it belongs to periodic)");
        }
        window.orElseThrow(() -> storage.error(COMMIT_LOG_SYNC_BATCH_WINDOW_IN_MS.element(),
                MISSING + " (CommitLogSync is batch)"));
        return null;
    }

    /** Required with batch sync; {@link #commitLogSyncPeriod} has refused it with periodic. */
    private static Double commitLogSyncBatchWindow(ConfigNode storage, StorageConf.Builder earlier)
            throws ConfigurationException {
        var window = storage.value(COMMIT_LOG_SYNC_BATCH_WINDOW_IN_MS.element());
        if (earlier.get(COMMIT_LOG_SYNC) != CommitLogSync.BATCH) {
            return null;
        }
        ConfigValue batchWindow = window.orElseThrow();
        double windowInMS = batchWindow.asDecimal();
        if (windowInMS < 0) {
            throw batchWindow.error("cannot be negative, found " + batchWindow.text());
        }
        return windowInMS;
    }

    /**
     * A wildcard (any-local) address written as an IP literal, such as 0.0.0.0 or ::. Host names
     * are not looked up here: loading configuration does no DNS.
     */
    static boolean isWildcard(String address) {
        if (address.matches("0+(\\.0+){0,3}")) {
            return true; // 0.0.0.0, or a shortened form such as 0 that Java reads the same way
        }
        if (address.contains(":")) {
            try {
                // A literal with a colon is parsed as IPv6, never looked up.
                return InetAddress.getByName(address).isAnyLocalAddress();
            } catch (UnknownHostException | SecurityException e) {
                return false;
            }
        }
        return false;
    }
}
