package sibyl.dht;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class RangeTest {
    private static Token t(long v) {
        return new BigIntegerToken(BigInteger.valueOf(v));
    }

    @Test
    void plainRangeExcludesStartIncludesEnd() {
        Range r = new Range(t(10), t(20));
        assertFalse(r.isWrapAround());
        assertFalse(r.contains(t(10)));
        assertTrue(r.contains(t(11)));
        assertTrue(r.contains(t(20)));
        assertFalse(r.contains(t(21)));
        assertFalse(r.contains(t(0)));
    }

    @Test
    void wrappingRangeGoesPastTheEndOfTheRing() {
        Range r = new Range(t(20), t(10));
        assertTrue(r.isWrapAround());
        assertTrue(r.contains(t(21)));
        assertTrue(r.contains(t(Long.MAX_VALUE)));
        assertTrue(r.contains(t(0)));
        assertTrue(r.contains(t(10)));
        assertFalse(r.contains(t(11)));
        assertFalse(r.contains(t(20)));
    }

    @Test
    void startEqualToEndIsTheWholeRing() {
        Range r = new Range(t(5), t(5));
        for (long v : new long[] {0, 4, 5, 6, 1000}) assertTrue(r.contains(t(v)));
        Range all = new Range(t(0), t(0));
        assertTrue(all.contains(t(0)));
        assertTrue(all.contains(t(1)));
    }

    @Test
    void rangeEndingAtMinimumRunsToTheEndOfTheRing() {
        Range r = new Range(t(7), t(0));
        assertTrue(r.contains(t(8)));
        assertTrue(r.contains(t(0)));
        assertFalse(r.contains(t(7)));
        assertFalse(r.contains(t(3)));
    }

    @Test
    void boundsIncludeBothEndsAndNullMeansUnbounded() {
        Bounds b = new Bounds(t(10), t(20));
        assertTrue(b.contains(t(10)));
        assertTrue(b.contains(t(20)));
        assertFalse(b.contains(t(9)));
        assertFalse(b.contains(t(21)));
        Bounds open = new Bounds(t(10), null);
        assertTrue(open.contains(t(Long.MAX_VALUE)));
        assertFalse(open.contains(t(9)));
    }
}
