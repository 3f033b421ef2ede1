package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import sibyl.config.DiskAccessMode;
import sibyl.db.CFMetaData;
import sibyl.db.marshal.BytesType;
import sibyl.io.FileAccess;
import sibyl.testing.TestConf;

class EngineSettingsTest {
    private static final Path DIR = Path.of("/x");

    @Test
    void carriesWhatTheConfigurationSays() {
        EngineSettings s = EngineSettings.from(TestConf.builder(DIR)
                .dataFileDirectories(List.of(Path.of("/x/data1"), Path.of("/x/data2"))).indexInterval(64)
                .columnIndexSizeInKB(32).memtableThroughputInMB(16).memtableOperationsInMillions(0.3)
                .memtableFlushAfterMinutes(5).gcGraceSeconds(100).diskAccessMode(DiskAccessMode.MMAP_INDEX_ONLY)
                .build());
        assertEquals(List.of(Path.of("/x/data1"), Path.of("/x/data2")), s.dataDirectories());
        assertEquals(64, s.indexInterval());
        assertEquals(32 << 10, s.columnIndexSize());
        assertEquals(new MemtableLimits(16L << 20, 300_000, Duration.ofMinutes(5)), s.memtableLimits());
        assertEquals(100, s.gcGraceSeconds());
        assertEquals(Path.of("/x/saved_caches"), s.savedCachesDirectory());
        assertEquals(FileAccess.MMAP_INDEX_ONLY, s.fileAccess());
    }

    @Test
    void theSmallestOperationLimitFlushesAfterEveryWrite() {
        EngineSettings s = EngineSettings.from(TestConf.builder(DIR).memtableOperationsInMillions(0.0000001).build());
        assertEquals(1, s.memtableLimits().operations());
    }

    @Test
    void aColumnFamilysOwnGraceOverridesTheNodes() {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        EngineSettings s = EngineSettings.from(TestConf.builder(DIR).gcGraceSeconds(100).build())
                .withClock(Clock.fixed(now, ZoneOffset.UTC));
        CFMetaData plain = CFMetaData.standard("K", "C", BytesType.instance);
        assertEquals(now.getEpochSecond() - 100, s.gcBefore(plain));
        assertEquals(now.getEpochSecond() - 7, s.gcBefore(plain.withGcGraceSeconds(7)));
    }
}
