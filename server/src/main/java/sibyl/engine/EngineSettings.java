package sibyl.engine;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import sibyl.io.FileAccess;
import sibyl.io.SizeTieredBuckets;

/**
 * What the durable engine (flush, SSTables, compaction) is configured with; built once from the
 * storage options and passed down. Immutable.
 *
 * @param dataDirectories   DataFileDirectories: where each keyspace's SSTables go
 * @param indexInterval     IndexInterval: one index key in this many is kept in memory
 * @param columnIndexSize   ColumnIndexSizeInKB × 1024: a row's column index entry per this many bytes
 * @param memtableLimits    when a memtable is flushed
 * @param gcGraceSeconds    GCGraceSeconds: how long major compactions keep tombstones
 * @param buckets           size-tiered compaction's grouping
 * @param maxPendingFlushes memtables switched out but not yet written, over the node; a writer
 *                          whose switch would pass it waits for a flush to finish
 * @param flushRetryDelay   how long after a failed flush it is tried again
 * @param compactionRetryDelay how long after a failed compaction a store's background compaction
 *                          is tried again; doubled after each further failure in a row, up to
 *                          {@link #MAX_COMPACTION_RETRY_DOUBLINGS} times
 * @param clock             the time tombstones are judged by (injectable so tests need not sleep)
 * @param caches            each column family's key and row caches, and where they are saved
 * @param fileAccess        how SSTable files are read (DiskAccessMode)
 * @param snapshotBeforeCompaction SnapshotBeforeCompaction: each compaction first snapshots its
 *                          column family's SSTables
 */
public record EngineSettings(List<Path> dataDirectories, int indexInterval, int columnIndexSize,
                             MemtableLimits memtableLimits, int gcGraceSeconds, SizeTieredBuckets buckets,
                             int maxPendingFlushes, Duration flushRetryDelay, Duration compactionRetryDelay,
                             Clock clock, CacheSettings caches, FileAccess fileAccess,
                             boolean snapshotBeforeCompaction) {
    /** A compaction that keeps failing is tried again at most every 2^5 × compactionRetryDelay. */
    public static final int MAX_COMPACTION_RETRY_DOUBLINGS = 5;

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
        Objects.requireNonNull(caches, "caches");
        if (indexInterval <= 0) throw new IllegalArgumentException("IndexInterval must be positive: " + indexInterval);
        if (columnIndexSize <= 0) throw new IllegalArgumentException("column index size must be positive: " + columnIndexSize);
        if (gcGraceSeconds < 0) throw new IllegalArgumentException("GCGraceSeconds must not be negative: " + gcGraceSeconds);
        if (maxPendingFlushes <= 0) throw new IllegalArgumentException("maxPendingFlushes must be positive: " + maxPendingFlushes);
    }

    /** Seconds since the epoch before which a tombstone's local deletion time lets it be purged. */
    public int gcBefore() {
        return (int) Math.min(Integer.MAX_VALUE, clock.instant().getEpochSecond() - gcGraceSeconds);
    }

    public EngineSettings withClock(Clock clock) {
        return new EngineSettings(dataDirectories, indexInterval, columnIndexSize, memtableLimits, gcGraceSeconds,
                buckets, maxPendingFlushes, flushRetryDelay, compactionRetryDelay, clock, caches, fileAccess,
                snapshotBeforeCompaction);
    }

    public EngineSettings withFlushRetryDelay(Duration delay) {
        return new EngineSettings(dataDirectories, indexInterval, columnIndexSize, memtableLimits, gcGraceSeconds,
                buckets, maxPendingFlushes, delay, compactionRetryDelay, clock, caches, fileAccess,
                snapshotBeforeCompaction);
    }

    public EngineSettings withCompactionRetryDelay(Duration delay) {
        return new EngineSettings(dataDirectories, indexInterval, columnIndexSize, memtableLimits, gcGraceSeconds,
                buckets, maxPendingFlushes, flushRetryDelay, delay, clock, caches, fileAccess,
                snapshotBeforeCompaction);
    }

    /** The longest a failing compaction waits between attempts. */
    public Duration maxCompactionRetryDelay() {
        return compactionRetryDelay.multipliedBy(1L << MAX_COMPACTION_RETRY_DOUBLINGS);
    }

    public EngineSettings withFileAccess(FileAccess fileAccess) {
        return new EngineSettings(dataDirectories, indexInterval, columnIndexSize, memtableLimits, gcGraceSeconds,
                buckets, maxPendingFlushes, flushRetryDelay, compactionRetryDelay, clock, caches, fileAccess,
                snapshotBeforeCompaction);
    }

    public EngineSettings withCaches(CacheSettings caches) {
        return new EngineSettings(dataDirectories, indexInterval, columnIndexSize, memtableLimits, gcGraceSeconds,
                buckets, maxPendingFlushes, flushRetryDelay, compactionRetryDelay, clock, caches, fileAccess,
                snapshotBeforeCompaction);
    }

    public EngineSettings withSnapshotBeforeCompaction(boolean snapshot) {
        return new EngineSettings(dataDirectories, indexInterval, columnIndexSize, memtableLimits, gcGraceSeconds,
                buckets, maxPendingFlushes, flushRetryDelay, compactionRetryDelay, clock, caches, fileAccess, snapshot);
    }
}
