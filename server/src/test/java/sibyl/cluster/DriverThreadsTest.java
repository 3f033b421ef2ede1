package sibyl.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.datastax.oss.driver.internal.core.util.concurrent.BlockingOperation;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The network threads the driver's connections share are the driver's own to it: on them it refuses its
 * synchronous calls, which there would wait for an answer only that thread could read.
 */
class DriverThreadsTest {
    @Test
    void theDriverRefusesItsSynchronousCallsOnTheThreads() throws Exception {
        DriverThreads threads = new DriverThreads("net");
        CompletableFuture<Throwable> refusal = new CompletableFuture<>();
        Thread t = threads.newThread(() -> {
            try {
                BlockingOperation.checkNotDriverThread(); // what session.execute, prepare and close do first
                refusal.complete(null);
            } catch (Throwable e) {
                refusal.complete(e);
            }
        });
        t.start();
        Throwable refused = refusal.get(10, TimeUnit.SECONDS);
        assertEquals(IllegalStateException.class, refused == null ? null : refused.getClass(),
                "the driver let a synchronous call through on " + t.getName());
        t.join(10_000);
        // Elsewhere the same call is allowed.
        BlockingOperation.checkNotDriverThread();
    }

    @Test
    void threadsAreNumberedAndHoldTheJvmUntilStopped() {
        DriverThreads threads = new DriverThreads("sibyl-thrift-io");
        List<Thread> made = List.of(threads.newThread(() -> { }), threads.newThread(() -> { }));
        assertEquals(List.of("sibyl-thrift-io-1", "sibyl-thrift-io-2"), made.stream().map(Thread::getName).toList());
        made.forEach(t -> assertFalse(t.isDaemon(), t.getName()));
    }
}
