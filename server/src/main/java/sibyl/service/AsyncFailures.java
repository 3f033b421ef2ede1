package sibyl.service;

import java.util.concurrent.CompletionException;

/** The failures of the storage layer's futures, as the layers above see them. */
public final class AsyncFailures {
    private AsyncFailures() {
    }

    /**
     * The exception a future's failure stands for. A stage that depends on a failed one fails with the original
     * wrapped in a CompletionException, so the same storage exception reaches a handler bare or wrapped depending on
     * where in the chain it was raised; callers that answer by the exception's class look at this instead.
     */
    public static Throwable cause(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }
}
