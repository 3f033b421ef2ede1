/**
 * The commit log: every write is recorded here before the engine applies it (SSTables, the
 * other half of what is on disk, are in {@code sibyl.io}).
 *
 * <p>{@link sibyl.commitlog.CommitLog} implements the data model's {@link sibyl.db.WriteLog}: a
 * directory of {@link sibyl.commitlog.CommitLogSegment} files, each a {@link sibyl.commitlog.SegmentHeader}
 * followed by {@link sibyl.commitlog.LogEntry}-framed {@link sibyl.db.ResolvedMutation}s (the on-disk
 * format is described at the top of {@code CommitLog}). A {@link sibyl.commitlog.Syncer} decides when
 * entries reach the disk: {@link sibyl.commitlog.PeriodicSyncer} (acknowledge at once, fsync every
 * period) or {@link sibyl.commitlog.BatchSyncer} (group commit: acknowledge after the fsync shared by
 * a batch). At start-up {@link sibyl.commitlog.CommitLogReplayer} reads the old segments through
 * {@link sibyl.commitlog.SegmentReader}, which stops a segment at the first torn or corrupt entry;
 * {@link sibyl.commitlog.ReplayPoints} tells from an entry's outline whether SSTables hold it
 * already, and only the others are checksummed and decoded; a segment whose
 * {@link sibyl.commitlog.SegmentSummary} shows it wholly flushed is not read at all.
 * {@link sibyl.commitlog.ResolvedMutationSerializer} and {@link sibyl.commitlog.ColumnFamilySerializer}
 * write the entries' payload; nothing else stores mutations in that form.
 *
 * <p>The directory may be a Cassandra 0.6 node's: {@link sibyl.commitlog.CommitLogDirectoryScan} tells
 * every file apart by content before anything changes, and refuses what is neither Sibyl's nor 0.6's.
 * 0.6's segments ({@link sibyl.commitlog.LegacySegmentHeader}, {@link sibyl.commitlog.LegacyEntryReader},
 * {@link sibyl.commitlog.LegacyMutation}) are replayed first by {@link sibyl.commitlog.LegacyReplayer}, with
 * 0.6's column family numbers ({@link sibyl.commitlog.LegacyColumnFamilyIds}, which follow the writing JVM's
 * {@link sibyl.commitlog.JavaHashMapOrder}) chosen by {@link sibyl.commitlog.LegacyNumberingJudge}, and
 * kept from a second replay by {@link sibyl.commitlog.LegacyReplayManifest}; they are never changed.
 */
package sibyl.commitlog;
