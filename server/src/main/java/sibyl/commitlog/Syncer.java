package sibyl.commitlog;

import sibyl.db.LogPosition;

/** How entries reach the disk: the part of the commit log that differs between sync modes. */
interface Syncer {
    /**
     * Writes one entry, returning when the mode says it is durable enough to acknowledge.
     *
     * @throws sibyl.db.WriteFailedException when it could not be written or synced
     */
    LogPosition append(CommitLog.Pending entry);

    void start();

    /** Finishes what was accepted, then stops; later appends fail. */
    void close();

    static Syncer forMode(SyncMode mode, CommitLog log) {
        if (mode instanceof SyncMode.Batch batch) return new BatchSyncer(log, batch.window());
        return new PeriodicSyncer(log, ((SyncMode.Periodic) mode).period());
    }
}
