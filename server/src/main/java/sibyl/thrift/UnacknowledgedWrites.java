package sibyl.thrift;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.db.InvalidQueryException;
import sibyl.db.RowMutation;
import sibyl.db.WriteFailedException;
import sibyl.service.AsyncFailures;
import sibyl.service.StorageTimeoutException;
import sibyl.service.UnavailableReplicasException;

/**
 * Writes at consistency level ZERO of the calls a network thread starts and a store answers later (cluster mode,
 * {@link DeferringCassandraProcessor}): acknowledged before they are applied, as in 0.6, and applied without holding
 * any thread while the store works on them. At most {@code limit} are outstanding over all connections; past that,
 * a call's reply waits for its own ZERO writes, so that a client flooding the node with them is slowed instead of
 * filling the heap. The synchronous path gets the same effect from its executor, which runs a write on the caller's
 * thread when its queue is full; on a network thread that would wait for the cluster while holding up every other
 * connection of the thread, and the driver's connection that is to bring the answer may be served by that very
 * thread. A failure can only be logged: the client was told the write was accepted.
 */
final class UnacknowledgedWrites {
    private static final Logger log = LoggerFactory.getLogger(UnacknowledgedWrites.class);

    private final int limit;
    private final AtomicInteger outstanding = new AtomicInteger();

    UnacknowledgedWrites(int limit) {
        this.limit = limit;
    }

    /**
     * Starts {@code write} of {@code mutation}.
     *
     * @return complete at once while fewer than the limit are outstanding; else once this write is over, whether
     *         it succeeded or failed (never failed: a lost write is logged, not reported)
     */
    CompletableFuture<Void> start(RowMutation mutation, Supplier<CompletableFuture<Void>> write) {
        boolean overLimit = outstanding.incrementAndGet() > limit;
        CompletableFuture<Void> started;
        try {
            started = write.get();
        } catch (RuntimeException e) {
            started = CompletableFuture.failedFuture(e);
        }
        CompletableFuture<Void> over = started.handle((none, failure) -> {
            outstanding.decrementAndGet();
            if (failure != null) lost(mutation, failure);
            return null;
        });
        return overLimit ? over : CompletableFuture.completedFuture(null);
    }

    /** Writes started and not yet answered by the store; for tests. */
    int outstanding() {
        return outstanding.get();
    }

    /**
     * Logs a ZERO write the store did not make: a refusal, too few replicas or a timeout as a warning, anything
     * else as an error with its stack. Also that of the ZERO writes applied in the background
     * ({@link CassandraProcessorFactory}).
     */
    static void lost(RowMutation m, Throwable failure) {
        Throwable cause = AsyncFailures.cause(failure);
        if (cause instanceof WriteFailedException || cause instanceof InvalidQueryException
                || cause instanceof UnavailableReplicasException || cause instanceof StorageTimeoutException) {
            log.warn("A write at consistency level ZERO to key {} of keyspace {} was lost: {}", m.key(), m.keyspace(),
                    cause.getMessage());
        } else {
            log.error("A write at consistency level ZERO to key {} of keyspace {} was lost", m.key(), m.keyspace(),
                    cause);
        }
    }
}
