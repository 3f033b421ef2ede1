package sibyl.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Range slices read their rows with BoundedFanOut: in order, at most a window at once, every failure seen. */
class BoundedFanOutTest {

    @Test
    void resultsComeInTaskOrderWithAtMostTheWindowInFlight() throws Exception {
        List<CompletableFuture<Integer>> started = new ArrayList<>();
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CompletableFuture<List<Integer>> all = BoundedFanOut.run(10, 3, i -> {
            most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            CompletableFuture<Integer> f = new CompletableFuture<>();
            synchronized (started) {
                started.add(f);
            }
            return f.whenComplete((v, e) -> inFlight.decrementAndGet());
        });
        assertEquals(3, started.size(), "a window's worth started at once");
        // finish them out of order: the last started first
        for (int round = 0; round < 10; round++) {
            CompletableFuture<Integer> f;
            synchronized (started) {
                f = started.stream().filter(x -> !x.isDone()).reduce((a, b) -> b).orElseThrow();
            }
            f.complete(started.indexOf(f) * 10);
        }
        assertEquals(List.of(0, 10, 20, 30, 40, 50, 60, 70, 80, 90), all.get(10, TimeUnit.SECONDS));
        assertEquals(3, most.get());
    }

    @Test
    void tasksThatFinishAtOnceDoNotDeepenTheStack() throws Exception {
        int n = 100_000;
        List<Integer> results = BoundedFanOut.run(n, 4, CompletableFuture::completedFuture).get(10, TimeUnit.SECONDS);
        assertEquals(n, results.size());
        assertEquals(n - 1, results.get(n - 1));
    }

    @Test
    void theFirstFailureFailsTheWhole() {
        IllegalStateException boom = new IllegalStateException("row 5");
        CompletableFuture<List<Integer>> all = BoundedFanOut.run(10, 2,
                i -> i == 5 ? CompletableFuture.failedFuture(boom) : CompletableFuture.completedFuture(i));
        ExecutionException e = assertThrows(ExecutionException.class, () -> all.get(10, TimeUnit.SECONDS));
        assertSame(boom, e.getCause());
    }

    /** One task (a call of one row) takes a shorter way, with the same answers. */
    @Test
    void oneTaskIsAListOfItsResultOrFailsWithItsFailure() throws Exception {
        CompletableFuture<Void> pending = new CompletableFuture<>();
        CompletableFuture<List<Void>> written = BoundedFanOut.run(1, 16, i -> pending);
        assertFalse(written.isDone(), "done only when its task is");
        pending.complete(null);
        assertEquals(Collections.singletonList(null), written.get(10, TimeUnit.SECONDS));

        IllegalStateException boom = new IllegalStateException("row 0");
        ExecutionException failed = assertThrows(ExecutionException.class, () -> BoundedFanOut.<Integer>run(1, 16,
                i -> CompletableFuture.failedFuture(boom)).get(10, TimeUnit.SECONDS));
        assertSame(boom, failed.getCause());
        ExecutionException thrown = assertThrows(ExecutionException.class, () -> BoundedFanOut.<Integer>run(1, 16,
                i -> {
                    throw boom;
                }).get(10, TimeUnit.SECONDS));
        assertSame(boom, thrown.getCause(), "a task that cannot start fails the whole, as with many");
    }

    @Test
    void noTasksIsAnEmptyList() throws Exception {
        assertTrue(BoundedFanOut.<Integer>run(0, 4, i -> {
            throw new AssertionError("no task to start");
        }).get().isEmpty());
    }
}
