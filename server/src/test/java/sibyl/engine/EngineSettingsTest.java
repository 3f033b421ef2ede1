package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import sibyl.config.DiskAccessMode;
import sibyl.config.AppliesTo;
import sibyl.config.NodeSettings;
import sibyl.config.Setting;
import sibyl.config.StorageConf;
import sibyl.db.CFMetaData;
import sibyl.db.marshal.BytesType;
import sibyl.io.FileAccess;
import sibyl.testing.TestConf;

class EngineSettingsTest {
    private static final Path DIR = Path.of("/x");

    @Test
    void carriesWhatTheConfigurationSays() {
        EngineSettings s = EngineSettings.from(TestConf.builder(DIR)
                .set(NodeSettings.DATA_FILE_DIRECTORIES, List.of(Path.of("/x/data1"), Path.of("/x/data2")))
                .set(NodeSettings.INDEX_INTERVAL, 64).set(NodeSettings.COLUMN_INDEX_SIZE_IN_KB, 32)
                .set(NodeSettings.MEMTABLE_THROUGHPUT_IN_MB, 16).set(NodeSettings.MEMTABLE_OPERATIONS_IN_MILLIONS, 0.3)
                .set(NodeSettings.MEMTABLE_FLUSH_AFTER_MINUTES, 5).set(NodeSettings.GC_GRACE_SECONDS, 100)
                .set(NodeSettings.DISK_ACCESS_MODE, DiskAccessMode.MMAP_INDEX_ONLY)
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
        EngineSettings s = EngineSettings.from(TestConf.builder(DIR).set(NodeSettings.MEMTABLE_OPERATIONS_IN_MILLIONS, 0.0000001).build());
        assertEquals(1, s.memtableLimits().operations());
    }

    @Test
    void aColumnFamilysOwnGraceOverridesTheNodes() {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        EngineSettings s = EngineSettings.from(TestConf.builder(DIR).set(NodeSettings.GC_GRACE_SECONDS, 100).build())
                .toBuilder().clock(Clock.fixed(now, ZoneOffset.UTC)).build();
        CFMetaData plain = CFMetaData.standard("K", "C", BytesType.instance);
        assertEquals(now.getEpochSecond() - 100, s.gcBefore(plain));
        assertEquals(now.getEpochSecond() - 7, s.gcBefore(plain.withGcGraceSeconds(7)));
    }

    /**
     * What a reload hands the running engine ({@link EngineSettings#retunedTo}) is exactly what the
     * configuration declares live: a change to a live setting reaches the engine, a change to any
     * other leaves it as it started.
     */
    @Test
    void aReloadRetunesExactlyTheSettingsDeclaredLive() {
        StorageConf running = TestConf.builder(DIR).build();
        EngineSettings started = EngineSettings.from(running);
        List<String> reachedTheEngine = new ArrayList<>();
        for (Setting<?> setting : NodeSettings.ALL) {
            StorageConf.Builder changed = TestConf.builder(DIR);
            if (!changeOne(setting, running, changed)) continue;
            EngineSettings reloaded = EngineSettings.from(changed.build());
            boolean live = setting.appliesTo().reload() == AppliesTo.Reload.LIVE;
            assertEquals(live ? reloaded : started, started.retunedTo(reloaded), setting.element());
            if (live) {
                assertNotEquals(started, reloaded, setting.element() + " is live but does not reach the engine");
                reachedTheEngine.add(setting.element());
            }
        }
        assertEquals(List.of("MemtableThroughputInMB", "MemtableOperationsInMillions", "MemtableFlushAfterMinutes",
                "GCGraceSeconds"), reachedTheEngine);
    }

    /** Gives {@code setting} in {@code into} a value other than {@code from}'s; false for a kind of value it cannot vary. */
    @SuppressWarnings("unchecked") // each branch sets a value of the type it found
    private static <T> boolean changeOne(Setting<T> setting, StorageConf from, StorageConf.Builder into) {
        Object value = from.get(setting);
        Object other;
        if (value instanceof Integer i) {
            other = i + 1;
        } else if (value instanceof Double d) {
            other = d * 2;
        } else if (value instanceof Boolean b) {
            other = !b;
        } else if (value instanceof DiskAccessMode mode) {
            other = mode == DiskAccessMode.MMAP ? DiskAccessMode.STANDARD : DiskAccessMode.MMAP;
        } else if (value instanceof Path path) {
            other = path.resolveSibling(path.getFileName() + "2");
        } else {
            return false;
        }
        into.set(setting, (T) other);
        return true;
    }
}
