package sibyl.service;

import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class AsyncFailuresTest {

    @Test
    void aFailureRaisedInADependentStageIsSeenBare() {
        StorageTimeoutException timeout = new StorageTimeoutException("too slow", null);
        CompletableFuture<Object> failed = CompletableFuture.failedFuture(timeout);
        Throwable[] seen = new Throwable[1];
        failed.thenApply(v -> v).handle((v, failure) -> seen[0] = failure).join();
        // the dependent stage wraps it; the handler answers by the original's class
        assertSame(CompletionException.class, seen[0].getClass());
        assertSame(timeout, AsyncFailures.cause(seen[0]));
    }

    @Test
    void aBareFailureIsItself() {
        RuntimeException e = new IllegalStateException("x");
        assertSame(e, AsyncFailures.cause(e));
    }

    @Test
    void aCompletionExceptionWithoutACauseIsItself() {
        CompletionException e = new CompletionException("no cause", null);
        assertSame(e, AsyncFailures.cause(e));
    }
}
