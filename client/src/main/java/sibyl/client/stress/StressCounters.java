package sibyl.client.stress;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/** Failure and verification counts shared by the workers of one run. */
final class StressCounters {

    final LongAdder errors = new LongAdder();
    /** Columns read back with a wrong value, a foreign name, or missing from a row that exists. */
    final LongAdder mismatches = new LongAdder();
    /** Rows read that had no columns at all (never written, or deleted). */
    final LongAdder missingRows = new LongAdder();
    private final AtomicReference<String> firstError = new AtomicReference<>();

    void error(Exception e) {
        errors.increment();
        firstError.compareAndSet(null, e.getMessage());
    }

    String firstError() {
        return firstError.get();
    }
}
