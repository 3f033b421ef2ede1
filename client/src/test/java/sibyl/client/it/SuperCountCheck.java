package sibyl.client.it;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;
import org.apache.thrift.TException;

/**
 * Tells the documented difference in how a slice's count is spent on super columns (docs/differences.md §Reads)
 * apart from any other. Sibyl counts the super columns it returns. 0.6 (SliceQueryFilter.collectReducedColumns)
 * counted a super column without a tombstone of its own whose subcolumns were all deleted, and then left it out
 * (so it returns fewer), and did not count one carrying a tombstone even when newer subcolumns were live (so it
 * returns more). Either way 0.6's answer is a prefix of the whole slice, only of another length.
 *
 * <p>It applies to a slice with a count over the rows of a super column family (no super column in the parent).
 * When the answers differ, the same call with the count raised past any row of the test must be answered alike by
 * both: then the difference is accepted only if the rows of both answers have the same keys in the same order as
 * that whole answer, each row of Sibyl's is the first {@code count} super columns of the whole row (or all of it),
 * and each row of 0.6's is a prefix of the whole row of any length. Anything else is a difference.
 */
final class SuperCountCheck {
    /** A count no row of the test reaches (the whole-ring scans ask for as many): both servers answer the whole slice. */
    private static final int ALL = 1_000_000;

    private final SliceRows rows;
    private final SlicePredicate predicate;

    private SuperCountCheck(SliceRows rows, SlicePredicate predicate) {
        this.rows = rows;
        this.predicate = predicate;
    }

    /**
     * A check for a call of {@code keyspace} with {@code parent} and {@code predicate}, or null when the call is no
     * slice with a count over the rows of a super column family.
     */
    static SuperCountCheck of(String keyspace, ColumnParent parent, SlicePredicate predicate, SliceRows rows) {
        if (!predicate.isSetSlice_range() || predicate.isSetColumn_names() || parent.isSetSuper_column()) return null;
        boolean superFamily = DifferentialSchema.FAMILIES.stream()
                .anyMatch(f -> f.isSuper() && f.keyspace().equals(keyspace) && f.name().equals(parent.getColumn_family()));
        return superFamily ? new SuperCountCheck(rows, predicate) : null;
    }

    /**
     * Whether the answers {@code answer06} and {@code sibylAnswer}, which differ, differ only as 0.6's way of
     * counting super columns makes them differ.
     */
    boolean explains(Cassandra.Client cassandra06, Cassandra.Client sibyl, String answer06, String sibylAnswer) throws TException {
        // the rows themselves, read again: they must be what was compared (nothing is written while reads are compared)
        LinkedHashMap<String, List<ColumnOrSuperColumn>> rows06 = rows.read(cassandra06, predicate);
        LinkedHashMap<String, List<ColumnOrSuperColumn>> sibylRows = rows.read(sibyl, predicate);
        if (!rows.render(rows06).equals(answer06) || !rows.render(sibylRows).equals(sibylAnswer)) return false;

        SlicePredicate whole = whole();
        LinkedHashMap<String, List<ColumnOrSuperColumn>> whole06 = rows.read(cassandra06, whole);
        if (!rows.render(whole06).equals(rows.render(rows.read(sibyl, whole)))) return false;
        if (!new ArrayList<>(rows06.keySet()).equals(new ArrayList<>(whole06.keySet()))) return false;
        if (!new ArrayList<>(sibylRows.keySet()).equals(new ArrayList<>(whole06.keySet()))) return false;

        int count = predicate.getSlice_range().getCount();
        for (Map.Entry<String, List<ColumnOrSuperColumn>> row : whole06.entrySet()) {
            List<String> wholeRow = cells(row.getValue());
            List<String> sibylRow = cells(sibylRows.get(row.getKey()));
            List<String> row06 = cells(rows06.get(row.getKey()));
            if (!sibylRow.equals(wholeRow.subList(0, Math.min(count, wholeRow.size())))) return false;
            if (row06.size() > wholeRow.size() || !row06.equals(wholeRow.subList(0, row06.size()))) return false;
        }
        return true;
    }

    /** The call's predicate with the count raised to {@link #ALL}. */
    private SlicePredicate whole() {
        SliceRange range = predicate.getSlice_range().deepCopy();
        range.setCount(ALL);
        return new SlicePredicate().setSlice_range(range);
    }

    /** Each super column (name, subcolumns, values, timestamps) as the answers write it, so equal ones compare equal. */
    private static List<String> cells(List<ColumnOrSuperColumn> row) {
        List<String> out = new ArrayList<>();
        for (ColumnOrSuperColumn cell : row) out.add(ThriftCall.cell(cell));
        return out;
    }
}
