package sibyl.commitlog;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.db.LogPosition;
import sibyl.db.WriteFailedException;

/**
 * CommitLogSync=batch, a group commit: writers queue their entries and wait; one thread takes
 * the first, gathers whatever else arrives within the batch window, writes them all in one go,
 * fsyncs once and releases every writer of the batch. A writer returns only after the fsync
 * that covers its entry, so an acknowledged write survives a crash of the machine.
 */
final class BatchSyncer implements Syncer {
    private static final Logger log = LoggerFactory.getLogger(BatchSyncer.class);
    /** Bounds one batch, so one fsync never waits on an unbounded write. */
    private static final int MAX_ENTRIES = 4096;
    private static final long MAX_BYTES = 8L << 20;

    /** A queued entry and the writer's wait for it. */
    private record Waiter(CommitLog.Pending entry, CompletableFuture<LogPosition> done) {
    }

    private static final Waiter STOP = new Waiter(null, null);

    private final CommitLog commitLog;
    private final long windowNanos;
    private final LinkedBlockingQueue<Waiter> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private boolean closed; // guarded by this: once set, nothing more is queued

    BatchSyncer(CommitLog commitLog, Duration window) {
        this.commitLog = commitLog;
        this.windowNanos = window.toNanos();
        this.thread = new Thread(this::run, "commitlog-batch-sync");
        this.thread.setDaemon(true);
    }

    @Override
    public void start() {
        thread.start();
    }

    @Override
    public LogPosition append(CommitLog.Pending entry) {
        Waiter w = new Waiter(entry, new CompletableFuture<>());
        synchronized (this) {
            if (closed) throw new WriteFailedException("write failed: the commit log is closed");
            queue.add(w);
        }
        try {
            // Not interruptible: the sync thread always completes what it took, and a writer
            // that left early could not tell whether its write is in the log.
            return w.done.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof WriteFailedException f) throw new WriteFailedException(f.getMessage(), f);
            throw new WriteFailedException("write failed: " + e.getCause(), e.getCause());
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) return;
            closed = true;
            queue.add(STOP); // last in the queue: everything accepted before it is written first
        }
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
            if (thread.isAlive()) log.warn("Commit log batch sync did not stop within 30 s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        boolean stopping = false;
        while (!stopping) {
            List<Waiter> batch = new ArrayList<>();
            try {
                stopping = gather(batch);
            } catch (InterruptedException e) {
                // Nobody interrupts this thread on purpose; write what was gathered and go on.
            }
            if (!batch.isEmpty()) process(batch);
        }
    }

    /** Waits for a first entry, then for more until the window ends; true when told to stop. */
    private boolean gather(List<Waiter> batch) throws InterruptedException {
        Waiter first = queue.take();
        if (first == STOP) return true;
        batch.add(first);
        long bytes = first.entry().frame().length;
        long deadline = System.nanoTime() + windowNanos;
        while (batch.size() < MAX_ENTRIES && bytes < MAX_BYTES) {
            Waiter next = queue.poll();
            if (next == null) {
                long left = deadline - System.nanoTime();
                if (left <= 0) break;
                next = queue.poll(left, TimeUnit.NANOSECONDS);
                if (next == null) break;
            }
            if (next == STOP) return true;
            batch.add(next);
            bytes += next.entry().frame().length;
        }
        return false;
    }

    private void process(List<Waiter> batch) {
        List<CommitLog.Pending> entries = new ArrayList<>(batch.size());
        for (Waiter w : batch) entries.add(w.entry());
        try {
            CommitLog.Written written = commitLog.write(entries);
            commitLog.sync(written);
            for (int i = 0; i < batch.size(); i++) batch.get(i).done().complete(written.ends().get(i));
        } catch (WriteFailedException e) {
            for (Waiter w : batch) w.done().completeExceptionally(e);
        } catch (RuntimeException | Error e) {
            log.error("Commit log batch sync failed unexpectedly", e);
            WriteFailedException failure = new WriteFailedException("write failed: commit log error: " + e, e);
            for (Waiter w : batch) w.done().completeExceptionally(failure);
        }
    }
}
