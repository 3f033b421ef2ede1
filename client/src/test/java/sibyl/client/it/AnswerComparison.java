package sibyl.client.it;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.thrift.TException;
import sibyl.client.it.DifferentialSchema.Family;

/**
 * The same calls made through a Cassandra 0.6 node and through Sibyl, one after the other, and every
 * difference between their answers kept with the call and both answers. Also counts what the calls answered,
 * so a run can tell it compared data and not only empty answers.
 */
final class AnswerComparison {
    /** A call the two servers answered differently. */
    record Difference(String round, String call, String cassandra06, String sibyl) {
        @Override
        public String toString() {
            return "[" + round + "] " + call + "\n    0.6:   " + indent(cassandra06) + "\n    Sibyl: " + indent(sibyl)
                    + firstDifferentLine(cassandra06, sibyl);
        }
    }

    private final Cassandra.Client cassandra06;
    private final Cassandra.Client sibyl;
    private final List<Difference> differences;
    /** Differences that are 0.6.5's reversed-slice fault ({@link ReversedSliceCheck}), not Sibyl's. */
    private final List<Difference> faultsOf06;
    /** Differences only in how a count is spent on super columns, as docs/differences.md §Reads says ({@link SuperCountCheck}). */
    private final List<Difference> superCounts;
    private final Map<String, int[]> tallies = new LinkedHashMap<>();
    private String round;

    /**
     * Compares the answers of two open clients; differences go into {@code differences}, those that are
     * 0.6.5's reversed-slice fault into {@code faultsOf06}, and those that are only the documented difference in
     * counting super columns into {@code superCounts}.
     */
    AnswerComparison(Cassandra.Client cassandra06, Cassandra.Client sibyl, List<Difference> differences, List<Difference> faultsOf06,
                     List<Difference> superCounts) {
        this.cassandra06 = cassandra06;
        this.sibyl = sibyl;
        this.differences = differences;
        this.faultsOf06 = faultsOf06;
        this.superCounts = superCounts;
    }

    /** Names the differences found from now on (a phase of the run). */
    void round(String name) {
        round = name;
    }

    /**
     * Makes {@code call} through both (0.6 first) and records a difference of their answers.
     *
     * @return 0.6's answer
     * @throws TException when a connection failed (a server died): the run cannot go on
     */
    String compare(ThriftCall call) throws TException {
        String expected = call.answer(cassandra06);
        String actual = call.answer(sibyl);
        tally(call, expected);
        if (expected.equals(actual)) return expected;
        Difference difference = new Difference(round, call.description(), expected, actual);
        boolean refused = expected.startsWith("!") || actual.startsWith("!");
        if (!refused && call.reversedSlice() != null && call.reversedSlice().explains(cassandra06, actual)) {
            faultsOf06.add(difference);
        } else if (!refused && call.superCount() != null && call.superCount().explains(cassandra06, sibyl, expected, actual)) {
            superCounts.add(difference);
        } else {
            differences.add(difference);
        }
        return expected;
    }

    private void tally(ThriftCall call, String answer) {
        String kind = call.description().substring(0, call.description().indexOf('('));
        int[] t = tallies.computeIfAbsent(kind, k -> new int[3]);
        t[0]++;
        if (answer.startsWith("!")) t[1]++;
        else if (answer.equals("[]") || answer.equals("0 rows") || answer.equals("0") || answer.matches("(?s).*-> \\[\\].*|0 keys")) t[2]++;
    }

    /**
     * A whole-ring get_range_slices of {@code f} as a client pages it: each page starts at the last key of the
     * one before. Each page is a call compared; a scan stops at its first difference.
     */
    void scan(Family f, ColumnParent parent, SlicePredicate predicate, int pageSize) throws TException {
        String start = "";
        while (true) {
            KeyRange range = new KeyRange(pageSize).setStart_key(start).setEnd_key("");
            int before = differences.size();
            String answer = compare(RandomReads.rangeSlices(f.keyspace(), parent, predicate, range, ConsistencyLevel.ONE));
            if (differences.size() > before || answer.startsWith("!")) return;
            List<KeySlice> page = cassandra06.get_range_slices(f.keyspace(), parent, predicate, range, ConsistencyLevel.ONE);
            if (page.size() < pageSize) return;
            start = page.get(page.size() - 1).getKey();
        }
    }

    /** Calls, answers with an exception, and empty answers, per kind of call, as one line. */
    String tallies() {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, int[]> e : tallies.entrySet()) {
            int[] t = e.getValue();
            out.append(out.length() > 0 ? "; " : "").append(e.getKey()).append(' ').append(t[0]).append(" (")
                    .append(t[1]).append(" refused, ").append(t[2]).append(" empty)");
        }
        return out.toString();
    }

    private static String indent(String answer) {
        String a = answer.length() > 6000 ? answer.substring(0, 6000) + " ... (" + answer.length() + " chars)" : answer;
        return a.replace("\n", "\n           ");
    }

    private static String firstDifferentLine(String a, String b) {
        String[] x = a.split("\n");
        String[] y = b.split("\n");
        if (x.length == 1 && y.length == 1) return "";
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            String l = i < x.length ? x[i] : "(none)";
            String r = i < y.length ? y[i] : "(none)";
            if (!l.equals(r)) return "\n    first different line " + (i + 1) + ":\n      0.6:   " + l + "\n      Sibyl: " + r;
        }
        return "";
    }

    /** The differences: how many in each round, and the first {@code perRound} of each round in full. */
    static String report(List<Difference> differences, int perRound) {
        StringBuilder out = new StringBuilder();
        Map<String, List<Difference>> byRound = new LinkedHashMap<>();
        for (Difference d : differences) byRound.computeIfAbsent(d.round(), r -> new ArrayList<>()).add(d);
        out.append(differences.size()).append(" difference(s):");
        for (Map.Entry<String, List<Difference>> round : byRound.entrySet()) {
            out.append(" ").append(round.getValue().size()).append(" ").append(round.getKey()).append(';');
        }
        out.append('\n');
        for (List<Difference> round : byRound.values()) {
            for (Difference d : round.subList(0, Math.min(perRound, round.size()))) out.append(d).append("\n\n");
        }
        return out.toString();
    }
}
