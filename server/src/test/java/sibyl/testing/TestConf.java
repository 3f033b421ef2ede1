package sibyl.testing;

import java.nio.file.Path;
import java.util.List;
import sibyl.config.CommitLogSync;
import sibyl.config.DiskAccessMode;
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
        return StorageConf.builder().partitioner("org.apache.cassandra.dht.RandomPartitioner")
                .commitLogDirectory(dir.resolve("commitlog")).dataFileDirectories(List.of(dir.resolve("data")))
                .savedCachesDirectory(dir.resolve("saved_caches")).diskAccessMode(DiskAccessMode.STANDARD)
                .commitLogSync(CommitLogSync.PERIODIC).commitLogSyncPeriodInMS(10_000)
                .configFile(dir.resolve("conf/storage-conf.xml")).installDirectory(dir);
    }
}
