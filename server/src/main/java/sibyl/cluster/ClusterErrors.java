package sibyl.cluster;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.QueryValidationException;
import com.datastax.oss.driver.api.core.servererrors.ReadFailureException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteFailureException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import sibyl.db.InvalidQueryException;
import sibyl.db.WriteFailedException;
import sibyl.service.AsyncFailures;
import sibyl.service.StorageTimeoutException;
import sibyl.service.UnavailableReplicasException;

/**
 * The cluster's failures in the storage layer's terms, which the Thrift handler turns into 0.6's
 * exceptions: too few live replicas, or no node reachable at all, is UnavailableException; replicas
 * too slow or failing (or a coordinator too busy) is TimedOutException; a request the cluster refuses as
 * invalid is InvalidRequestException with the cluster's reason. Failures of availability are logged
 * once per burst ({@link FailureLog}): one per node of Sibyl, so that each node's log speaks of its own
 * requests.
 */
final class ClusterErrors {
    private final FailureLog log;

    ClusterErrors(FailureLog log) {
        this.log = log;
    }

    <T> T call(Supplier<T> request) {
        try {
            T result = request.get();
            log.succeeded();
            return result;
        } catch (RuntimeException e) {
            throw translate(e);
        }
    }

    void run(Runnable request) {
        call(() -> {
            request.run();
            return null;
        });
    }

    <T> T join(CompletableFuture<T> future) {
        try {
            T result = future.join();
            log.succeeded();
            return result;
        } catch (CompletionException e) {
            throw translate(e.getCause() instanceof RuntimeException r ? r : e);
        }
    }

    /**
     * A request started now whose answer comes later: a failure to start it (an unknown table, a value the driver
     * refuses) and a failure of the request alike complete the future with the storage layer's exception.
     */
    <T> CompletableFuture<T> async(Supplier<? extends CompletionStage<T>> request) {
        CompletionStage<T> started;
        try {
            started = request.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(translate(e));
        }
        return started.toCompletableFuture().handle((result, failure) -> {
            if (failure == null) {
                log.succeeded();
                return result;
            }
            Throwable cause = AsyncFailures.cause(failure);
            throw new CompletionException(cause instanceof RuntimeException r ? translate(r) : cause);
        });
    }

    RuntimeException translate(RuntimeException e) {
        if (e instanceof UnavailableReplicasException || e instanceof StorageTimeoutException
                || e instanceof InvalidQueryException || e instanceof WriteFailedException) {
            return e;
        }
        if (e instanceof AllNodesFailedException all && !(e instanceof NoNodeAvailableException)) {
            RuntimeException answer = lastAnswer(all);
            if (answer != null) return translate(answer);
        }
        if (e instanceof NoNodeAvailableException || e instanceof AllNodesFailedException) {
            log.failed("no node of the cluster answered: " + e.getMessage());
            return new UnavailableReplicasException(e.getMessage(), e);
        }
        ReplicaAnswer answer = ReplicaAnswer.of(e);
        if (answer == ReplicaAnswer.TOO_FEW_ALIVE) {
            log.failed("too few replicas alive: " + e.getMessage());
            return new UnavailableReplicasException(e.getMessage(), e);
        }
        if (answer == ReplicaAnswer.TOO_SLOW || e instanceof DriverTimeoutException) {
            log.failed("replicas did not answer in time: " + e.getMessage());
            return new StorageTimeoutException(e.getMessage(), e);
        }
        if (answer == ReplicaAnswer.FAILED) {
            // A replica answered that it failed (one starting up, a full disk): 0.6's replicas only ever stayed
            // silent, and the client saw TimedOutException, which also says that the write may have been applied
            // by the replicas that did not fail.
            log.failed("replicas failed a request: " + e.getMessage());
            return new StorageTimeoutException(e.getMessage(), e);
        }
        if (e instanceof QueryValidationException) {
            return new InvalidQueryException(e.getMessage());
        }
        return e;
    }

    /** What a coordinator answered about its replicas, in the terms 0.6 gave a client. */
    private enum ReplicaAnswer {
        /** Fewer replicas alive than the consistency level needs. */
        TOO_FEW_ALIVE,
        /** Replicas (or an overloaded coordinator) did not answer in time. */
        TOO_SLOW,
        /** A replica answered that it failed the request. */
        FAILED;

        /** Null for anything that is not such an answer. */
        static ReplicaAnswer of(Throwable e) {
            if (e instanceof UnavailableException) return TOO_FEW_ALIVE;
            if (e instanceof ReadTimeoutException || e instanceof WriteTimeoutException
                    || e instanceof OverloadedException) {
                return TOO_SLOW;
            }
            if (e instanceof ReadFailureException || e instanceof WriteFailureException) return FAILED;
            return null;
        }
    }

    /**
     * When every node the driver tried answered with a failure of availability or time (the driver tries the next
     * node after an UnavailableException or an overloaded coordinator), the answer of the last node tried: the
     * failure is that answer, not nodes that could not be reached. Null when some node gave another error, or
     * none at all.
     */
    private static RuntimeException lastAnswer(AllNodesFailedException all) {
        RuntimeException last = null;
        for (List<Throwable> errors : all.getAllErrors().values()) {
            for (Throwable error : errors) {
                if (ReplicaAnswer.of(error) == null) return null;
                last = (RuntimeException) error;
            }
        }
        return last;
    }
}
