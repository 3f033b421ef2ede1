package sibyl.commitlog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import sibyl.config.CommitLogSync;
import sibyl.config.NodeSettings;
import sibyl.testing.TestConf;

class CommitLogSettingsTest {
    private static final Path DIR = Path.of("/x");

    @Test
    void batchWindowKeepsItsFractionOfAMillisecond() {
        CommitLogSettings s = CommitLogSettings.from(TestConf.builder(DIR)
                .set(NodeSettings.COMMIT_LOG_SYNC, CommitLogSync.BATCH).set(NodeSettings.COMMIT_LOG_SYNC_PERIOD_IN_MS, null)
                .set(NodeSettings.COMMIT_LOG_SYNC_BATCH_WINDOW_IN_MS, 0.5)
                .set(NodeSettings.COMMIT_LOG_ROTATION_THRESHOLD_IN_MB, 3).build());
        assertEquals(new SyncMode.Batch(Duration.ofNanos(500_000)), s.sync());
        assertEquals(3L << 20, s.segmentSizeBytes());
    }

    @Test
    void periodicCarriesItsPeriodDirectoryAndSegmentSize() {
        CommitLogSettings s = CommitLogSettings.from(TestConf.builder(DIR).set(NodeSettings.COMMIT_LOG_SYNC_PERIOD_IN_MS, 2_500).build());
        assertEquals(new SyncMode.Periodic(Duration.ofMillis(2_500)), s.sync());
        assertEquals(Path.of("/x/commitlog"), s.directory());
        assertEquals(128L << 20, s.segmentSizeBytes(), "CommitLogRotationThresholdInMB's default");
    }
}
