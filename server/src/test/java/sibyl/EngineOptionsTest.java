package sibyl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import sibyl.commitlog.StorageOptions;
import sibyl.commitlog.SyncMode;
import sibyl.config.CommitLogSync;
import sibyl.config.DiskAccessMode;
import sibyl.config.StorageConf;

class EngineOptionsTest {
    private static StorageConf.Builder conf() {
        return StorageConf.builder().partitioner("org.apache.cassandra.dht.RandomPartitioner")
                .savedCachesDirectory(Path.of("/x/caches")).commitLogDirectory(Path.of("/x/commitlog"))
                .dataFileDirectories(List.of(Path.of("/x/data1"), Path.of("/x/data2")))
                .diskAccessMode(DiskAccessMode.AUTO).configFile(Path.of("/x/conf/storage-conf.xml"))
                .installDirectory(Path.of("/x"));
    }

    @Test
    void batchWindowKeepsItsFractionOfAMillisecond() {
        StorageOptions o = SibylNode.engineOptions(conf().commitLogSync(CommitLogSync.BATCH)
                .commitLogSyncBatchWindowInMS(0.5).commitLogRotationThresholdInMB(3).build());
        assertEquals(new SyncMode.Batch(Duration.ofNanos(500_000)), o.sync());
        assertEquals(3L << 20, o.segmentSizeBytes());
    }

    @Test
    void periodicCarriesItsPeriodAndTheOtherSettings() {
        StorageOptions o = SibylNode.engineOptions(conf().commitLogSync(CommitLogSync.PERIODIC)
                .commitLogSyncPeriodInMS(10_000).indexInterval(64).columnIndexSizeInKB(32).memtableThroughputInMB(16)
                .memtableOperationsInMillions(0.3).memtableFlushAfterMinutes(5).gcGraceSeconds(100).build());
        assertEquals(new SyncMode.Periodic(Duration.ofSeconds(10)), o.sync());
        assertEquals(Path.of("/x/commitlog"), o.commitLogDirectory());
        assertEquals(List.of(Path.of("/x/data1"), Path.of("/x/data2")), o.dataDirectories());
        assertEquals(128L << 20, o.segmentSizeBytes());
        assertEquals(64, o.indexInterval());
        assertEquals(32 << 10, o.columnIndexSizeBytes());
        assertEquals(16L << 20, o.memtableThroughputBytes());
        assertEquals(300_000, o.memtableOperations());
        assertEquals(Duration.ofMinutes(5), o.memtableFlushAfter());
        assertEquals(100, o.gcGraceSeconds());
    }
}
