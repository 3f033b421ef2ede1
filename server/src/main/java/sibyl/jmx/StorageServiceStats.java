package sibyl.jmx;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import sibyl.db.InvalidQueryException;
import sibyl.engine.ColumnFamilyStore;
import sibyl.engine.Keyspace;
import sibyl.engine.LocalStorageService;

/** The management view of the node. */
final class StorageServiceStats implements StorageServiceMBean {
    private final String clusterName;
    private final String token;
    private final String endpoint;
    private final LocalStorageService storage;

    StorageServiceStats(String clusterName, String token, String endpoint, LocalStorageService storage) {
        this.clusterName = clusterName;
        this.token = token;
        this.endpoint = endpoint;
        this.storage = storage;
    }

    @Override
    public String getClusterName() {
        return clusterName;
    }

    @Override
    public String getToken() {
        return token;
    }

    @Override
    public String getEndpoint() {
        return endpoint;
    }

    @Override
    public long getLoad() {
        long bytes = 0;
        for (Keyspace ks : storage.openKeyspaces()) {
            for (ColumnFamilyStore store : ks.stores()) {
                bytes += store.memtable().throughputBytes() + store.liveDiskSpaceUsed();
            }
        }
        return bytes;
    }

    @Override
    public Map<String, String> getTokenToEndpointMap() {
        return Map.of(token, endpoint);
    }

    @Override
    public List<String> getKeyspaces() {
        List<String> names = new ArrayList<>();
        for (Keyspace ks : storage.openKeyspaces()) names.add(ks.name());
        return names;
    }

    // Operations: errors go back as JDK exceptions with the message only, since a JMX client
    // cannot deserialize the server's own exception classes.

    @Override
    public void forceTableFlush(String keyspace, String... columnFamilies) throws IOException, InterruptedException {
        forceTableFlushWithin(LocalStorageService.DEFAULT_FLUSH_TIMEOUT.toSeconds(), keyspace, columnFamilies);
    }

    @Override
    public void forceTableFlushWithin(long timeoutSeconds, String keyspace, String... columnFamilies)
            throws IOException, InterruptedException {
        try {
            storage.forceFlush(timeout(timeoutSeconds), keyspace, columnFamilies == null ? new String[0] : columnFamilies);
        } catch (InvalidQueryException e) {
            throw new IllegalArgumentException(e.getMessage());
        } catch (IOException e) {
            throw new IOException(e.getMessage());
        }
    }

    @Override
    public void forceTableCompaction(String keyspace) throws IOException, InterruptedException {
        try {
            storage.forceMajorCompaction(keyspace);
        } catch (InvalidQueryException e) {
            throw new IllegalArgumentException(e.getMessage());
        } catch (IOException e) {
            throw new IOException(e.getMessage());
        }
    }

    @Override
    public int loadNewSSTables(String keyspace, String columnFamily) throws IOException {
        try {
            return storage.loadNewSSTables(keyspace, columnFamily);
        } catch (InvalidQueryException e) {
            throw new IllegalArgumentException(e.getMessage());
        } catch (IOException e) {
            throw new IOException(e.getMessage());
        }
    }

    @Override
    public void drain() throws IOException, InterruptedException {
        drainWithin(LocalStorageService.DEFAULT_FLUSH_TIMEOUT.toSeconds());
    }

    @Override
    public void drainWithin(long timeoutSeconds) throws IOException, InterruptedException {
        try {
            storage.drain(timeout(timeoutSeconds));
        } catch (IOException e) {
            throw new IOException(e.getMessage());
        }
    }

    @Override
    public List<String> takeAllSnapshot(String tag) throws IOException, InterruptedException {
        return takeAllSnapshotWithin(LocalStorageService.DEFAULT_FLUSH_TIMEOUT.toSeconds(), tag);
    }

    @Override
    public List<String> takeAllSnapshotWithin(long timeoutSeconds, String tag) throws IOException, InterruptedException {
        try {
            return paths(storage.takeSnapshot(tag, timeout(timeoutSeconds)).directories());
        } catch (IOException e) {
            throw new IOException(e.getMessage());
        }
    }

    @Override
    public List<String> clearSnapshot() throws IOException {
        return clearSnapshot(null);
    }

    @Override
    public List<String> clearSnapshot(String tag) throws IOException {
        try {
            return paths(storage.clearSnapshot(tag));
        } catch (IOException e) {
            throw new IOException(e.getMessage());
        }
    }

    @Override
    public List<String> scrub(String keyspace, String... columnFamilies) throws IOException, InterruptedException {
        return lines(() -> storage.scrub(keyspace, columnFamilies == null ? new String[0] : columnFamilies));
    }

    @Override
    public List<String> upgradeSSTables(String keyspace, String... columnFamilies) throws IOException,
            InterruptedException {
        return lines(() -> storage.upgradeSSTables(keyspace, columnFamilies == null ? new String[0] : columnFamilies));
    }

    /** A per column family operation of the storage. */
    private interface ReportingOperation {
        List<?> run() throws IOException, InterruptedException;
    }

    /**
     * The reports of {@code operation} as lines for nodetool; failures as exceptions of the JDK's own types, with
     * their message, so that a JMX client without the server's classes reads them.
     */
    private static List<String> lines(ReportingOperation operation) throws IOException, InterruptedException {
        try {
            List<String> lines = new ArrayList<>();
            for (Object report : operation.run()) lines.add(report.toString());
            return lines;
        } catch (InvalidQueryException e) {
            throw new IllegalArgumentException(e.getMessage());
        } catch (IOException e) {
            throw new IOException(e.getMessage());
        }
    }

    private static List<String> paths(List<Path> paths) {
        List<String> names = new ArrayList<>();
        for (Path p : paths) names.add(p.toString());
        return names;
    }

    private static Duration timeout(long seconds) {
        if (seconds <= 0) throw new IllegalArgumentException("timeout must be positive: " + seconds + " s");
        return Duration.ofSeconds(seconds);
    }
}
