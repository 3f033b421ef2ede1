package sibyl.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import sibyl.db.LogPosition;
import sibyl.io.Descriptor;

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

    /**
     * Empties the store: every write made to it so far is gone, durably. The future fails with a TimeoutException
     * when the store's memtable cannot be flushed first by {@code deadlineNanos} (of {@link System#nanoTime}).
     */
    CompletableFuture<Void> truncate(Keyspace keyspace, ColumnFamilyStore store, long deadlineNanos);

    /** Saves now the caches that have a save period; returns the files written. */
    int saveCaches();

    /**
     * Opens the SSTables of the store's column family that were put into its directories from
     * outside while the node ran (bin/json2sstable) and adds them to the store.
     *
     * @return SSTables added
     */
    int loadNewSSTables(Keyspace keyspace, ColumnFamilyStore store) throws IOException;

    /** Whether writers may have to wait for flushes now. */
    boolean flushBacklogged();

    /** The column family and reason of the most recent flush failure; empty before any. */
    Optional<String> lastFlushFailure();

    /** Stops background work and closes the keyspaces' SSTables. */
    void close(Collection<Keyspace> keyspaces);

    /** A reload changed the memtable thresholds or GCGraceSeconds (the rest of {@code reloaded} takes a restart). */
    void retune(EngineSettings reloaded);

    /**
     * Before a reload is applied: opens what the new stores of {@code keyspace} find on disk.
     *
     * @throws IOException naming the column family when something of it cannot be opened; nothing stays open
     */
    NewStores open(String keyspace, List<ColumnFamilyStore> stores) throws IOException;

    /** After a reload was applied: stores whose caches changed, and stores of removed column families. */
    void reconfigured(List<ColumnFamilyStore> changed, List<ColumnFamilyStore> removed);

    /**
     * After a drop by API was applied: moves the SSTables the dropped stores held into a snapshot tagged {@code tag}
     * of each keyspace directory they were in, deleting nothing.
     *
     * @return the snapshot directories made
     */
    List<Path> setAside(String tag, List<Descriptor> sstables) throws IOException;

    /** The stores of column families a reload adds, opened and not yet served. */
    interface NewStores {
        /** The reload is applied: they are served from now on, flushed, compacted and their caches saved. */
        void serve();

        /** The reload was refused: what they opened is closed. */
        void discard();

        NewStores NONE = new NewStores() {
            @Override
            public void serve() {
            }

            @Override
            public void discard() {
            }
        };
    }

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

        /** Nothing was logged or flushed: the store drops what it holds, under the locks the real one takes. */
        @Override
        public CompletableFuture<Void> truncate(Keyspace keyspace, ColumnFamilyStore store, long deadlineNanos) {
            keyspace.switchLock().writeLock().lock();
            try {
                store.truncate(LogPosition.NONE);
            } finally {
                keyspace.switchLock().writeLock().unlock();
            }
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public int saveCaches() {
            return 0;
        }

        @Override
        public int loadNewSSTables(Keyspace keyspace, ColumnFamilyStore store) {
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
        public void retune(EngineSettings reloaded) {
        }

        @Override
        public NewStores open(String keyspace, List<ColumnFamilyStore> stores) {
            return NewStores.NONE;
        }

        @Override
        public void reconfigured(List<ColumnFamilyStore> changed, List<ColumnFamilyStore> removed) {
        }

        @Override
        public List<Path> setAside(String tag, List<Descriptor> sstables) {
            return List.of();
        }

        @Override
        public String toString() {
            return "Persistence.NONE";
        }
    };
}
