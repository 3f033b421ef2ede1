package sibyl.testing;

import java.nio.file.Path;
import java.util.List;
import sibyl.config.CommitLogSync;
import sibyl.config.DiskAccessMode;
import sibyl.config.NodeSettings;
import sibyl.config.StorageConf;

/**
 * A configuration as a test builds it without a file: StorageConf's own defaults for every
 * setting, the required ones filled in, and every directory under one temporary directory.
 */
public final class TestConf {
    private TestConf() {
    }

    /** RandomPartitioner, periodic commit log every 10 s, positional reads; edit the builder for more. */
    public static StorageConf.Builder builder(Path dir) {
        return StorageConf.builder().set(NodeSettings.PARTITIONER, "org.apache.cassandra.dht.RandomPartitioner")
                .set(NodeSettings.COMMIT_LOG_DIRECTORY, dir.resolve("commitlog"))
                .set(NodeSettings.DATA_FILE_DIRECTORIES, List.of(dir.resolve("data")))
                .set(NodeSettings.SAVED_CACHES_DIRECTORY, dir.resolve("saved_caches"))
                .set(NodeSettings.DISK_ACCESS_MODE, DiskAccessMode.STANDARD)
                .set(NodeSettings.COMMIT_LOG_SYNC, CommitLogSync.PERIODIC)
                .set(NodeSettings.COMMIT_LOG_SYNC_PERIOD_IN_MS, 10_000)
                .configFile(dir.resolve("conf/storage-conf.xml")).installDirectory(dir);
    }
}
