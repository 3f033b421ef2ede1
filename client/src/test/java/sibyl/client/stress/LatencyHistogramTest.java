package sibyl.client.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

    @Test
    void bucketsAreContiguousAndNarrow() {
        for (int i = 0; i < LatencyHistogram.BUCKETS; i++) {
            long low = LatencyHistogram.lowestValue(i);
            long high = LatencyHistogram.highestValue(i);
            assertEquals(i, LatencyHistogram.index(low), "bucket " + i);
            assertEquals(i, LatencyHistogram.index(high), "bucket " + i);
            if (i + 1 < LatencyHistogram.BUCKETS) {
                assertEquals(high + 1, LatencyHistogram.lowestValue(i + 1), "gap after bucket " + i);
            }
            assertTrue(high - low + 1 <= Math.max(1, low / LatencyHistogram.HALF), "bucket " + i + " too wide");
        }
        assertEquals(LatencyHistogram.MAX_VALUE, LatencyHistogram.highestValue(LatencyHistogram.BUCKETS - 1));
        assertEquals(LatencyHistogram.BUCKETS - 1, LatencyHistogram.index(Long.MAX_VALUE));
        assertEquals(0, LatencyHistogram.index(-5));
    }

    @Test
    void smallValuesAreExact() {
        LatencyHistogram h = new LatencyHistogram();
        for (int v = 1; v <= 100; v++) {
            h.record(v);
        }
        assertEquals(50, h.percentile(50));
        assertEquals(95, h.percentile(95));
        assertEquals(99, h.percentile(99));
        assertEquals(100, h.percentile(100));
        assertEquals(1, h.percentile(0));
        assertEquals(50.5, h.mean(), 1e-9);
    }

    @Test
    void uniformDistributionPercentilesWithinOnePercent() {
        LatencyHistogram h = new LatencyHistogram();
        for (int v = 1; v <= 100_000; v++) {
            h.record(v);
        }
        assertEquals(100_000, h.count());
        assertEquals(50_000.5, h.mean(), 1e-6);
        assertEquals(100_000, h.max());
        assertWithin(50_000, h.percentile(50));
        assertWithin(95_000, h.percentile(95));
        assertWithin(99_000, h.percentile(99));
        assertWithin(99_900, h.percentile(99.9));
    }

    @Test
    void exponentialDistributionMatchesExactPercentiles() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        long[] values = new long[200_000];
        LatencyHistogram h = new LatencyHistogram();
        for (int i = 0; i < values.length; i++) {
            values[i] = (long) (-Math.log(1 - random.nextDouble()) * 2_000); // mean 2 ms
            h.record(values[i]);
        }
        Arrays.sort(values);
        for (double p : new double[] {50, 90, 95, 99, 99.9}) {
            long exact = values[(int) Math.ceil(p / 100 * values.length) - 1];
            long got = h.percentile(p);
            assertTrue(got >= exact && got <= exact + Math.max(1, exact / LatencyHistogram.HALF),
                    "p" + p + ": exact " + exact + ", histogram " + got + " (seed " + seed + ")");
        }
        assertEquals(values[values.length - 1], h.max());
    }

    @Test
    void mergingAddsCounts() {
        LatencyHistogram a = new LatencyHistogram();
        LatencyHistogram b = new LatencyHistogram();
        for (int v = 0; v < 1000; v++) {
            (v % 2 == 0 ? a : b).record(v * 10L);
        }
        a.add(b);
        assertEquals(1000, a.count());
        assertEquals(9990, a.max());
        assertWithin(4990, a.percentile(50));
    }

    @Test
    void emptyHistogramReportsZeros() {
        LatencyHistogram h = new LatencyHistogram();
        assertEquals(0, h.percentile(99));
        assertEquals(0, h.mean());
    }

    private static void assertWithin(long expected, long actual) {
        assertTrue(Math.abs(actual - expected) <= expected / 100, "expected about " + expected + ", got " + actual);
    }
}
