package sibyl.commitlog;

import sibyl.db.LogPosition;

/**
 * Per column family, the commit log position up to which its SSTables hold everything (the
 * newest position any of them recorded): replay skips that column family's deltas in entries
 * ending at or before it.
 */
@FunctionalInterface
public interface FlushedPositions {
    /** Nothing flushed: replay every entry. */
    FlushedPositions NONE = (keyspace, columnFamily) -> LogPosition.NONE;

    LogPosition upTo(String keyspace, String columnFamily);
}
