package sibyl.db;

/**
 * Where the engine records each resolved mutation before applying it, so a restart can rebuild
 * the memtables. The engine knows only this interface; the commit log ({@code sibyl.commitlog})
 * implements it, and neither package depends on the other for it.
 *
 * <p>The contract the memtable flush relies on: everything appended before {@link #position()}
 * was called is before that position, and {@link #flushed} may then forget it for that column
 * family.
 */
public interface WriteLog extends AutoCloseable {
    /**
     * Records a mutation. Returns once it is as durable as the log promises (at once for a
     * periodically synced log, after the covering fsync for a batch-synced one).
     *
     * @return the position just after the mutation's entry
     * @throws WriteFailedException when it could not be recorded; then it must not be applied
     */
    LogPosition append(ResolvedMutation mutation);

    /** The end of the log now: every entry appended so far lies before it. */
    LogPosition position();

    /**
     * The memtable of {@code keyspace}.{@code columnFamily} holding every entry before
     * {@code upTo} has been written out: the log need not keep those entries for that column
     * family any more.
     */
    void flushed(String keyspace, String columnFamily, LogPosition upTo);

    /** Whether {@link #append} returns only once its entry is synced to disk (a batch-synced log). */
    default boolean syncsBeforeAcknowledging() {
        return false;
    }

    /** Syncs what was appended and releases the log; appends fail afterwards. */
    @Override
    default void close() {
    }

    /** A log that records nothing, for a node (or a test) that keeps data in memory only. */
    WriteLog NONE = new WriteLog() {
        @Override
        public LogPosition append(ResolvedMutation mutation) {
            return LogPosition.NONE;
        }

        @Override
        public LogPosition position() {
            return LogPosition.NONE;
        }

        @Override
        public void flushed(String keyspace, String columnFamily, LogPosition upTo) {
        }

        @Override
        public String toString() {
            return "WriteLog.NONE";
        }
    };
}
