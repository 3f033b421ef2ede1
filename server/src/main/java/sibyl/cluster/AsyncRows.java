package sibyl.cluster;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The rows of an asynchronous query, page after page, handed to a {@link Sink} until it has
 * enough: the next page is asked for only when the sink wants more and there is one. Runs on the
 * driver's threads, which must never block; the sinks only convert rows.
 */
final class AsyncRows {
    /** Takes rows one by one; its result is the answer once the rows end or it has had enough. */
    interface Sink<T> {
        /** @return false when it needs no more rows */
        boolean accept(Row row);

        T result();
    }

    private AsyncRows() {
    }

    static <T> CompletableFuture<T> collect(CompletionStage<AsyncResultSet> first, Sink<T> sink) {
        CompletableFuture<T> done = new CompletableFuture<>();
        first.whenComplete((page, failure) -> onPage(page, failure, sink, done));
        return done;
    }

    private static <T> void onPage(AsyncResultSet page, Throwable failure, Sink<T> sink, CompletableFuture<T> done) {
        if (failure != null) {
            done.completeExceptionally(failure);
            return;
        }
        try {
            for (Row row : page.currentPage()) {
                if (!sink.accept(row)) {
                    done.complete(sink.result());
                    return;
                }
            }
            if (page.hasMorePages()) {
                page.fetchNextPage().whenComplete((next, f) -> onPage(next, f, sink, done));
            } else {
                done.complete(sink.result());
            }
        } catch (RuntimeException e) {
            done.completeExceptionally(e);
        }
    }
}
