package sibyl.commitlog;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The node-wide settings the storage core needs, taken from storage-conf.xml once when the node
 * is built and passed down; nothing below reads configuration any other way.
 *
 * @param commitLogDirectory     CommitLogDirectory
 * @param sync                   CommitLogSync with its period or batch window
 * @param segmentSizeBytes       CommitLogRotationThresholdInMB: a segment is closed and a new one
 *                               begun once it holds this many bytes
 * @param dataDirectories        DataFileDirectories, at least one
 * @param indexInterval          IndexInterval: one key in this many is sampled
 * @param columnIndexSizeBytes   ColumnIndexSizeInKB: a row gets a column index entry this often
 * @param memtableThroughputBytes MemtableThroughputInMB: flush a memtable after this much data
 * @param memtableOperations     MemtableOperationsInMillions: flush after this many column operations
 * @param memtableFlushAfter     MemtableFlushAfterMinutes: flush a memtable at the latest this long after it began
 * @param gcGraceSeconds         GCGraceSeconds: how long compaction keeps tombstones
 */
public record StorageOptions(Path commitLogDirectory, SyncMode sync, long segmentSizeBytes, List<Path> dataDirectories,
                             int indexInterval, int columnIndexSizeBytes, long memtableThroughputBytes,
                             long memtableOperations, Duration memtableFlushAfter, int gcGraceSeconds) {
    public StorageOptions {
        Objects.requireNonNull(commitLogDirectory, "commitLogDirectory");
        Objects.requireNonNull(sync, "sync");
        dataDirectories = List.copyOf(dataDirectories);
        Objects.requireNonNull(memtableFlushAfter, "memtableFlushAfter");
        if (segmentSizeBytes <= 0) throw new IllegalArgumentException("segment size must be positive: " + segmentSizeBytes);
        if (indexInterval <= 0) throw new IllegalArgumentException("IndexInterval must be positive: " + indexInterval);
    }

    /**
     * The shipped defaults for everything but the directories and the sync mode: 128 MB
     * segments, IndexInterval 128, 64 KB column index, 64 MB / 0.1 million operations / 60
     * minutes memtables, ten days of GC grace.
     */
    public static StorageOptions defaults(Path commitLogDirectory, SyncMode sync, List<Path> dataDirectories) {
        return new StorageOptions(commitLogDirectory, sync, 128L << 20, dataDirectories, 128, 64 << 10,
                64L << 20, 100_000, Duration.ofMinutes(60), 864000);
    }

    /** These options with another segment size. */
    public StorageOptions withSegmentSize(long bytes) {
        return new StorageOptions(commitLogDirectory, sync, bytes, dataDirectories, indexInterval, columnIndexSizeBytes,
                memtableThroughputBytes, memtableOperations, memtableFlushAfter, gcGraceSeconds);
    }
}
