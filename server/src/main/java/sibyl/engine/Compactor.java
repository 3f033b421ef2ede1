package sibyl.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.dht.Partitioner;
import sibyl.io.Compaction;
import sibyl.io.CorruptSSTableException;
import sibyl.io.Descriptor;
import sibyl.io.MarkersLeftException;
import sibyl.io.SSTableDirectory;
import sibyl.io.SSTableFormat;
import sibyl.io.SSTableReader;
import sibyl.io.Scrubber;

/**
 * Compacts SSTables on one background thread: size-tiered after flushes (a bucket of at least
 * the minimum threshold of similar-sized SSTables), and a major compaction of all of a store's
 * SSTables on request. Reads and writes go on meanwhile: inputs stay readable until the output
 * replaces them in one view change, and are deleted when their last reader lets go.
 *
 * <p>One thread, so two compactions never take the same SSTable. Tombstones older than
 * GCGraceSeconds are purged only when a compaction takes every SSTable of the store.
 *
 * <p>A compaction that fails (a full disk, an I/O error) changes nothing: its partial output is
 * deleted and its inputs stay in use. It is logged in one line, and the store's background
 * compaction then waits (the {@link Backoff}) before it is tried again, rather than once per
 * flush; a major compaction on request runs at once regardless.
 *
 * <p>Cassandra 0.6 SSTables are compacted like any other, and rewritten in Sibyl's format. Once the
 * output is durable, and before it takes their place, each 0.6 input is marked replaced on disk
 * ({@link SSTableDirectory#markReplaced}), so a crash before its files are gone does not bring it
 * back beside the output; its files are deleted when its last reader lets go, as any input's.
 *
 * <p>With SnapshotBeforeCompaction each compaction first snapshots its column family's SSTables
 * (tag {@code compact-<CF>}); without it, a compaction that rewrites Cassandra 0.6 SSTables does so
 * (tag {@code pre-upgrade-<CF>}), so the 0.6 node's files stay until the operator clears the snapshot.
 * A snapshot that fails fails the compaction. Scrubs run here too, so
 * a scrub and a compaction never rewrite the same SSTable.
 */
final class Compactor implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Compactor.class);
    /** Tag of the snapshots that keep Cassandra 0.6 SSTables when they are rewritten: {@code pre-upgrade-<CF>}. */
    static final String UPGRADE_SNAPSHOT_PREFIX = "pre-upgrade-";

    /** The engine's settings now: a reload may change GCGraceSeconds, which the next compaction uses. */
    private final Supplier<EngineSettings> settings;
    private final Partitioner partitioner;
    private final Function<ColumnFamilyStore, SSTableFiles> files;
    private final ScheduledExecutorService timer;
    private final Snapshots snapshots;
    private final ThreadPoolExecutor executor;
    private final Set<ColumnFamilyStore> queued = ConcurrentHashMap.newKeySet();
    private final Set<ColumnFamilyStore> retryScheduled = ConcurrentHashMap.newKeySet();
    private final Backoff<ColumnFamilyStore> backoff;
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();

    /**
     * @param timer     runs the delayed retries of failed compactions
     * @param snapshots takes the snapshots before compactions (SnapshotBeforeCompaction) and scrubs
     */
    Compactor(Supplier<EngineSettings> settings, Partitioner partitioner,
              Function<ColumnFamilyStore, SSTableFiles> files,
              ScheduledExecutorService timer, Snapshots snapshots) {
        this.settings = settings;
        this.partitioner = partitioner;
        this.files = files;
        this.timer = timer;
        this.snapshots = snapshots;
        EngineSettings now = settings.get();
        this.backoff = new Backoff<>(now.compactionRetryDelay(), now.maxCompactionRetryDelay(), System::nanoTime);
        this.executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                EngineThreads.named("compaction"));
    }

    /** Compactions queued or running. */
    int pendingCount() {
        return executor.getQueue().size() + executor.getActiveCount();
    }

    long completedCount() {
        return completed.get();
    }

    /** Compactions that failed since start. */
    long failureCount() {
        return failures.get();
    }

    /**
     * Queues a size-tiered check of the store, unless one is queued already; while the store's
     * compaction backs off after a failure, makes sure a check is scheduled for when it ends.
     */
    void maybeCompact(ColumnFamilyStore store) {
        long wait = backoff.waitNanos(store);
        if (wait > 0) {
            scheduleRetry(store, wait);
            return;
        }
        if (!queued.add(store)) return;
        try {
            executor.execute(() -> {
                queued.remove(store);
                compactBuckets(store);
            });
        } catch (RejectedExecutionException e) {
            queued.remove(store);
        }
    }

    /** Work that must not run beside a compaction, scrub or upgrade (a truncate): queued behind them. */
    interface Exclusive<T> {
        T run() throws Exception;
    }

    /** Runs {@code work} on the compaction thread; its exception fails the future. */
    <T> CompletableFuture<T> alone(Exclusive<T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        try {
            executor.execute(() -> {
                try {
                    result.complete(work.run());
                } catch (Exception e) {
                    result.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new IllegalStateException("the node is shutting down", e));
        }
        return result;
    }

    /**
     * Compacts every live SSTable of the store into one, purging expired tombstones. The future
     * fails with an {@link UncheckedIOException} saying why when the compaction does.
     */
    CompletableFuture<Void> major(ColumnFamilyStore store) {
        return CompletableFuture.runAsync(() -> {
            List<SSTableReader> all = store.liveSSTables();
            if (all.isEmpty()) return;
            try {
                compact(store, all, true);
            } catch (IOException e) {
                throw new UncheckedIOException(e.getMessage(), e);
            }
        }, executor);
    }

    private void compactBuckets(ColumnFamilyStore store) {
        while (true) {
            // A major compaction may have failed since this check was queued.
            long wait = backoff.waitNanos(store);
            if (wait > 0) {
                scheduleRetry(store, wait);
                return;
            }
            List<SSTableReader> live = store.liveSSTables();
            List<List<SSTableReader>> due = settings.get().buckets().compactions(live, SSTableReader::dataLength);
            if (due.isEmpty()) return;
            List<SSTableReader> inputs = due.get(0);
            try {
                compact(store, inputs, inputs.size() == live.size());
            } catch (IOException e) {
                return; // logged; the backoff's retry is scheduled
            }
        }
    }

    /**
     * Compacts and swaps the output in; on failure logs it once, starts the store's backoff and
     * throws an IOException naming the store, the output and the reason.
     *
     * @param all true when {@code inputs} are every SSTable of the store: tombstones may then be purged
     */
    private void compact(ColumnFamilyStore store, List<SSTableReader> inputs, boolean all) throws IOException {
        long started = System.nanoTime();
        Descriptor output = files.apply(store).next(store.metadata().name());
        Compaction.Result result;
        Optional<SSTableReader> reader = Optional.empty();
        // Read once: the grace this compaction purges by is the one configured when it starts.
        EngineSettings now = settings.get();
        boolean marked = false;
        try {
            if (now.snapshotBeforeCompaction()) {
                snapshots.take("compact-" + store.metadata().name(), List.of(store));
            } else if (inputs.stream().anyMatch(r -> r.format() == SSTableFormat.CASSANDRA_06)) {
                // A Cassandra 0.6 node's files are the operator's way back to 0.6: kept (as hard links) until they
                // clear the snapshot, as nodetool upgradesstables keeps them.
                snapshots.take(UPGRADE_SNAPSHOT_PREFIX + store.metadata().name(), List.of(store));
            }
            result = Compaction.compact(inputs, output, partitioner, now.columnIndexSize(),
                    now.indexInterval(), now.gcBefore(store.metadata()), now.nowSeconds(), all);
            if (result.output().isPresent()) {
                reader = Optional.of(SSTableReader.openWritten(result.output().get(), store.metadata(), partitioner,
                        now.indexInterval(), store.keyCache(), now.fileAccess()));
            }
            marked = markReplaced(inputs, reader);
            store.replaceCompacted(inputs, reader);
        } catch (IOException | RuntimeException e) {
            discard(reader, marked || e instanceof MarkersLeftException);
            throw failed(store, inputs, output, e);
        }
        backoff.succeeded(store);
        completed.incrementAndGet();
        log.info("Compacted {} sstables of {}.{} ({} bytes, {} rows) into {} ({} bytes, {} rows) in {} ms{}",
                inputs.size(), store.metadata().keyspace(), store.metadata().name(), result.bytesIn(), result.rowsIn(),
                reader.map(r -> r.descriptor().toString()).orElse("nothing"), result.bytesOut(), result.rowsOut(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), all ? ", tombstones past grace purged" : "");
    }

    /**
     * Marks the Cassandra 0.6 SSTables among {@code inputs} replaced by {@code output} (see
     * {@link SSTableDirectory#markReplaced}).
     *
     * @return whether any was marked: from then on the output must be kept, whatever fails
     */
    private static boolean markReplaced(List<SSTableReader> inputs, Optional<SSTableReader> output) throws IOException {
        List<Descriptor> legacy = inputs.stream().map(SSTableReader::descriptor)
                .filter(d -> d.format() == SSTableFormat.CASSANDRA_06).toList();
        if (legacy.isEmpty()) return false;
        SSTableDirectory.markReplaced(legacy, output.map(SSTableReader::descriptor).orElse(null));
        return true;
    }

    /**
     * Gives up the output of a compaction or scrub that failed: deleted with its reader (the writer deletes a
     * partial one itself), unless Cassandra 0.6 inputs are marked as replaced by it, when it stays on disk, where
     * the next start loads it in their place.
     */
    private static void discard(Optional<SSTableReader> output, boolean markedReplaced) {
        if (output.isEmpty()) return;
        if (markedReplaced) {
            log.error("Keeping {} on disk: Cassandra 0.6 sstables are marked as replaced by it, and the next start"
                    + " serves it in their place", output.get().descriptor());
        } else {
            output.get().markObsolete();
        }
        output.get().release();
    }

    /**
     * Logs a failed compaction in one line, backs the store off and schedules the retry. I/O
     * failures (a full disk) are expected and their cause says it all; anything else is a bug
     * and is logged with its stack trace.
     */
    private IOException failed(ColumnFamilyStore store, List<SSTableReader> inputs, Descriptor output, Exception e) {
        String name = store.metadata().keyspace() + "." + store.metadata().name();
        IOException failure = new IOException("could not compact " + inputs.size() + " sstables of " + name + " into "
                + output + ": " + reason(e), e);
        if (executor.isShutdown()) {
            // close() interrupted it: no fault, and no retry.
            log.info("Compaction of {} sstables of {} stopped by shutdown; its partial output is deleted", inputs.size(), name);
            return failure;
        }
        Duration wait = backoff.failed(store);
        String line = "Compaction of " + inputs.size() + " sstables of " + name + " into " + output + " failed: "
                + reason(e) + "; the sstables stay in use, the partial output is deleted, and compaction of " + name
                + " is tried again in " + (wait.toMillis() < 1000 ? wait.toMillis() + " ms" : wait.toSeconds() + " s");
        if (e instanceof CorruptSSTableException) {
            // Damaged data fails every compaction of the store until it is scrubbed: say how to end it.
            log.error(line + "; run nodetool scrub " + store.metadata().keyspace() + " " + store.metadata().name()
                    + " to rewrite its sstables without the damaged rows");
        } else if (e instanceof IOException || e instanceof UncheckedIOException) {
            log.error(line);
            log.debug("The compaction failure of {}", name, e);
        } else {
            log.error(line, e);
        }
        failures.incrementAndGet(); // after the report: a failure counted is a failure logged
        scheduleRetry(store, wait.toNanos());
        return failure;
    }

    /**
     * Rewrites each live SSTable of the store with the rows whose checksums hold
     * ({@link Scrubber}; a Cassandra 0.6 SSTable is rewritten in Sibyl's format with the rows that
     * decode), after snapshotting them all (tag {@code pre-scrub-<CF>}), so the
     * damaged originals stay on disk. Each rewritten SSTable replaces its original in one view
     * change, as a compaction's output does. The future fails with an {@link UncheckedIOException}
     * saying why when the snapshot or a rewrite does (those rewritten by then stay rewritten).
     */
    CompletableFuture<ScrubReport> scrub(ColumnFamilyStore store) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return rewrite(store, sstable -> true, "pre-scrub-", "Scrubbed", "scrub");
            } catch (IOException e) {
                throw new UncheckedIOException(e.getMessage(), e);
            }
        }, executor);
    }

    /**
     * nodetool upgradesstables: rewrites each Cassandra 0.6 SSTable of the store in Sibyl's format at once, as a
     * scrub does (rows that do not decode are left out and counted), after snapshotting the store's SSTables
     * (tag {@code pre-upgrade-<CF>}), which keeps the 0.6 files for a way back to 0.6. Sibyl's own SSTables are
     * left as they are.
     */
    CompletableFuture<ScrubReport> upgrade(ColumnFamilyStore store) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return rewrite(store, sstable -> sstable.format() == SSTableFormat.CASSANDRA_06, UPGRADE_SNAPSHOT_PREFIX,
                        "Upgraded", "upgrade");
            } catch (IOException e) {
                throw new UncheckedIOException(e.getMessage(), e);
            }
        }, executor);
    }

    /** Rewrites the live SSTables {@code which} accepts one by one ({@link Scrubber}), after a snapshot of them all. */
    private ScrubReport rewrite(ColumnFamilyStore store, Predicate<SSTableReader> which, String tagPrefix, String done,
                                String task) throws IOException {
        String ks = store.metadata().keyspace();
        String cf = store.metadata().name();
        // On this thread no compaction changes them; flushes only add newer ones, left as they are.
        List<SSTableReader> inputs = store.liveSSTables().stream().filter(which).toList();
        if (inputs.isEmpty()) return new ScrubReport(ks, cf, 0, 0, 0, null);
        String snapshot = snapshots.take(tagPrefix + cf, List.of(store)).name();
        long kept = 0;
        long dropped = 0;
        int rewritten = 0;
        for (SSTableReader input : inputs) {
            Descriptor output = files.apply(store).next(cf);
            Optional<SSTableReader> reader = Optional.empty();
            boolean marked = false;
            try {
                Scrubber.Result result = Scrubber.scrub(input, output, partitioner, settings.get().columnIndexSize(),
                        settings.get().indexInterval());
                if (result.output().isPresent()) {
                    reader = Optional.of(SSTableReader.openWritten(result.output().get(), store.metadata(), partitioner,
                            settings.get().indexInterval(), store.keyCache(), settings.get().fileAccess()));
                }
                marked = markReplaced(List.of(input), reader);
                store.replaceCompacted(List.of(input), reader);
                kept += result.rowsKept();
                dropped += result.rowsDropped();
                rewritten++;
                log.info("{} {} of {}.{} into {}: {} rows kept, {} dropped", done, input.descriptor(), ks, cf,
                        reader.map(r -> r.descriptor().toString()).orElse("nothing"), result.rowsKept(),
                        result.rowsDropped());
            } catch (IOException | RuntimeException e) {
                discard(reader, marked || e instanceof MarkersLeftException);
                String why = task + " of " + ks + "." + cf + " failed at " + input.descriptor() + ": " + reason(e)
                        + "; " + rewritten + " of its " + inputs.size() + " sstables were rewritten (" + kept
                        + " rows kept, " + dropped + " dropped), the rest are as they were; snapshot " + snapshot
                        + " holds them all as they were before";
                log.error(why);
                throw new IOException(why, e);
            }
        }
        ScrubReport report = new ScrubReport(ks, cf, rewritten, kept, dropped, snapshot);
        log.info("{} {}", done, report);
        return report;
    }

    /** "No space left on device"; a file system exception that names only its file keeps its kind too. */
    private static String reason(Exception e) {
        Throwable t = e instanceof UncheckedIOException u ? u.getCause() : e;
        String message = t.getMessage();
        if (message == null) return t.toString();
        if (t instanceof FileSystemException f && f.getReason() == null) return t.getClass().getSimpleName() + ": " + message;
        return message;
    }

    /** Schedules one check of the store after {@code nanos}, unless one is scheduled already. */
    private void scheduleRetry(ColumnFamilyStore store, long nanos) {
        if (!retryScheduled.add(store)) return;
        try {
            timer.schedule(() -> {
                retryScheduled.remove(store);
                maybeCompact(store);
            }, nanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            retryScheduled.remove(store); // shutting down
        }
    }

    @Override
    public void close() {
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(30, TimeUnit.SECONDS)) log.warn("A compaction is still running at shutdown");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
