package sibyl.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Cutting a token range by the cluster's per-range row estimates (describe_splits in cluster mode). */
class TokenSplitsTest {
    private static final BigInteger RING_START = BigInteger.ONE.negate();
    private static final BigInteger RING_END = BigInteger.ONE.shiftLeft(127);

    private static BigInteger b(long v) {
        return BigInteger.valueOf(v);
    }

    private static SizeEstimates.RangeEstimate range(long start, long end, long rows) {
        return new SizeEstimates.RangeEstimate(b(start), b(end), rows);
    }

    @Test
    void evenRowsAreCutIntoEqualPieces() {
        // 1000 rows over (0, 1000]: 10 pieces of 100 at 100, 200, ..., 900
        List<BigInteger> cuts = TokenSplits.cuts(b(0), b(1000), RING_START, RING_END, List.of(range(0, 1000, 1000)), 100);
        List<BigInteger> expected = new ArrayList<>();
        for (int i = 1; i < 10; i++) expected.add(b(i * 100L));
        assertEquals(expected, cuts);
    }

    @Test
    void piecesFollowTheRowsNotTheTokens() {
        // 900 rows in (0, 100], 100 rows in (100, 1000]: half of the rows lie before token 56
        List<BigInteger> cuts = TokenSplits.cuts(b(0), b(1000), RING_START, RING_END,
                List.of(range(0, 100, 900), range(100, 1000, 100)), 500);
        assertEquals(List.of(b(55)), cuts);
    }

    @Test
    void aPartOfAnEstimatedRangeCountsItsShare() {
        // (500, 1000] holds half of the range's 1000 rows: 5 pieces of 100
        List<BigInteger> cuts = TokenSplits.cuts(b(500), b(1000), RING_START, RING_END, List.of(range(0, 1000, 1000)),
                100);
        assertEquals(List.of(b(600), b(700), b(800), b(900)), cuts);
    }

    @Test
    void tooFewRowsOrNoneKnownIsOnePiece() {
        assertEquals(List.of(), TokenSplits.cuts(b(0), b(1000), RING_START, RING_END, List.of(range(0, 1000, 140)), 100));
        assertEquals(List.of(), TokenSplits.cuts(b(0), b(1000), RING_START, RING_END, List.of(), 100));
        assertEquals(List.of(), TokenSplits.cuts(b(2000), b(3000), RING_START, RING_END, List.of(range(0, 1000, 1000)),
                100), "the estimates say nothing of this range");
    }

    @Test
    void aWrappingRangeIsCutInRingOrder() {
        BigInteger near = RING_END.subtract(b(100));
        // (near, ring end] holds 100 rows, (ring start, 100] 100 rows: four pieces of 50, one ending at the wrap
        List<SizeEstimates.RangeEstimate> estimates = List.of(new SizeEstimates.RangeEstimate(RING_START, b(100), 100),
                new SizeEstimates.RangeEstimate(near, RING_START, 100)); // the last range ends at the minimum token
        List<BigInteger> cuts = TokenSplits.cuts(near, b(100), RING_START, RING_END, estimates, 50);
        // (-1, 100] is 101 tokens wide: its middle is 49.5, rounded down
        assertEquals(List.of(near.add(b(50)), RING_END, b(49)), cuts);
    }

    @Test
    void cutsAreStrictlyInsideAndIncreasing() {
        // Many rows in a narrow range: cuts collapse onto the same token at most once each.
        List<BigInteger> cuts = TokenSplits.cuts(b(0), b(10), RING_START, RING_END, List.of(range(0, 10, 10_000)), 10);
        assertTrue(cuts.size() <= 9, cuts.toString());
        BigInteger last = b(0);
        for (BigInteger c : cuts) {
            assertTrue(c.compareTo(last) > 0 && c.compareTo(b(10)) < 0, cuts.toString());
            last = c;
        }
    }

    @Test
    void aWrappingRangeOfAMurmur3RingCrossesFromItsTopToItsBottom() {
        // A Murmur3 ring runs from Long.MIN_VALUE (exclusive) to Long.MAX_VALUE; the cluster writes its last estimated
        // range as ending at the minimum. 200 rows spread evenly over (MAX - 1000, MIN] and (MIN, MIN + 1000].
        BigInteger min = b(Long.MIN_VALUE);
        BigInteger max = b(Long.MAX_VALUE);
        List<SizeEstimates.RangeEstimate> estimates = List.of(
                new SizeEstimates.RangeEstimate(max.subtract(b(1000)), min, 100),
                new SizeEstimates.RangeEstimate(min, min.add(b(1000)), 100));
        List<BigInteger> cuts = TokenSplits.cuts(max.subtract(b(1000)), min.add(b(1000)), min, max, estimates, 100);
        assertEquals(List.of(max), cuts, "the cut between the two halves is the top of the ring");
    }
}
