package sibyl.client.stress;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
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

    StressWorker(SibylClient client, StressCalls calls, LatencyRecorder recorder, StressCounters counters,
                 AtomicLong budget, AtomicBoolean stop) {
        this.client = client;
        this.calls = calls;
        this.recorder = recorder;
        this.counters = counters;
        this.budget = budget;
        this.stop = stop;
    }

    @Override
    public void run() {
        try {
            while (!stop.get() && (budget == null || budget.getAndDecrement() > 0)) {
                StressCall call = calls.next();
                long start = System.nanoTime();
                try {
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

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
