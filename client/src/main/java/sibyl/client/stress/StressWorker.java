package sibyl.client.stress;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import sibyl.client.ClientException;

/** One stress thread: runs operations on its own connection until the budget or the time is used up. */
final class StressWorker implements Runnable {

    private final BlockingConnection connection;
    private final StressCalls calls;
    private final LatencyRecorder recorder;
    private final StressCounters counters;
    /** Operations left to start in count mode; null in duration mode. */
    private final AtomicLong budget;
    private final AtomicBoolean stop;
    /** Nanoseconds from one operation's start to the next under --rate; 0 for none. */
    private final long pacingNanos;
    /**
     * Under --rate, how far into the first period this worker starts. The workers' schedules are spread over one
     * period, as the event loop spreads its connections': with one start for all, every thread would send at the
     * same instant and the run would measure bursts of as many calls as threads, not the rate.
     */
    private final long phaseNanos;

    StressWorker(BlockingConnection connection, StressCalls calls, LatencyRecorder recorder, StressCounters counters,
                 AtomicLong budget, AtomicBoolean stop, long pacingNanos, long phaseNanos) {
        this.pacingNanos = pacingNanos;
        this.phaseNanos = phaseNanos;
        this.connection = connection;
        this.calls = calls;
        this.recorder = recorder;
        this.counters = counters;
        this.budget = budget;
        this.stop = stop;
    }

    @Override
    public void run() {
        try {
            Pacer pacer = pacingNanos > 0 ? new Pacer(pacingNanos, System.nanoTime() + phaseNanos) : null;
            while (!stop.get() && (budget == null || budget.getAndDecrement() > 0)) {
                if (pacer != null) pacer.await(stop::get);
                StressCall call = calls.next();
                try {
                    connection.ensureOpen(); // after a broken call: a new connection, and its handshake
                    long start = System.nanoTime();
                    connection.call(call, start);
                    recorder.record((System.nanoTime() - start) / 1_000);
                } catch (ClientException e) {
                    counters.error(e);
                    if (e.brokeConnection()) {
                        pause(); // the next call reconnects; do not spin while the server is away
                    }
                }
            }
        } finally {
            connection.finish();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
