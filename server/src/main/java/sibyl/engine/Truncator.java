package sibyl.engine;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.db.LogPosition;
import sibyl.io.Descriptor;
import sibyl.io.SSTableReader;

/**
 * Empties a column family (the 0.7+ dialect's truncate, docs/semantics.md §Truncate): every write made before it
 * is gone, whatever its timestamp, and stays gone across a crash. In this order, so that a crash at any point
 * leaves the store as it was or truncated, never half of it:
 * <ol>
 *   <li>the memtable is flushed, so the snapshot below holds every acknowledged write;</li>
 *   <li>with the store's flush lock and the keyspace's switch lock held (no write and no flush under way), a
 *       snapshot {@code truncated-<CF>} links the SSTables, as Cassandra's auto_snapshot does;</li>
 *   <li>the truncation is recorded durably ({@link SSTableFiles#recordTruncation}): the commit log position up
 *       to which the store's writes are gone, and its SSTables, which start-up then neither loads nor keeps;</li>
 *   <li>the store drops its memtable and SSTables ({@link ColumnFamilyStore#truncate}); the files go when their
 *       last reader lets go, and the commit log may drop the segments the store held.</li>
 * </ol>
 * Runs on the compaction thread, so no compaction of the store swaps SSTables in meanwhile.
 */
final class Truncator {
    /** The snapshot a truncate takes first, as Cassandra names it. */
    static final String SNAPSHOT_PREFIX = "truncated-";
    private static final Logger log = LoggerFactory.getLogger(Truncator.class);

    private final Flusher flusher;
    private final Snapshots snapshots;
    private final Function<Keyspace, SSTableFiles> files;
    private final Clock clock;

    Truncator(Flusher flusher, Snapshots snapshots, Function<Keyspace, SSTableFiles> files, Clock clock) {
        this.flusher = flusher;
        this.snapshots = snapshots;
        this.files = files;
        this.clock = clock;
    }

    /**
     * @throws TimeoutException when the store cannot be flushed by {@code deadlineNanos} (of
     *                          {@link System#nanoTime}); nothing is truncated then
     * @throws IOException      when the snapshot or the record cannot be written; nothing is truncated then
     */
    void truncate(Keyspace keyspace, ColumnFamilyStore store, long deadlineNanos)
            throws IOException, InterruptedException, TimeoutException {
        String name = keyspace.name() + "." + store.metadata().name();
        while (true) {
            long remaining = deadlineNanos - System.nanoTime();
            if (remaining <= 0) throw new TimeoutException("the memtable of " + name + " could not be flushed in time");
            try {
                flusher.forceFlush(keyspace, store, deadlineNanos).get(remaining, TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                throw new IOException("the flush before the truncate of " + name + " failed: " + e.getCause(), e);
            }
            LogPosition position = truncateFlushed(keyspace, store);
            if (position != null) {
                keyspace.log().flushed(keyspace.name(), store.metadata().name(), position);
                return;
            }
            // A flush was switched in after ours: wait for it too, then try again.
        }
    }

    /** Steps 2 to 4 when no flush is pending; null when one is, and nothing was done. */
    private LogPosition truncateFlushed(Keyspace keyspace, ColumnFamilyStore store) throws IOException {
        store.flushLock.lock();
        try {
            keyspace.switchLock().writeLock().lock();
            try {
                if (!store.pendingFlushes().isEmpty()) return null;
                LogPosition position = keyspace.log().position();
                String cf = store.metadata().name();
                snapshots.take(SNAPSHOT_PREFIX + cf, List.of(store));
                List<Descriptor> discarded = new ArrayList<>();
                for (SSTableReader r : store.liveSSTables()) discarded.add(r.descriptor());
                files.apply(keyspace).recordTruncation(cf, clock.millis(), position, discarded);
                store.truncate(position);
                log.info("Truncated {}.{}: {} SSTable(s) and the writes up to {} discarded, after a snapshot",
                        keyspace.name(), cf, discarded.size(), position);
                return position;
            } finally {
                keyspace.switchLock().writeLock().unlock();
            }
        } finally {
            store.flushLock.unlock();
        }
    }
}
