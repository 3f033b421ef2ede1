package sibyl.thrift;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;
import sibyl.db.RowMutation;
import sibyl.db.WriteFailedException;
import sibyl.service.AsyncFailures;
import sibyl.service.BoundedFanOut;
import sibyl.service.Consistency;
import sibyl.service.StorageService;
import sibyl.service.StorageTimeoutException;

/**
 * How the data calls of every dialect reach the store's rows: the rows of one call a few at a time, none started
 * once the call is past its deadline, and writes answered as the client's exceptions of the dialect.
 */
public final class RowRequests {
    /**
     * How many rows of one call (multiget, a batch_mutate of many keys) a store that asks another server is asked
     * for at once: enough that a call of many rows takes a few round trips rather than one per row, few enough
     * that one call does not flood the cluster's coordinators.
     */
    public static final int ROWS_IN_FLIGHT = 16;
    /** The answer of a write call whose rows were written at once; nothing completes it again. */
    private static final CompletableFuture<Void> WRITTEN = CompletableFuture.completedFuture(null);

    private RowRequests() {
    }

    /**
     * The requests of {@code count} rows, {@value #ROWS_IN_FLIGHT} at a time, as 0.6 sent the requests of all rows
     * before waiting for any (a store that answers at once serves them one after the other); their answers in
     * row order.
     */
    public static <T> CompletableFuture<List<T>> eachRow(int count, Deadline deadline,
                                                         IntFunction<CompletableFuture<T>> request) {
        return BoundedFanOut.run(count, ROWS_IN_FLIGHT, i -> unlessPast(deadline, () -> request.apply(i)));
    }

    /**
     * Starts one row's request of a call unless the call is already past its deadline, as the synchronous forms
     * check it before each row: a call that is late starts no further request.
     */
    public static <T> CompletableFuture<T> unlessPast(Deadline deadline, Supplier<CompletableFuture<T>> request) {
        if (deadline.passed()) {
            return CompletableFuture.failedFuture(new StorageTimeoutException("past RpcTimeoutInMillis", null));
        }
        try {
            return request.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Applies validated mutations at {@code level}, as {@link #eachRow} reads rows, answering with none or the
     * client's exception of {@code dialect}.
     *
     * <p>A write the node could not make durable (commit log unwritable: disk full, I/O error)
     * reaches the client as a TApplicationException (INTERNAL_ERROR) saying so and why, and how many rows of a
     * batch were written before it: the request was fine, the server failed, and the data calls declare
     * nothing closer.
     */
    public static CompletableFuture<Void> write(StorageService storage, List<RowMutation> mutations, Consistency level,
                                                Deadline deadline, ClientExceptions dialect) {
        if (mutations.size() == 1) {
            // Most writes: one row, without the bookkeeping of several.
            return written(unlessPast(deadline, () -> storage.write(mutations.get(0), level)), null, 1, deadline,
                    dialect);
        }
        AtomicInteger applied = new AtomicInteger();
        return written(eachRow(mutations.size(), deadline, i -> storage.write(mutations.get(i), level)
                .thenApply(none -> {
                    applied.incrementAndGet();
                    return none;
                })), applied, mutations.size(), deadline, dialect);
    }

    /**
     * The call's answer once its rows are written: none, or the client's exception.
     *
     * @param applied rows written so far, for the message of a failure; null for a call of one row
     */
    private static CompletableFuture<Void> written(CompletableFuture<?> rows, AtomicInteger applied, int count,
                                                   Deadline deadline, ClientExceptions dialect) {
        if (rows.isDone() && !rows.isCompletedExceptionally()) {
            // Written at once (the embedded engine): nothing to wait for, so no stage to chain.
            try {
                deadline.check(dialect);
                return WRITTEN;
            } catch (TException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        return rows.handle((none, failure) -> {
            try {
                if (failure != null) throw writeFailure(AsyncFailures.cause(failure), applied, count, dialect);
                deadline.check(dialect);
                return null;
            } catch (TException e) {
                throw new CompletionException(e);
            }
        });
    }

    /** The client's exception for a failed write; any other failure as it is, an internal error. */
    private static TException writeFailure(Throwable cause, AtomicInteger applied, int rows, ClientExceptions dialect) {
        if (cause instanceof WriteFailedException e) {
            int written = applied == null ? 0 : applied.get();
            String partly = written == 0 ? "" : "; the first " + written + " of the " + rows
                    + " rows of this batch were written";
            return new TApplicationException(TApplicationException.INTERNAL_ERROR, e.getMessage() + partly);
        }
        TException client = StorageFailures.toThrift(cause, dialect);
        if (client == null) throw new CompletionException(cause);
        return client;
    }
}
