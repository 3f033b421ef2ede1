package sibyl.engine;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.dht.Partitioner;
import sibyl.io.SSTableReader;

/**
 * Switches full memtables out and writes them as SSTables in the background.
 *
 * <p>A switch holds the keyspace's switch lock in write mode while it reads the log position and
 * installs a fresh memtable. The old one stays readable as a pending flush until its SSTable
 * replaces it; only then is the log told it may forget that column family's entries before the
 * position. A store's pending flushes are written strictly in switch order (its flush lock), so
 * an SSTable's position also covers every older memtable of the store.
 *
 * <p>Memtables switched out but not yet written are bounded over the node by permits: a writer
 * whose memtable is full waits for one (up to {@code maxWaitMillis}, then it writes on into the
 * full memtable and tries again on its next write). A flush that fails (disk full, I/O error) is
 * logged, its memtable stays readable and keeps its permit, and it is tried again after the
 * retry delay; the log keeps its entries meanwhile, so nothing acknowledged is lost.
 */
final class Flusher implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Flusher.class);
    private static final long MAX_WAIT_MILLIS = 10_000;

    /** The engine's settings now: a reload may change the memtable thresholds. */
    private final Supplier<EngineSettings> settings;
    private final Partitioner partitioner;
    private final Function<Keyspace, SSTableFiles> files;
    private final Consumer<ColumnFamilyStore> onFlushed;
    private final ExecutorService writers;
    private final ScheduledExecutorService timer;
    private final Semaphore permits;
    private final AtomicLong failures = new AtomicLong();
    private volatile String lastFailure; // "Keyspace1.Standard1: why", null before the first

    Flusher(Supplier<EngineSettings> settings, Partitioner partitioner, Function<Keyspace, SSTableFiles> files,
            Consumer<ColumnFamilyStore> onFlushed, ScheduledExecutorService timer) {
        this.settings = settings;
        this.partitioner = partitioner;
        this.files = files;
        this.onFlushed = onFlushed;
        this.timer = timer;
        this.permits = new Semaphore(settings.get().maxPendingFlushes());
        // Two writers: stores flush in parallel, one store's flushes in order (its flush lock).
        // Unbounded queue, but every task stands for a permit-holding pending flush or a retry.
        this.writers = new ThreadPoolExecutor(2, 2, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                EngineThreads.named("memtable-flush"));
    }

    /** Flush failures since start. */
    long failureCount() {
        return failures.get();
    }

    /** The most recent flush failure, for an error that must say why flushes do not finish. */
    Optional<String> lastFailure() {
        return Optional.ofNullable(lastFailure);
    }

    /** Pending flushes over the node. */
    int pendingCount() {
        return settings.get().maxPendingFlushes() - permits.availablePermits();
    }

    /**
     * Whether a writer that fills a memtable soon may wait for a flush to finish: at most one pending place is
     * free. One place to spare, so that a write judged quick a moment before (and run where waiting would hold up
     * other clients) finds a place unless two switches came in between.
     */
    boolean backlogged() {
        return permits.availablePermits() <= 1;
    }

    /** After a write: switches the store's memtable out if it has passed its size limits. */
    void afterWrite(Keyspace keyspace, ColumnFamilyStore store) {
        if (!settings.get().memtableLimits().isFullBySize(store.memtable())) return;
        try {
            if (!permits.tryAcquire(MAX_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                log.warn("Memtable of {}.{} is full but {} flushes are still pending; writing on into it",
                        keyspace.name(), store.metadata().name(), settings.get().maxPendingFlushes());
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        switchAndQueue(keyspace, store, m -> settings.get().memtableLimits().isFullBySize(m));
    }

    /** The periodic check: switches out memtables older than MemtableFlushAfterMinutes, if a permit is free now. */
    void flushOld(Iterable<Keyspace> keyspaces) {
        long now = System.currentTimeMillis();
        for (Keyspace ks : keyspaces) {
            for (ColumnFamilyStore store : ks.stores()) {
                if (settings.get().memtableLimits().isTooOld(store.memtable(), now) && permits.tryAcquire()) {
                    switchAndQueue(ks, store, m -> settings.get().memtableLimits().isTooOld(m, now));
                }
            }
        }
    }

    /**
     * Switches the store's memtable out unless it is empty, waiting for a permit until
     * {@code deadlineNanos} (of {@link System#nanoTime}), and completes once it and every older
     * pending flush of the store are written. When no permit frees up in time (flushes keep
     * failing) the future fails with a {@link TimeoutException}.
     */
    CompletableFuture<Void> forceFlush(Keyspace keyspace, ColumnFamilyStore store, long deadlineNanos)
            throws InterruptedException {
        if (!store.memtable().isEmpty()) {
            if (!permits.tryAcquire(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                return CompletableFuture.failedFuture(new TimeoutException("the memtable of " + keyspace.name() + "."
                        + store.metadata().name() + " could not be switched out: "
                        + settings.get().maxPendingFlushes()
                        + " flushes are still pending"));
            }
            switchAndQueue(keyspace, store, m -> !m.isEmpty());
        }
        List<PendingFlush> pending = store.pendingFlushes();
        return pending.isEmpty() ? CompletableFuture.completedFuture(null) : pending.get(pending.size() - 1).written();
    }

    /** With a permit held: switches if {@code stillDue} holds under the lock, else gives the permit back. */
    private void switchAndQueue(Keyspace keyspace, ColumnFamilyStore store, Predicate<Memtable> stillDue) {
        boolean switched = false;
        keyspace.switchLock().writeLock().lock();
        try {
            // Another writer may have switched it meanwhile.
            if (!store.memtable().isEmpty() && stillDue.test(store.memtable())) {
                store.switchMemtable(keyspace.log().position());
                switched = true;
            }
        } finally {
            keyspace.switchLock().writeLock().unlock();
            if (!switched) permits.release();
        }
        if (switched) submit(keyspace, store);
    }

    private void submit(Keyspace keyspace, ColumnFamilyStore store) {
        try {
            writers.execute(() -> writePending(keyspace, store));
        } catch (RejectedExecutionException e) {
            log.debug("Flush of {}.{} not started: shutting down", keyspace.name(), store.metadata().name());
        }
    }

    /** Writes the store's pending flushes, oldest first, until none is left or one fails. */
    private void writePending(Keyspace keyspace, ColumnFamilyStore store) {
        store.flushLock.lock();
        try {
            while (true) {
                List<PendingFlush> pending = store.pendingFlushes();
                if (pending.isEmpty()) return;
                PendingFlush oldest = pending.get(0);
                SSTableReader sstable;
                try {
                    sstable = MemtableWriter.write(oldest, files.apply(keyspace).next(store.metadata().name()),
                            partitioner, settings.get(), store.keyCache());
                } catch (Exception | OutOfMemoryError e) {
                    failures.incrementAndGet();
                    lastFailure = keyspace.name() + "." + store.metadata().name() + ": " + e;
                    String line = "Flush of " + keyspace.name() + "." + store.metadata().name() + " ("
                            + oldest.memtable().rowCount() + " rows, " + oldest.memtable().throughputBytes()
                            + " bytes) failed: " + e + "; its memtable stays in memory and the commit log keeps its"
                            + " entries. Retrying in " + settings.get().flushRetryDelay().toMillis() + " ms";
                    // An I/O failure (a full disk) says all in its message, and recurs at every retry: one line
                    // each. Anything else is a bug and keeps its stack trace.
                    if (e instanceof IOException) {
                        log.error(line);
                    } else {
                        log.error(line, e);
                    }
                    scheduleRetry(keyspace, store);
                    return;
                }
                store.replaceFlushed(oldest, sstable);
                keyspace.log().flushed(keyspace.name(), store.metadata().name(), oldest.position());
                log.info("Flushed {}.{}: {} rows, {} bytes into {}", keyspace.name(), store.metadata().name(),
                        sstable.statistics().rowCount(), sstable.dataLength(), sstable.descriptor());
                // Compaction is queued before the permit goes back, so pending work never reads 0 in between.
                onFlushed.accept(store);
                permits.release();
                oldest.written().complete(null);
            }
        } finally {
            store.flushLock.unlock();
        }
    }

    private void scheduleRetry(Keyspace keyspace, ColumnFamilyStore store) {
        try {
            timer.schedule(() -> submit(keyspace, store), settings.get().flushRetryDelay().toMillis(),
                    TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            log.debug("Flush retry of {}.{} not scheduled: shutting down", keyspace.name(), store.metadata().name());
        }
    }

    /** Lets flushes under way finish (up to {@code waitMillis}); pending ones stay in the commit log. */
    void close(long waitMillis) {
        writers.shutdown();
        try {
            if (!writers.awaitTermination(waitMillis, TimeUnit.MILLISECONDS)) writers.shutdownNow();
        } catch (InterruptedException e) {
            writers.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        close(30_000);
    }
}
