package sibyl.cluster;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * Where to cut a range of numeric tokens so that each piece holds about the same number of rows,
 * from per-range estimates. Within an estimated range rows are taken to be spread evenly over its
 * tokens, which RandomPartitioner's hashing makes so.
 *
 * <p>The ring runs from {@code ringStart} (exclusive: the cluster's minimum token, -1 for
 * RandomPartitioner) to {@code ringEnd}; a range (start, end] with {@code start >= end} wraps past
 * the end of the ring, and {@code start == end} is the whole ring from just after start.
 */
final class TokenSplits {
    private static final MathContext PRECISION = new MathContext(60, RoundingMode.HALF_EVEN);

    private TokenSplits() {
    }

    /** A stretch (lo, hi] of tokens in ring order with the rows estimated in it. */
    private record Piece(BigInteger lo, BigInteger hi, double rows) {
    }

    /**
     * The tokens strictly inside (start, end], in ring order, that cut it into pieces of about
     * {@code rowsPerSplit} rows: {@code round(rows / rowsPerSplit)} pieces of equal estimated rows.
     * Empty when the range holds fewer than one and a half splits' worth (or nothing is known of it).
     */
    static List<BigInteger> cuts(BigInteger start, BigInteger end, BigInteger ringStart, BigInteger ringEnd,
                                 List<SizeEstimates.RangeEstimate> estimates, long rowsPerSplit) {
        List<Piece> pieces = new ArrayList<>();
        if (start.compareTo(end) < 0) {
            pieces(start, end, estimates, ringEnd, pieces);
        } else {
            pieces(start, ringEnd, estimates, ringEnd, pieces);
            pieces(ringStart, end, estimates, ringEnd, pieces);
        }
        double total = 0;
        for (Piece p : pieces) total += p.rows();
        long splits = Math.round(total / rowsPerSplit);
        List<BigInteger> cuts = new ArrayList<>();
        if (splits < 2) return cuts;
        double before = 0; // rows in the pieces already passed
        int next = 1;
        for (Piece p : pieces) {
            while (next < splits && next * total / splits <= before + p.rows()) {
                double into = (next * total / splits - before) / p.rows(); // in (0, 1]
                BigInteger width = p.hi().subtract(p.lo());
                BigInteger at = p.lo().add(new BigDecimal(width).multiply(BigDecimal.valueOf(into), PRECISION)
                        .setScale(0, RoundingMode.FLOOR).toBigIntegerExact());
                BigInteger last = cuts.isEmpty() ? start : cuts.get(cuts.size() - 1);
                if (!at.equals(last) && !at.equals(end) && !at.equals(p.lo())) cuts.add(at);
                next++;
            }
            before += p.rows();
        }
        return cuts;
    }

    /**
     * The parts of (lo, hi] that estimated ranges cover, in order, with their share of each range's rows. An
     * estimated range ending at or before its start (the cluster writes the last one as ending at the minimum
     * token) ends at {@code ringEnd}.
     */
    private static void pieces(BigInteger lo, BigInteger hi, List<SizeEstimates.RangeEstimate> estimates,
                               BigInteger ringEnd, List<Piece> into) {
        if (lo.compareTo(hi) >= 0) return;
        for (SizeEstimates.RangeEstimate e : estimates) {
            BigInteger end = e.end().compareTo(e.start()) <= 0 ? ringEnd : e.end();
            BigInteger from = e.start().max(lo);
            BigInteger to = end.min(hi);
            if (from.compareTo(to) >= 0 || e.rows() == 0) continue;
            double share = new BigDecimal(to.subtract(from)).divide(new BigDecimal(end.subtract(e.start())),
                    PRECISION).doubleValue();
            into.add(new Piece(from, to, e.rows() * share));
        }
    }
}
