package sibyl.client.it;

import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.thrift.TException;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;

/**
 * The same 0.7+ calls made through a reference server (a real Cassandra 3.11) and through the server under test,
 * one after the other, every difference of their answers kept with the call and both answers. Also counts what the
 * calls answered, so that a run shows it compared data and refusals, not only empty answers.
 */
final class V20Comparison {
    /** A call the two servers answered differently. */
    record Difference(String round, String call, String reference, String subject) {
    }

    private final V20Server reference;
    private final V20Server subject;
    /** Every call in order with its answer, or both answers where they differ: how the data came to differ. */
    private final PrintWriter journal;
    private final List<Difference> differences = new ArrayList<>();
    /** Differences docs/differences.md documents, each shown to be one by {@link #known}. */
    private final List<Difference> setApart = new ArrayList<>();
    /** What the writes both servers took did. */
    private final Diff07Ledger ledger = new Diff07Ledger();
    /** Recognises documented differences; null when none is set apart (3.11 compared with itself). */
    private final Diff07KnownDifferences known;
    /** Per kind of call: calls, refusals, empty answers. */
    private final Map<String, int[]> tallies = new LinkedHashMap<>();
    private String round = "start";

    /** {@code documented}: whether differences docs/differences.md documents are set apart from the others. */
    V20Comparison(V20Server reference, V20Server subject, PrintWriter journal, boolean documented) {
        this(reference, subject, journal, documented, false);
    }

    /** @param cluster whether Sibyl stores in a cluster, whose documented differences are set apart too */
    V20Comparison(V20Server reference, V20Server subject, PrintWriter journal, boolean documented, boolean cluster) {
        this.reference = reference;
        this.subject = subject;
        this.journal = journal;
        this.known = !documented ? null : new Diff07KnownDifferences(ledger, cluster ? this::emptyIn311 : null);
    }

    /**
     * Whether 3.11 answers the whole row empty: a slice of it shows nothing live (its get_count may still count a
     * super column whose subcolumns are all deleted).
     */
    private boolean emptyIn311(String family, ByteBuffer key) {
        try {
            return reference.client().get_slice(key, new ColumnParent(family), new SlicePredicate().setSlice_range(
                    new SliceRange(ByteBuffer.allocate(0), ByteBuffer.allocate(0), false, 1)), ConsistencyLevel.ONE)
                    .isEmpty();
        } catch (TException e) {
            return false;
        }
    }

    /** Names the differences found from now on (a phase of the run). */
    void round(String name) {
        round = name;
        journal.println("==== " + name);
    }

    /**
     * Makes {@code call} through both (the reference first) and records a difference of their answers.
     *
     * @return the reference's answer
     * @throws TException when a server cannot be reached any more: the run cannot go on
     */
    String compare(V20Call call) throws TException {
        String expected = call.answer(reference);
        String actual = sameKeyspace(call.answer(subject));
        journal.println(call.description());
        if (expected.equals(actual)) {
            journal.println("  = " + expected.replace("\n", "\n    "));
            if (expected.equals(V20Call.DONE)) ledger.took(call.shape().effects());
        } else {
            Optional<String> documented = known == null ? Optional.empty() : known.explain(call, expected, actual);
            Difference d = new Difference(round, call.description() + documented.map(why -> " [documented: " + why + "]").orElse(""),
                    expected, actual);
            (documented.isPresent() ? setApart : differences).add(d);
            journal.println((documented.isPresent() ? "  SET APART, documented: " + documented.get() : "  DIFFERENT") + "\n  "
                    + reference.name() + ": " + expected.replace("\n", "\n    ") + "\n  " + subject.name()
                    + ": " + actual.replace("\n", "\n    "));
        }
        count(call.description().split("[( ]", 2)[0], expected);
        return expected;
    }

    private void count(String kind, String answer) {
        int[] tally = tallies.computeIfAbsent(kind, k -> new int[3]);
        tally[0]++;
        if (answer.startsWith("!")) tally[1]++;
        if (List.of("[]", "0 rows", "0 keys", "0").contains(answer)) tally[2]++;
    }

    /**
     * The subject's answer with its keyspace named as the reference's: they differ only when 3.11 is compared with a
     * second keyspace of itself, and some of its messages name the keyspace.
     */
    private String sameKeyspace(String answer) {
        if (subject.keyspace().equals(reference.keyspace())) return answer;
        return answer.replace("KeySpace=" + subject.keyspace() + " ", "KeySpace=" + reference.keyspace() + " ");
    }

    List<Difference> differences() {
        return List.copyOf(differences);
    }

    /** The differences set apart as documented ones, each with its reason. */
    List<Difference> setApart() {
        return List.copyOf(setApart);
    }

    /** Calls, refusals and empty answers per kind of call, as one line. */
    String tallies() {
        List<String> parts = new ArrayList<>();
        tallies.forEach((kind, t) -> parts.add(kind + " " + t[0] + " (" + t[1] + " refused, " + t[2] + " empty)"));
        return String.join("; ", parts);
    }

    /** The differences grouped by round, each with its call and both answers: the first {@code perRound} of each. */
    String report(int perRound) {
        return report(differences, " difference(s) between ", perRound);
    }

    /** The documented differences set apart, as {@link #report(int)} lists differences. */
    String setApartReport(int perRound) {
        return report(setApart, " documented difference(s) set apart between ", perRound);
    }

    private String report(List<Difference> found, String what, int perRound) {
        Map<String, List<Difference>> byRound = new LinkedHashMap<>();
        for (Difference d : found) byRound.computeIfAbsent(d.round(), r -> new ArrayList<>()).add(d);
        StringBuilder out = new StringBuilder().append(found.size()).append(what)
                .append(reference.name()).append(" and ").append(subject.name()).append('\n');
        byRound.forEach((name, list) -> {
            out.append("== ").append(name).append(": ").append(list.size())
                    .append(list.size() > perRound ? " (the first " + perRound + " shown)" : "").append('\n');
            for (Difference d : list.subList(0, Math.min(perRound, list.size()))) {
                out.append("- ").append(d.call()).append('\n')
                        .append("    ").append(reference.name()).append(": ").append(indented(d.reference())).append('\n')
                        .append("    ").append(subject.name()).append(": ").append(indented(d.subject())).append('\n');
            }
        });
        return out.toString();
    }

    private static String indented(String answer) {
        String a = answer.length() > 3000 ? answer.substring(0, 3000) + " ... (" + answer.length() + " chars)" : answer;
        return a.replace("\n", "\n        ");
    }
}
