package sibyl.engine;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import sibyl.config.DiskAccessMode;
import sibyl.config.StorageConf;
import sibyl.db.CFMetaData;
import sibyl.io.FileAccess;
import sibyl.io.SizeTieredBuckets;

/**
 * What the durable engine (flush, SSTables, compaction, caches) is configured with, complete:
 * built once by {@link #from} from the loaded configuration and passed down. What the
 * configuration gives per column family travels with its {@link CFMetaData} instead. Immutable.
 *
 * @param dataDirectories   DataFileDirectories: where each keyspace's SSTables go
 * @param indexInterval     IndexInterval: one index key in this many is kept in memory
 * @param columnIndexSize   ColumnIndexSizeInKB × 1024: a row's column index entry per this many bytes
 * @param memtableLimits    when a memtable is flushed
 * @param gcGraceSeconds    GCGraceSeconds: how long major compactions keep tombstones, unless a
 *                          column family has its own
 * @param buckets           size-tiered compaction's grouping
 * @param maxPendingFlushes memtables switched out but not yet written, over the node; a writer
 *                          whose switch would pass it waits for a flush to finish
 * @param flushRetryDelay   how long after a failed flush it is tried again
 * @param compactionRetryDelay how long after a failed compaction a store's background compaction
 *                          is tried again; doubled after each further failure in a row, up to
 *                          {@link #MAX_COMPACTION_RETRY_DOUBLINGS} times
 * @param clock             the time tombstones are judged by (injectable so tests need not sleep)
 * @param savedCachesDirectory SavedCachesDirectory: where the caches' keys are saved; null for
 *                          nowhere (they are then neither saved nor loaded)
 * @param fileAccess        how SSTable files are read (DiskAccessMode)
 * @param snapshotBeforeCompaction SnapshotBeforeCompaction: each compaction first snapshots its
 *                          column family's SSTables
 */
public record EngineSettings(List<Path> dataDirectories, int indexInterval, int columnIndexSize,
                             MemtableLimits memtableLimits, int gcGraceSeconds, SizeTieredBuckets buckets,
                             int maxPendingFlushes, Duration flushRetryDelay, Duration compactionRetryDelay,
                             Clock clock, Path savedCachesDirectory, FileAccess fileAccess,
                             boolean snapshotBeforeCompaction) {
    /** A compaction that keeps failing is tried again at most every 2^5 × compactionRetryDelay. */
    public static final int MAX_COMPACTION_RETRY_DOUBLINGS = 5;
    /** Memtables switched out and not yet written, over the node, before writers wait. */
    private static final int MAX_PENDING_FLUSHES = 4;
    private static final Duration FLUSH_RETRY_DELAY = Duration.ofSeconds(10);
    /** Then 20, 40, ... up to 320 s while compactions keep failing (a full data disk). */
    private static final Duration COMPACTION_RETRY_DELAY = Duration.ofSeconds(10);

    public EngineSettings {
        dataDirectories = List.copyOf(dataDirectories);
        if (dataDirectories.isEmpty()) throw new IllegalArgumentException("at least one data directory is needed");
        Objects.requireNonNull(memtableLimits, "memtableLimits");
        Objects.requireNonNull(buckets, "buckets");
        Objects.requireNonNull(flushRetryDelay, "flushRetryDelay");
        Objects.requireNonNull(fileAccess, "fileAccess");
        Objects.requireNonNull(compactionRetryDelay, "compactionRetryDelay");
        if (compactionRetryDelay.isNegative() || compactionRetryDelay.isZero()) {
            throw new IllegalArgumentException("compactionRetryDelay must be positive: " + compactionRetryDelay);
        }
        Objects.requireNonNull(clock, "clock");
        if (indexInterval <= 0) throw new IllegalArgumentException("IndexInterval must be positive: " + indexInterval);
        if (columnIndexSize <= 0) throw new IllegalArgumentException("column index size must be positive: " + columnIndexSize);
        if (gcGraceSeconds < 0) throw new IllegalArgumentException("GCGraceSeconds must not be negative: " + gcGraceSeconds);
        if (maxPendingFlushes <= 0) throw new IllegalArgumentException("maxPendingFlushes must be positive: " + maxPendingFlushes);
    }

    /** The engine's settings as the loaded configuration gives them; tombstones age by the system clock. */
    public static EngineSettings from(StorageConf conf) {
        return new Builder().dataDirectories(conf.dataFileDirectories()).indexInterval(conf.indexInterval())
                .columnIndexSize(conf.columnIndexSizeInKB() << 10).memtableLimits(MemtableLimits.from(conf))
                .gcGraceSeconds(conf.gcGraceSeconds()).buckets(SizeTieredBuckets.defaults())
                .maxPendingFlushes(MAX_PENDING_FLUSHES).flushRetryDelay(FLUSH_RETRY_DELAY)
                .compactionRetryDelay(COMPACTION_RETRY_DELAY).clock(Clock.systemUTC())
                .savedCachesDirectory(conf.savedCachesDirectory()).fileAccess(fileAccess(conf.diskAccessMode()))
                .snapshotBeforeCompaction(conf.snapshotBeforeCompaction()).build();
    }

    /** A builder holding these settings, to change some of them. */
    public Builder toBuilder() {
        return new Builder().dataDirectories(dataDirectories).indexInterval(indexInterval)
                .columnIndexSize(columnIndexSize).memtableLimits(memtableLimits).gcGraceSeconds(gcGraceSeconds)
                .buckets(buckets).maxPendingFlushes(maxPendingFlushes).flushRetryDelay(flushRetryDelay)
                .compactionRetryDelay(compactionRetryDelay).clock(clock).savedCachesDirectory(savedCachesDirectory)
                .fileAccess(fileAccess).snapshotBeforeCompaction(snapshotBeforeCompaction);
    }

    /** DiskAccessMode as the engine reads SSTables: auto is mmap on a 64-bit JVM, as in 0.6. */
    private static FileAccess fileAccess(DiskAccessMode mode) {
        return switch (mode.resolvedForThisJvm()) {
            case MMAP -> FileAccess.MMAP;
            case MMAP_INDEX_ONLY -> FileAccess.MMAP_INDEX_ONLY;
            case STANDARD, AUTO -> FileAccess.STANDARD;
        };
    }

    /**
     * Seconds since the epoch before which a tombstone of {@code columnFamily} may be purged: its
     * local deletion time is older than the column family's GCGraceSeconds, else the node's.
     */
    public int gcBefore(CFMetaData columnFamily) {
        int grace = columnFamily.gcGraceSeconds().orElse(gcGraceSeconds);
        return (int) Math.min(Integer.MAX_VALUE, clock.instant().getEpochSecond() - grace);
    }

    /** Seconds since the epoch by the engine's clock: when compaction judges expiring columns expired. */
    public int nowSeconds() {
        return (int) Math.min(Integer.MAX_VALUE, clock.instant().getEpochSecond());
    }

    /**
     * These settings with what a reloaded configuration changes live: the memtable thresholds and
     * GCGraceSeconds of {@code reloaded}; the rest stays as the engine started with it.
     */
    public EngineSettings retunedTo(EngineSettings reloaded) {
        return toBuilder().memtableLimits(reloaded.memtableLimits()).gcGraceSeconds(reloaded.gcGraceSeconds()).build();
    }

    /** The longest a failing compaction waits between attempts. */
    public Duration maxCompactionRetryDelay() {
        return compactionRetryDelay.multipliedBy(1L << MAX_COMPACTION_RETRY_DOUBLINGS);
    }

    /**
     * Collects the engine's settings, to be checked as a whole by {@link #build}. {@link #from}
     * fills one from the configuration; tests start from {@link #toBuilder} to change a few.
     */
    public static final class Builder {
        private List<Path> dataDirectories;
        private int indexInterval;
        private int columnIndexSize;
        private MemtableLimits memtableLimits;
        private int gcGraceSeconds;
        private SizeTieredBuckets buckets;
        private int maxPendingFlushes;
        private Duration flushRetryDelay;
        private Duration compactionRetryDelay;
        private Clock clock;
        private Path savedCachesDirectory;
        private FileAccess fileAccess;
        private boolean snapshotBeforeCompaction;

        private Builder() {
        }

        public Builder dataDirectories(List<Path> value) {
            this.dataDirectories = value;
            return this;
        }

        public Builder indexInterval(int value) {
            this.indexInterval = value;
            return this;
        }

        /** In bytes. */
        public Builder columnIndexSize(int value) {
            this.columnIndexSize = value;
            return this;
        }

        public Builder memtableLimits(MemtableLimits value) {
            this.memtableLimits = value;
            return this;
        }

        public Builder gcGraceSeconds(int value) {
            this.gcGraceSeconds = value;
            return this;
        }

        public Builder buckets(SizeTieredBuckets value) {
            this.buckets = value;
            return this;
        }

        public Builder maxPendingFlushes(int value) {
            this.maxPendingFlushes = value;
            return this;
        }

        public Builder flushRetryDelay(Duration value) {
            this.flushRetryDelay = value;
            return this;
        }

        public Builder compactionRetryDelay(Duration value) {
            this.compactionRetryDelay = value;
            return this;
        }

        public Builder clock(Clock value) {
            this.clock = value;
            return this;
        }

        /** Null for nowhere: the caches' keys are then neither saved nor loaded. */
        public Builder savedCachesDirectory(Path value) {
            this.savedCachesDirectory = value;
            return this;
        }

        public Builder fileAccess(FileAccess value) {
            this.fileAccess = value;
            return this;
        }

        public Builder snapshotBeforeCompaction(boolean value) {
            this.snapshotBeforeCompaction = value;
            return this;
        }

        public EngineSettings build() {
            return new EngineSettings(dataDirectories, indexInterval, columnIndexSize, memtableLimits, gcGraceSeconds,
                    buckets, maxPendingFlushes, flushRetryDelay, compactionRetryDelay, clock, savedCachesDirectory,
                    fileAccess, snapshotBeforeCompaction);
        }
    }
}
