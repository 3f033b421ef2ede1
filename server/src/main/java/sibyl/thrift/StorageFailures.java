package sibyl.thrift;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.cassandra.thrift.InvalidRequestException;
import org.apache.cassandra.thrift.TimedOutException;
import org.apache.cassandra.thrift.UnavailableException;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;
import sibyl.db.DamagedDataException;
import sibyl.db.InvalidQueryException;
import sibyl.db.WriteFailedException;
import sibyl.service.AsyncFailures;
import sibyl.service.StorageTimeoutException;
import sibyl.service.UnavailableReplicasException;

/**
 * What a storage failure reaches a 0.6 client as: a request the store refuses is InvalidRequestException with the
 * store's reason; a replicated store's too few replicas or too slow ones are UnavailableException and
 * TimedOutException. Damaged data is an InvalidRequestException saying so: of what a 0.6 data call declares, it is
 * the one that carries a message and that clients pass on at once instead of retrying (retrying cannot help, and
 * Hector of 2010 took a TApplicationException for a transport failure, retried it and marked the host down). A write
 * the node could not make durable is a TApplicationException (INTERNAL_ERROR) saying why: the request was fine, the
 * server failed, and 0.6's data calls declare nothing closer.
 */
public final class StorageFailures {
    /** The exceptions of the 0.6 interface. */
    static final ClientExceptions V06 = ClientExceptions.of(InvalidRequestException::new, UnavailableException::new,
            TimedOutException::new);

    private StorageFailures() {
    }

    /** The 0.6 client's exception for a storage failure; null for a failure that is a bug (an internal error). */
    static TException toThrift(Throwable failure) {
        return toThrift(failure, V06);
    }

    /**
     * The client's exception, in {@code dialect}'s classes, for a storage failure; null for a failure that is a bug
     * (an internal error). Other dialects' clients take damaged data as 0.6's do, for the same reasons.
     */
    public static TException toThrift(Throwable failure, ClientExceptions dialect) {
        if (failure instanceof InvalidQueryException || failure instanceof DamagedDataException) {
            return dialect.invalidRequest(failure.getMessage());
        }
        if (failure instanceof UnavailableReplicasException) return dialect.unavailable();
        if (failure instanceof StorageTimeoutException) return dialect.timedOut();
        if (failure instanceof WriteFailedException) {
            return new TApplicationException(TApplicationException.INTERNAL_ERROR, failure.getMessage());
        }
        return null;
    }

    /** A step after the store's answer, which may refuse it with a client's exception (the deadline, a miss). */
    @FunctionalInterface
    public interface Then<A, B> {
        B apply(A answer) throws TException;
    }

    /**
     * The store's answer to come, turned into the call's: a storage failure becomes the client's exception (see
     * {@link #toThrift}) and fails the result with it, as does one thrown by {@code then}; any other failure passes
     * as it is.
     */
    static <A, B> CompletableFuture<B> after(CompletableFuture<A> answer, Then<A, B> then) {
        return after(answer, V06, then);
    }

    /** As {@link #after(CompletableFuture, Then)}, with {@code dialect}'s exceptions. */
    public static <A, B> CompletableFuture<B> after(CompletableFuture<A> answer, ClientExceptions dialect,
                                                    Then<A, B> then) {
        if (answer.isDone() && !answer.isCompletedExceptionally()) {
            // Answered at once (the embedded engine): the step runs now, with no stage to chain.
            try {
                return CompletableFuture.completedFuture(then.apply(answer.join()));
            } catch (TException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        return answer.handle((value, failure) -> {
            if (failure != null) {
                Throwable cause = AsyncFailures.cause(failure);
                TException client = toThrift(cause, dialect);
                throw new CompletionException(client != null ? client : cause);
            }
            try {
                return then.apply(value);
            } catch (TException e) {
                throw new CompletionException(e);
            }
        });
    }
}
