package sibyl.transport;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Decides, call by call, whether a call runs on the network thread that read it or is handed to a worker.
 *
 * <p>Why: a hand-off costs two thread wake-ups per call (event loop to worker, worker back to event loop), and on
 * a small machine those cost more than the call itself; measured with 32 clients on 2 cores, running single-row
 * reads and writes on the network thread cut the server's CPU per call by about 30%. The price is that a call run
 * there holds up every other connection of that thread while it runs, so only calls that should take microseconds
 * qualify:
 * <ul>
 *   <li>the application says the method never waits ({@link ProcessorFactory#isQuick}: no fsync, no remote call,
 *       no waiting for a flush);
 *   <li>the message is small ({@value #MAX_INLINE_MESSAGE_BYTES} bytes at most), as the work grows with it;
 *   <li>the method has not been slow lately: the network thread keeps a moving average of how long each method's
 *       calls took there, each sample capped at {@value #SAMPLE_CAP} times {@code slowNanos} so that one stall (a
 *       GC pause, the thread preempted) moves it little. While the average is above {@code slowNanos} (data not
 *       in the page cache), the method's calls go to the workers, where many can wait on the disk at once, except
 *       one call per {@code probeNanos} that runs on the network thread to update the average. A workload that
 *       reads from disk thus settles on the workers, and a cached one on the network threads.
 * </ul>
 * Shared by all connections; two network threads updating an average at once may lose one sample.
 */
final class CallPlacement {
    static final int MAX_INLINE_MESSAGE_BYTES = 16 * 1024;
    /** A sample counts for at most this many times the slow limit. */
    static final int SAMPLE_CAP = 4;
    /** The average moves by 1/2^WEIGHT_SHIFT of the difference per sample: about the last 16 calls count. */
    private static final int WEIGHT_SHIFT = 4;

    private final ProcessorFactory application;
    private final long slowNanos;
    private final long probeNanos;
    private final ConcurrentMap<String, Timing> timings = new ConcurrentHashMap<>();

    CallPlacement(ProcessorFactory application, long slowNanos, long probeNanos) {
        this.application = application;
        this.slowNanos = slowNanos;
        this.probeNanos = probeNanos;
    }

    /** The default: slow past 0.3 ms on average; a slow method tries the network thread again ten times a second. */
    static CallPlacement of(ProcessorFactory application) {
        return new CallPlacement(application, 300_000, 100_000_000);
    }

    /** Whether {@code call} may run on the network thread now; on the network thread. */
    boolean onNetworkThread(ThriftCall call, long now) {
        if (call.message().length > MAX_INLINE_MESSAGE_BYTES) {
            return false;
        }
        String method = call.methodName();
        if (!application.isQuick(method)) {
            return false;
        }
        Timing timing = timings.get(method);
        if (timing == null || timing.averageNanos <= slowNanos) {
            return true;
        }
        if (now - timing.nextProbe >= 0) {
            timing.nextProbe = now + probeNanos;
            return true;
        }
        return false;
    }

    /** Reports how long a call run on the network thread took, from {@code start} to {@code end} (nanoTime). */
    void ranOnNetworkThread(ThriftCall call, long start, long end) {
        long sample = Math.min(end - start, SAMPLE_CAP * slowNanos);
        Timing timing = timings.get(call.methodName());
        if (timing == null) {
            timing = timings.computeIfAbsent(call.methodName(), m -> new Timing());
        }
        long average = timing.averageNanos;
        long updated = average + ((sample - average) >> WEIGHT_SHIFT);
        if (average <= slowNanos && updated > slowNanos) {
            timing.nextProbe = end + probeNanos; // just turned slow: the first probe comes a probe period later
        }
        timing.averageNanos = updated;
    }

    /** Whether calls of {@code method} are held off the network threads (but for probes); for tests. */
    boolean backingOff(String method) {
        Timing timing = timings.get(method);
        return timing != null && timing.averageNanos > slowNanos;
    }

    private static final class Timing {
        volatile long averageNanos;
        volatile long nextProbe;
    }
}
