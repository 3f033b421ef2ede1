package sibyl.engine;

import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What takes a store's memtables to disk and keeps the files in shape: flushes, compactions and
 * saved caches. {@link StorageEngine} is the real one; {@link #NONE} keeps everything in memory,
 * as {@link sibyl.db.WriteLog#NONE} logs nothing, so the stores need not ask which they have.
 */
interface Persistence {
    /** After a write to the store: switches its memtable out if full (may wait for a pending flush). */
    void afterWrite(Keyspace keyspace, ColumnFamilyStore store);

    /**
     * Flushes the store's memtable; the future completes when it and all older ones are in
     * SSTables, or fails with a TimeoutException when the memtable cannot be switched out by
     * {@code deadlineNanos} (of {@link System#nanoTime}) because earlier flushes keep failing.
     */
    CompletableFuture<Void> forceFlush(Keyspace keyspace, ColumnFamilyStore store, long deadlineNanos)
            throws InterruptedException;

    /** Compacts all of the store's SSTables into one, purging tombstones older than GCGraceSeconds. */
    CompletableFuture<Void> forceMajorCompaction(ColumnFamilyStore store);

    /** Saves now the caches that have a save period; returns the files written. */
    int saveCaches();

    /** Whether writers may have to wait for flushes now. */
    boolean flushBacklogged();

    /** The column family and reason of the most recent flush failure; empty before any. */
    Optional<String> lastFlushFailure();

    /** Stops background work and closes the keyspaces' SSTables. */
    void close(Collection<Keyspace> keyspaces);

    /** Nothing goes to disk: flushing and compacting have nothing to do, and nothing waits. */
    Persistence NONE = new Persistence() {
        @Override
        public void afterWrite(Keyspace keyspace, ColumnFamilyStore store) {
        }

        @Override
        public CompletableFuture<Void> forceFlush(Keyspace keyspace, ColumnFamilyStore store, long deadlineNanos) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<Void> forceMajorCompaction(ColumnFamilyStore store) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public int saveCaches() {
            return 0;
        }

        @Override
        public boolean flushBacklogged() {
            return false;
        }

        @Override
        public Optional<String> lastFlushFailure() {
            return Optional.empty();
        }

        @Override
        public void close(Collection<Keyspace> keyspaces) {
        }

        @Override
        public String toString() {
            return "Persistence.NONE";
        }
    };
}
