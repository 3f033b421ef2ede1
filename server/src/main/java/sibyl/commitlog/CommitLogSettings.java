package sibyl.commitlog;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import sibyl.config.CommitLogSync;
import sibyl.config.StorageConf;

/**
 * What the commit log reads of storage-conf.xml, and nothing else. Immutable.
 *
 * @param directory        CommitLogDirectory
 * @param sync             CommitLogSync with its period or batch window
 * @param segmentSizeBytes CommitLogRotationThresholdInMB: a segment is closed and a new one begun
 *                         once it holds this many bytes
 */
public record CommitLogSettings(Path directory, SyncMode sync, long segmentSizeBytes) {
    public CommitLogSettings {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(sync, "sync");
    }

    /** The commit log's settings as the loaded configuration gives them. */
    public static CommitLogSettings from(StorageConf conf) {
        SyncMode sync = conf.commitLogSync() == CommitLogSync.BATCH
                ? new SyncMode.Batch(Duration.ofNanos(Math.round(conf.commitLogSyncBatchWindowInMS() * 1_000_000)))
                : new SyncMode.Periodic(Duration.ofMillis(conf.commitLogSyncPeriodInMS()));
        return new CommitLogSettings(conf.commitLogDirectory(), sync, (long) conf.commitLogRotationThresholdInMB() << 20);
    }
}
