package sibyl.client.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LatencyRecorderTest {

    @Test
    void drainingWhileRecordingLosesNothing() throws InterruptedException {
        LatencyRecorder recorder = new LatencyRecorder();
        int n = 2_000_000;
        Thread writer = new Thread(() -> {
            for (int i = 0; i < n; i++) {
                recorder.record(i % 5_000);
            }
        });
        LatencyHistogram total = new LatencyHistogram();
        LatencyHistogram interval = new LatencyHistogram();
        writer.start();
        int drains = 0;
        while (writer.isAlive()) {
            interval.reset();
            recorder.drainInto(interval);
            total.add(interval);
            drains++;
        }
        writer.join();
        interval.reset();
        recorder.drainInto(interval);
        total.add(interval);
        assertEquals(n, total.count(), "after " + drains + " drains");
        assertEquals(4_999, total.max());
        long expectedSum = (long) (n / 5_000) * (4_999L * 5_000 / 2);
        assertEquals((double) expectedSum / n, total.mean(), 1e-9);
    }

    @Test
    void eachDrainHoldsOnlyWhatCameSinceThePrevious() {
        LatencyRecorder recorder = new LatencyRecorder();
        recorder.record(100);
        recorder.record(300);
        LatencyHistogram first = new LatencyHistogram();
        recorder.drainInto(first);
        assertEquals(2, first.count());
        assertEquals(300, first.max());
        recorder.record(50);
        LatencyHistogram second = new LatencyHistogram();
        recorder.drainInto(second);
        assertEquals(1, second.count());
        assertEquals(50, second.max());
        assertEquals(50.0, second.mean());
    }
}
