package sibyl.config;

import static sibyl.config.StorageConf.DEFAULT_CLUSTER_NAME;
import static sibyl.config.StorageConf.DEFAULT_COLUMN_INDEX_SIZE_IN_KB;
import static sibyl.config.StorageConf.DEFAULT_COMMIT_LOG_ROTATION_THRESHOLD_IN_MB;
import static sibyl.config.StorageConf.DEFAULT_CONCURRENT_READS;
import static sibyl.config.StorageConf.DEFAULT_CONCURRENT_WRITES;
import static sibyl.config.StorageConf.DEFAULT_GC_GRACE_SECONDS;
import static sibyl.config.StorageConf.DEFAULT_INDEX_INTERVAL;
import static sibyl.config.StorageConf.DEFAULT_JMX_PORT;
import static sibyl.config.StorageConf.DEFAULT_MEMTABLE_FLUSH_AFTER_MINUTES;
import static sibyl.config.StorageConf.DEFAULT_METRICS_PORT;
import static sibyl.config.StorageConf.DEFAULT_MEMTABLE_OPERATIONS_IN_MILLIONS;
import static sibyl.config.StorageConf.DEFAULT_MEMTABLE_THROUGHPUT_IN_MB;
import static sibyl.config.StorageConf.DEFAULT_RPC_TIMEOUT_IN_MILLIS;
import static sibyl.config.StorageConf.DEFAULT_THRIFT_IDLE_TIMEOUT_IN_SECONDS;
import static sibyl.config.StorageConf.DEFAULT_THRIFT_MAX_CONNECTIONS;
import static sibyl.config.StorageConf.DEFAULT_THRIFT_MAX_MESSAGE_LENGTH_IN_MB;
import static sibyl.config.StorageConf.DEFAULT_THRIFT_PORT;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.xml.sax.ErrorHandler;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * Reads storage-conf.xml into a {@link StorageConf}. Files written for 0.6 load unchanged, and so
 * do files of 0.7's XML era. Unknown elements and attributes are warned about and skipped;
 * anything Sibyl cannot run with is refused with a {@link ConfigurationException} naming the file,
 * the element and the problem.
 *
 * <p>Each value is read with the parser 0.6 used for it ({@link ConfigValue}), so text 0.6 took
 * loads here. Beyond 0.6's own checks, a setting Sibyl uses is refused where the node could not
 * run with it (a timeout, segment size, memtable limit or sync period of 0 or less, a negative
 * grace period); settings Sibyl has no use for are checked as 0.6 checked them and not kept
 * ({@link UnusedSettings}).
 *
 * <p>Where 0.6 silently used a surprising code default (no ClusterName, a 2 second
 * RpcTimeoutInMillis), the value 0.6 shipped in its sample file is used instead and the log says
 * so. Relative directories are resolved against the install directory.
 */
public final class StorageConfLoader {
    private static final Logger log = LoggerFactory.getLogger(StorageConfLoader.class);

    static final String DEFAULT_SAVED_CACHES_DIRECTORY = "var/saved_caches";
    static final int MAX_PORT = 65_535;
    /** Keeps the limit in bytes within an int. */
    static final int MAX_MESSAGE_LENGTH_IN_MB = 2047;
    /** Keeps the column index size in bytes within an int. */
    static final int MAX_COLUMN_INDEX_SIZE_IN_KB = Integer.MAX_VALUE >> 10;
    private static final int ANY = Integer.MAX_VALUE;

    /** The global elements Sibyl uses; with {@link UnusedSettings#ELEMENTS}, all it knows. */
    private static final Set<String> USED_ELEMENTS = Set.of(
            "ClusterName", "IndexInterval", "Keyspaces", "Authenticator", "Partitioner", "InitialToken",
            "SavedCachesDirectory", "CommitLogDirectory", "DataFileDirectories", "RpcTimeoutInMillis",
            "CommitLogRotationThresholdInMB", "ListenAddress", "ThriftAddress", "ThriftPort", "DiskAccessMode",
            "ColumnIndexSizeInKB", "MemtableThroughputInMB", "MemtableOperationsInMillions",
            "MemtableFlushAfterMinutes", "ConcurrentReads", "ConcurrentWrites", "CommitLogSync",
            "CommitLogSyncPeriodInMS", "CommitLogSyncBatchWindowInMS", "GCGraceSeconds",
            "ThriftMaxMessageLengthInMB", "ThriftMaxConnections", "ThriftIdleTimeoutInSeconds", "ThriftNetworkThreads", "JmxPort",
            "SnapshotBeforeCompaction", "MetricsPort", "Cluster");
    private static final Set<String> GLOBAL_ELEMENTS = union(USED_ELEMENTS, UnusedSettings.ELEMENTS);

    private StorageConfLoader() {
    }

    /**
     * Loads a storage-conf.xml that lives in {@code <install>/conf/}.
     *
     * @see InstallDirectory#ofConfigFile(Path)
     */
    public static StorageConf load(Path file) throws ConfigurationException {
        return load(file, InstallDirectory.ofConfigFile(file));
    }

    /**
     * @param file the storage-conf.xml to read; error messages name it as given here
     * @param installDir what relative directories in the file are resolved against, normally the
     *     parent of {@code conf/}
     */
    public static StorageConf load(Path file, Path installDir) throws ConfigurationException {
        Objects.requireNonNull(file, "file");
        Path install = installDir.toAbsolutePath().normalize();
        Element root = parse(file);
        if (!root.getTagName().equals("Storage")) {
            throw new ConfigurationException(file, root.getTagName(),
                    "the root element must be <Storage>, not <" + root.getTagName() + ">");
        }
        ConfigNode storage = new ConfigNode(file, root, "Storage");
        storage.warnUnknown(GLOBAL_ELEMENTS, Set.of());

        StorageConf.Builder conf = StorageConf.builder().configFile(file).installDirectory(install);
        readIdentity(storage, conf);
        readDirectories(storage, install, conf);
        readNetwork(storage, conf);
        readTuning(storage, conf);
        readCommitLogSync(storage, conf);
        UnusedSettings.check(storage);
        List<KeyspaceConf> keyspaces = new KeyspacesReader().read(storage);
        conf.keyspaces(keyspaces);
        int rpcTimeout = rpcTimeout(storage);
        conf.rpcTimeoutInMillis(rpcTimeout);
        conf.cluster(ClusterConfReader.read(storage, install, rpcTimeout, keyspaces).orElse(null));
        StorageConf loaded = conf.build();
        log.info("Loaded {}: cluster '{}', {} keyspace(s), {}, commit log sync {}", file, loaded.clusterName(),
                loaded.keyspaces().size(), ClassNames.shortName(loaded.partitioner()),
                loaded.commitLogSync().configName());
        return loaded;
    }

    private static Element parse(Path file) throws ConfigurationException {
        if (!Files.exists(file)) {
            throw new ConfigurationException(file, "", "file not found (looked for " + file.toAbsolutePath() + ")");
        }
        if (!Files.isRegularFile(file)) {
            throw new ConfigurationException(file, "", "not a regular file");
        }
        try (InputStream in = Files.newInputStream(file)) {
            Document document = newDocumentBuilder().parse(in, file.toUri().toString());
            return document.getDocumentElement();
        } catch (SAXParseException e) {
            String where = "line " + e.getLineNumber() + ", column " + e.getColumnNumber();
            if (String.valueOf(e.getMessage()).contains("DOCTYPE")) {
                throw new ConfigurationException(file, where,
                        "a DOCTYPE is not allowed: Sibyl reads no DTDs or external entities", e);
            }
            throw new ConfigurationException(file, where, "not well-formed XML: " + e.getMessage(), e);
        } catch (SAXException e) {
            throw new ConfigurationException(file, "", "not well-formed XML: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new ConfigurationException(file, "", "cannot be read: " + e, e);
        }
    }

    /**
     * A parser that reads no DTD and resolves no external entity or XInclude, so a configuration
     * file cannot make the server fetch or disclose other files (XXE).
     */
    private static DocumentBuilder newDocumentBuilder() {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
            factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            factory.setXIncludeAware(false);
            factory.setExpandEntityReferences(false);
            factory.setNamespaceAware(false);
            factory.setIgnoringComments(true);
            factory.setCoalescing(true);
            DocumentBuilder builder = factory.newDocumentBuilder();
            builder.setErrorHandler(new ErrorHandler() {
                // The default handler prints to stderr; a failure belongs in the exception instead.
                @Override
                public void warning(SAXParseException e) {
                    log.warn("XML warning at line {}: {}", e.getLineNumber(), e.getMessage());
                }

                @Override
                public void error(SAXParseException e) throws SAXException {
                    throw e;
                }

                @Override
                public void fatalError(SAXParseException e) throws SAXException {
                    throw e;
                }
            });
            return builder;
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK XML parser lacks a required safety feature", e);
        }
    }

    private static void readIdentity(ConfigNode storage, StorageConf.Builder conf) throws ConfigurationException {
        Optional<ConfigValue> clusterName = storage.value("ClusterName");
        if (clusterName.isPresent()) {
            conf.clusterName(clusterName.get().text());
        } else {
            log.info("{}: no ClusterName; using the shipped value '{}' (0.6 would have used none)",
                    storage.file(), DEFAULT_CLUSTER_NAME);
            conf.clusterName(DEFAULT_CLUSTER_NAME);
        }
        ConfigValue partitioner = storage.requiredValue("Partitioner");
        conf.partitioner(ClassNames.partitioner(partitioner.text()).orElseThrow(() -> partitioner.error(
                "unknown partitioner '" + partitioner.text() + "'; Sibyl supports "
                        + ClassNames.shortNames(ClassNames.PARTITIONERS))));
        Optional<ConfigValue> authenticator = storage.value("Authenticator");
        if (authenticator.isPresent()) {
            String name = authenticator.get().text();
            conf.authenticator(ClassNames.authenticator(name).orElseThrow(() -> authenticator.get().error(
                    "unknown authenticator '" + name + "'; Sibyl supports "
                            + ClassNames.shortNames(ClassNames.AUTHENTICATORS))));
        }
        conf.initialToken(storage.text("InitialToken"));
    }

    private static void readDirectories(ConfigNode storage, Path install, StorageConf.Builder conf)
            throws ConfigurationException {
        Optional<ConfigValue> savedCaches = storage.value("SavedCachesDirectory");
        if (savedCaches.isPresent()) {
            conf.savedCachesDirectory(savedCaches.get().asDirectory(install));
        } else {
            // Required from 0.6.6 on, absent from 0.6.0-0.6.5 files, which must still load.
            log.info("{}: no SavedCachesDirectory; using {}", storage.file(), DEFAULT_SAVED_CACHES_DIRECTORY);
            conf.savedCachesDirectory(install.resolve(DEFAULT_SAVED_CACHES_DIRECTORY));
        }
        ConfigValue commitLog = storage.requiredValue("CommitLogDirectory");
        Path commitLogDirectory = commitLog.asDirectory(install);
        conf.commitLogDirectory(commitLogDirectory);

        List<Path> dataDirectories = new ArrayList<>();
        for (ConfigValue value : storage.listValues("DataFileDirectories", "DataFileDirectory")) {
            Path dataDirectory = value.asDirectory(install);
            if (dataDirectory.equals(commitLogDirectory)) {
                throw commitLog.error("the commit log directory must differ from every data directory, but "
                        + "equals " + value.path() + " (" + dataDirectory + ")");
            }
            dataDirectories.add(dataDirectory);
        }
        conf.dataFileDirectories(dataDirectories);
    }

    private static void readNetwork(ConfigNode storage, StorageConf.Builder conf) throws ConfigurationException {
        Optional<ConfigValue> listenAddress = storage.value("ListenAddress");
        if (listenAddress.isPresent() && isWildcard(listenAddress.get().text())) {
            throw listenAddress.get().error("'" + listenAddress.get().text() + "' is a wildcard address; other "
                    + "nodes need one they can reach, so give this host's address or leave ListenAddress empty");
        }
        conf.listenAddress(listenAddress.map(ConfigValue::text).orElse(null));
        conf.thriftAddress(storage.text("ThriftAddress"));
        conf.thriftPort(storage.integer("ThriftPort", DEFAULT_THRIFT_PORT, 0, MAX_PORT));
        conf.thriftMaxMessageLengthInMB(storage.integer("ThriftMaxMessageLengthInMB", DEFAULT_THRIFT_MAX_MESSAGE_LENGTH_IN_MB, 1,
                MAX_MESSAGE_LENGTH_IN_MB));
        conf.thriftMaxConnections(storage.integer("ThriftMaxConnections", DEFAULT_THRIFT_MAX_CONNECTIONS, 1, ANY));
        conf.thriftNetworkThreads(storage.integer("ThriftNetworkThreads", 0, 0, ANY));
        conf.thriftIdleTimeoutInSeconds(storage.integer("ThriftIdleTimeoutInSeconds", DEFAULT_THRIFT_IDLE_TIMEOUT_IN_SECONDS, 0, ANY));
        conf.jmxPort(storage.integer("JmxPort", DEFAULT_JMX_PORT, 0, MAX_PORT));
        conf.metricsPort(storage.integer("MetricsPort", DEFAULT_METRICS_PORT, 0, MAX_PORT));
    }

    private static int rpcTimeout(ConfigNode storage) throws ConfigurationException {
        Optional<ConfigValue> value = storage.value("RpcTimeoutInMillis");
        if (value.isPresent()) {
            return value.get().asInt(1, ANY);
        }
        log.info("{}: no RpcTimeoutInMillis; using the shipped value {} (0.6's code default was 2000)",
                storage.file(), DEFAULT_RPC_TIMEOUT_IN_MILLIS);
        return DEFAULT_RPC_TIMEOUT_IN_MILLIS;
    }

    private static void readTuning(ConfigNode storage, StorageConf.Builder conf) throws ConfigurationException {
        Optional<ConfigValue> diskAccess = storage.value("DiskAccessMode");
        if (diskAccess.isEmpty()) {
            throw storage.error("DiskAccessMode", "required element is missing (auto, mmap, mmap_index_only "
                    + "or standard)");
        }
        conf.diskAccessMode(DiskAccessMode.fromConfigName(diskAccess.get().text()).orElseThrow(() ->
                diskAccess.get().error("unknown disk access mode '" + diskAccess.get().text()
                        + "'; expected auto, mmap, mmap_index_only or standard")));
        conf.indexInterval(storage.integer("IndexInterval", DEFAULT_INDEX_INTERVAL, 1, ANY));
        conf.commitLogRotationThresholdInMB(storage.integer("CommitLogRotationThresholdInMB", DEFAULT_COMMIT_LOG_ROTATION_THRESHOLD_IN_MB, 1, ANY));
        conf.columnIndexSizeInKB(storage.integer("ColumnIndexSizeInKB", DEFAULT_COLUMN_INDEX_SIZE_IN_KB, 1, MAX_COLUMN_INDEX_SIZE_IN_KB));
        conf.memtableThroughputInMB(storage.integer("MemtableThroughputInMB", DEFAULT_MEMTABLE_THROUGHPUT_IN_MB, 1, ANY));
        Optional<ConfigValue> operations = storage.value("MemtableOperationsInMillions");
        conf.memtableOperationsInMillions(operations.isPresent() ? operations.get().asPositiveDecimal() : DEFAULT_MEMTABLE_OPERATIONS_IN_MILLIONS);
        conf.memtableFlushAfterMinutes(storage.integer("MemtableFlushAfterMinutes", DEFAULT_MEMTABLE_FLUSH_AFTER_MINUTES, 1, ANY));
        conf.concurrentReads(storage.integer("ConcurrentReads", DEFAULT_CONCURRENT_READS, 2, ANY));
        conf.concurrentWrites(storage.integer("ConcurrentWrites", DEFAULT_CONCURRENT_WRITES, 2, ANY));
        conf.gcGraceSeconds(storage.integer("GCGraceSeconds", DEFAULT_GC_GRACE_SECONDS, 0, ANY));
        conf.snapshotBeforeCompaction(storage.bool("SnapshotBeforeCompaction", false));
    }

    private static void readCommitLogSync(ConfigNode storage, StorageConf.Builder conf)
            throws ConfigurationException {
        ConfigValue mode = storage.requiredValue("CommitLogSync");
        CommitLogSync sync = CommitLogSync.fromConfigName(mode.text()).orElseThrow(() -> mode.error(
                "unknown commit log sync mode '" + mode.text() + "'; expected periodic or batch"));
        conf.commitLogSync(sync);
        Optional<ConfigValue> period = storage.value("CommitLogSyncPeriodInMS");
        Optional<ConfigValue> window = storage.value("CommitLogSyncBatchWindowInMS");
        if (sync == CommitLogSync.PERIODIC) {
            if (window.isPresent()) {
                throw window.get().error("not allowed with periodic CommitLogSync (it belongs to batch)");
            }
            conf.commitLogSyncPeriodInMS(period.orElseThrow(() -> storage.error("CommitLogSyncPeriodInMS",
                    "required element is missing (CommitLogSync is periodic)")).asInt(1, ANY));
        } else {
            if (period.isPresent()) {
                throw period.get().error("not allowed with batch CommitLogSync (it belongs to periodic)");
            }
            ConfigValue batchWindow = window.orElseThrow(() -> storage.error("CommitLogSyncBatchWindowInMS",
                    "required element is missing (CommitLogSync is batch)"));
            double windowInMS = batchWindow.asDecimal();
            if (windowInMS < 0) {
                throw batchWindow.error("cannot be negative, found " + batchWindow.text());
            }
            conf.commitLogSyncBatchWindowInMS(windowInMS);
        }
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
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
