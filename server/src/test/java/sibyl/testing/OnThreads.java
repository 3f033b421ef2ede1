package sibyl.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs the same work on several threads at once and waits for all of it: how the concurrency tests put load on one
 * server, cache or memtable from many callers.
 */
public final class OnThreads {
    /** The work of one thread, told which it is (0 to threads - 1). */
    @FunctionalInterface
    public interface Work {
        void run(int thread) throws Exception;
    }

    private OnThreads() {
    }

    /**
     * Runs {@code work} on {@code threads} threads, released together so that they overlap, and returns once all have
     * finished. The first failure is rethrown as it was thrown (an assertion stays an assertion); work still running
     * after {@code timeout} fails the test instead of hanging it, and is interrupted.
     */
    public static void run(int threads, Duration timeout, Work work) throws Exception {
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>(threads);
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    start.await();
                    work.run(thread);
                    return null;
                }));
            }
            long deadline = System.nanoTime() + timeout.toNanos();
            for (int t = 0; t < threads; t++) {
                try {
                    done.get(t).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof Error error) throw error;
                    if (cause instanceof Exception exception) throw exception;
                    throw e;
                } catch (TimeoutException e) {
                    throw new AssertionError("thread " + t + " of " + threads + " still running after " + timeout, e);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
