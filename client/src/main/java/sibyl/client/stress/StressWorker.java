package sibyl.client.stress;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.cassandra.thrift.Cassandra;
import sibyl.client.ClientException;
import sibyl.client.SibylClient;

/** One stress thread: runs operations on its own connection until the budget or the time is used up. */
final class StressWorker implements Runnable {

    private final SibylClient client;
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
    /** The dialect's once-per-connection call (set_keyspace), or null. */
    private final StressCall handshake;
    /** The generated client the handshake last ran on: a reconnect makes a new one, which needs it again. */
    private Cassandra.Client prepared;

    StressWorker(SibylClient client, StressCalls calls, LatencyRecorder recorder, StressCounters counters,
                 AtomicLong budget, AtomicBoolean stop, long pacingNanos, long phaseNanos) {
        this.pacingNanos = pacingNanos;
        this.phaseNanos = phaseNanos;
        this.client = client;
        this.calls = calls;
        this.recorder = recorder;
        this.counters = counters;
        this.budget = budget;
        this.stop = stop;
        this.handshake = calls.handshake();
    }

    /**
     * Makes the dialect's handshake on the connection unless it had it already; called before each operation, and
     * once at start-up so that a refused one (an unknown keyspace, say) stops the run before it begins.
     *
     * @throws ClientException if the connection cannot be opened or the handshake is refused
     */
    void prepare() {
        if (handshake == null) {
            return;
        }
        Cassandra.Client current = client.thrift();
        if (current != prepared) {
            client.call(handshake.operation(), c -> {
                handshake.send(c);
                handshake.receive(c);
                return null;
            });
            prepared = current;
        }
    }

    @Override
    public void run() {
        try {
            long slot = System.nanoTime() + phaseNanos;
            while (!stop.get() && (budget == null || budget.getAndDecrement() > 0)) {
                if (pacingNanos > 0) {
                    slot = waitFor(slot);
                }
                StressCall call = calls.next();
                try {
                    prepare();
                    long start = System.nanoTime();
                    client.call(call.operation(), c -> {
                        call.send(c);
                        call.receive(c);
                        return null;
                    });
                    recorder.record((System.nanoTime() - start) / 1_000);
                } catch (ClientException e) {
                    counters.error(e);
                    if (e.brokeConnection()) {
                        pause(); // the next call reconnects; do not spin while the server is away
                    }
                }
            }
        } finally {
            client.close();
        }
    }

    /** Waits until {@code slot}; returns the next one (not earlier than a period ago, so a stall is not made up). */
    private long waitFor(long slot) {
        long now;
        while ((now = System.nanoTime()) - slot < 0 && !stop.get()) {
            LockSupport.parkNanos(slot - now);
        }
        return Math.max(slot, now - pacingNanos) + pacingNanos;
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
