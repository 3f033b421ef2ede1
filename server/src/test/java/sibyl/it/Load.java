package sibyl.it;

import static sibyl.it.Requests.b;
import static sibyl.it.Requests.parent;
import static sibyl.it.Requests.path;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;

/**
 * A steady load at ConsistencyLevel ONE over Thrift, two threads per node: each writes a new key,
 * then reads one it wrote before (whose column may or may not be there yet at ONE), about twenty
 * times a second. Every write acknowledged goes into the shared map; every call that fails, in any
 * way, is kept with the phase it failed in ({@link #markPhase}), for the test to show.
 */
final class Load implements AutoCloseable {
    private static final int THREADS_PER_NODE = 2;
    private static final long PAUSE_MILLIS = 50;
    private static final String KS = "Ring";

    private final Map<String, String> acknowledged;
    private final List<Thread> threads = new ArrayList<>();
    private final List<String> unexpected = new ArrayList<>();
    private final AtomicLong succeeded = new AtomicLong();
    private final AtomicLong clock = new AtomicLong(System.currentTimeMillis() * 1000);
    private volatile String phase = "before";
    private volatile boolean stopped;

    private Load(Map<String, String> acknowledged) {
        this.acknowledged = acknowledged;
    }

    static Load start(Map<String, String> acknowledged, TestNode... nodes) throws Exception {
        Load load = new Load(acknowledged);
        int n = 0;
        for (TestNode node : nodes) {
            for (int i = 0; i < THREADS_PER_NODE; i++) {
                Cassandra.Client client = node.client();
                String prefix = "load-" + n++ + "-";
                Thread t = new Thread(() -> load.run(client, prefix), "load-" + prefix);
                t.setDaemon(true);
                load.threads.add(t);
            }
        }
        load.threads.forEach(Thread::start);
        return load;
    }

    private void run(Cassandra.Client client, String prefix) {
        SlicePredicate all = new SlicePredicate().setSlice_range(new SliceRange(b(""), b(""), false, 10));
        for (long i = 0; !stopped; i++) {
            String key = prefix + i;
            String value = "v" + i;
            String call = "insert";
            try {
                client.insert(KS, key, path("Standard1", "c"), b(value), clock.incrementAndGet(), ConsistencyLevel.ONE);
                acknowledged.put(key, value);
                succeeded.incrementAndGet();
                call = "get_slice";
                client.get_slice(KS, prefix + (i / 2), parent("Standard1"), all, ConsistencyLevel.ONE);
                succeeded.incrementAndGet();
                Thread.sleep(PAUSE_MILLIS); // a steady rate, not a race: nothing waits on another thread
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                synchronized (unexpected) {
                    unexpected.add(phase + ": " + call + " of " + key + ": " + e);
                }
            }
        }
    }

    void markPhase(String phase) {
        this.phase = phase;
    }

    long succeeded() {
        return succeeded.get();
    }

    /** Waits until the load has had {@code count} writes acknowledged in all (a minute at most). */
    void awaitAcknowledged(int count) throws InterruptedException {
        await(() -> acknowledged.size() >= count, "acknowledged writes: " + count);
    }

    /** Waits until {@code count} calls have succeeded in all (a minute at most). */
    void awaitSucceeded(long count) throws InterruptedException {
        await(() -> succeeded.get() >= count, "calls succeeded: " + count);
    }

    private void await(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the load did not reach " + what + " within 60 s; " + this);
            }
            Thread.sleep(20);
        }
    }

    /** Stops the threads and waits for them; the calls under way finish. */
    void stop() throws InterruptedException {
        stopped = true;
        for (Thread t : threads) t.join(TimeUnit.SECONDS.toMillis(30));
    }

    /** The calls that failed, with the phase each failed in. */
    List<String> unexpected() {
        synchronized (unexpected) {
            return List.copyOf(unexpected);
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    @Override
    public String toString() {
        return "load of " + threads.size() + " threads: " + succeeded.get() + " calls succeeded, "
                + unexpected().size() + " failed";
    }
}
