package sibyl.service;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * Runs {@code count} asynchronous tasks with at most {@code window} of them in flight, and
 * completes with their results in task order, or with the first failure. A call of many rows
 * (a range slice, multiget, a batch_mutate of many keys) reaches a remote store's rows this way:
 * concurrently, so that its time is not the sum of its rows', as 0.6 sent all of a call's
 * requests before waiting for any, and bounded, so that one call of many rows does not flood the
 * cluster's coordinators (or starve the calls of other clients sharing the connections).
 *
 * <p>Tasks are started by whichever thread finishes a task, one thread at a time (the
 * work-in-progress counter lets the thread that finds work pending run it all), so tasks that
 * complete at once do not recurse.
 */
public final class BoundedFanOut<T> {
    private final int count;
    private final IntFunction<CompletableFuture<T>> task;
    private final Object[] results;
    private final CompletableFuture<List<T>> done = new CompletableFuture<>();
    private final AtomicInteger permits;
    private final AtomicInteger finished = new AtomicInteger();
    private final AtomicInteger wip = new AtomicInteger();
    private int next; // only the thread holding wip touches it

    private BoundedFanOut(int count, int window, IntFunction<CompletableFuture<T>> task) {
        this.count = count;
        this.task = task;
        this.results = new Object[count];
        this.permits = new AtomicInteger(window);
    }

    public static <T> CompletableFuture<List<T>> run(int count, int window, IntFunction<CompletableFuture<T>> task) {
        if (window < 1) throw new IllegalArgumentException("window must be at least 1: " + window);
        if (count == 0) return CompletableFuture.completedFuture(List.of());
        if (count == 1) return one(task);
        BoundedFanOut<T> fanOut = new BoundedFanOut<>(count, window, task);
        fanOut.drain();
        return fanOut.done;
    }

    /**
     * The one task of a call of one row (most calls: a get, a one-row batch_mutate), without the window's
     * bookkeeping: started now, its result a list of one (which may hold null), its failure the whole's.
     */
    private static <T> CompletableFuture<List<T>> one(IntFunction<CompletableFuture<T>> task) {
        CompletableFuture<T> f;
        try {
            f = task.apply(0);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return f.thenApply(Collections::singletonList);
    }

    private void drain() {
        if (wip.getAndIncrement() != 0) return; // the thread draining now sees the work and runs it
        int missed = 1;
        do {
            while (next < count && !done.isDone() && permits.get() > 0) {
                permits.decrementAndGet();
                int i = next++;
                CompletableFuture<T> f;
                try {
                    f = task.apply(i);
                } catch (RuntimeException e) {
                    done.completeExceptionally(e);
                    return;
                }
                f.whenComplete((value, failure) -> finished(i, value, failure));
            }
            missed = wip.addAndGet(-missed);
        } while (missed != 0);
    }

    @SuppressWarnings("unchecked")
    private void finished(int i, T value, Throwable failure) {
        if (failure != null) {
            done.completeExceptionally(failure);
            return;
        }
        results[i] = value;
        if (finished.incrementAndGet() == count) {
            done.complete((List<T>) Arrays.asList(results));
            return;
        }
        permits.incrementAndGet();
        drain();
    }
}
