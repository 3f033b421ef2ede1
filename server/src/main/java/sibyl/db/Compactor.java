package sibyl.db;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.dht.Partitioner;
import sibyl.io.Compaction;
import sibyl.io.Descriptor;
import sibyl.io.SSTableReader;

/**
 * Compacts SSTables on one background thread: size-tiered after flushes (a bucket of at least
 * the minimum threshold of similar-sized SSTables), and a major compaction of all of a store's
 * SSTables on request. Reads and writes go on meanwhile: inputs stay readable until the output
 * replaces them in one view change, and are deleted when their last reader lets go.
 *
 * <p>One thread, so two compactions never take the same SSTable. Tombstones older than
 * GCGraceSeconds are purged only when a compaction takes every SSTable of the store.
 */
final class Compactor implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Compactor.class);

    private final EngineSettings settings;
    private final Partitioner partitioner;
    private final Function<ColumnFamilyStore, SSTableFiles> files;
    private final ThreadPoolExecutor executor;
    private final Set<ColumnFamilyStore> queued = ConcurrentHashMap.newKeySet();
    private final AtomicLong completed = new AtomicLong();

    Compactor(EngineSettings settings, Partitioner partitioner, Function<ColumnFamilyStore, SSTableFiles> files) {
        this.settings = settings;
        this.partitioner = partitioner;
        this.files = files;
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

    /** Queues a size-tiered check of the store, unless one is queued already. */
    void maybeCompact(ColumnFamilyStore store) {
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

    /** Compacts every live SSTable of the store into one, purging expired tombstones. */
    CompletableFuture<Void> major(ColumnFamilyStore store) {
        return CompletableFuture.runAsync(() -> {
            List<SSTableReader> all = store.liveSSTables();
            if (all.isEmpty()) return;
            try {
                compact(store, all, true);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("major compaction of " + store.metadata().name() + " failed", e);
            }
        }, executor);
    }

    private void compactBuckets(ColumnFamilyStore store) {
        while (true) {
            List<SSTableReader> live = store.liveSSTables();
            List<List<SSTableReader>> due = settings.buckets().compactions(live, SSTableReader::dataLength);
            if (due.isEmpty()) return;
            List<SSTableReader> inputs = due.get(0);
            try {
                compact(store, inputs, inputs.size() == live.size());
            } catch (IOException | RuntimeException e) {
                log.error("Compaction of {} sstables of {}.{} failed; they stay as they are", inputs.size(),
                        store.metadata().keyspace(), store.metadata().name(), e);
                return;
            }
        }
    }

    /** @param all true when {@code inputs} are every SSTable of the store: tombstones may then be purged */
    private void compact(ColumnFamilyStore store, List<SSTableReader> inputs, boolean all) throws IOException {
        long started = System.nanoTime();
        Descriptor output = files.apply(store).next(store.metadata().name());
        Compaction.Result result = Compaction.compact(inputs, output, partitioner, settings.columnIndexSize(),
                settings.indexInterval(), settings.gcBefore(), all);
        Optional<SSTableReader> reader = Optional.empty();
        if (result.output().isPresent()) {
            reader = Optional.of(SSTableReader.open(result.output().get(), store.metadata(), partitioner,
                    settings.indexInterval(), store.keyCache()));
        }
        store.replaceCompacted(inputs, reader);
        completed.incrementAndGet();
        log.info("Compacted {} sstables of {}.{} ({} bytes, {} rows) into {} ({} bytes, {} rows) in {} ms{}",
                inputs.size(), store.metadata().keyspace(), store.metadata().name(), result.bytesIn(), result.rowsIn(),
                reader.map(r -> r.descriptor().toString()).orElse("nothing"), result.bytesOut(), result.rowsOut(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), all ? ", tombstones past grace purged" : "");
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
