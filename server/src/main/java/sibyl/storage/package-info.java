/**
 * The durable half of the storage core: the commit log (SSTables will live in {@code sibyl.io}).
 *
 * <p>{@link sibyl.storage.CommitLog} implements the db layer's {@link sibyl.db.WriteLog}: a
 * directory of {@link sibyl.storage.CommitLogSegment} files, each a {@link sibyl.storage.SegmentHeader}
 * followed by {@link sibyl.storage.LogEntry}-framed {@link sibyl.db.ResolvedMutation}s (the on-disk
 * format is described at the top of {@code CommitLog}). A {@link sibyl.storage.Syncer} decides when
 * entries reach the disk: {@link sibyl.storage.PeriodicSyncer} (acknowledge at once, fsync every
 * period) or {@link sibyl.storage.BatchSyncer} (group commit: acknowledge after the fsync shared by
 * a batch). At start-up {@link sibyl.storage.CommitLogReplayer} reads the old segments through
 * {@link sibyl.storage.SegmentReader}, which stops a segment at the first torn or corrupt entry;
 * {@link sibyl.storage.ReplayPoints} tells from an entry's outline whether SSTables hold it
 * already, and only the others are checksummed and decoded; a segment whose
 * {@link sibyl.storage.SegmentSummary} shows it wholly flushed is not read at all. {@link sibyl.storage.StorageOptions} carries the node-wide settings in.
 */
package sibyl.storage;
