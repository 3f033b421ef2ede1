package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static sibyl.db.TestSchema.KS;
import static sibyl.db.TestSchema.STD;
import static sibyl.db.TestSchema.SUPER;
import static sibyl.db.TestSchema.b;
import static sibyl.db.TestSchema.m;
import static sibyl.db.TestSchema.names;
import static sibyl.db.TestSchema.shape;

import java.util.List;
import org.junit.jupiter.api.Test;
import sibyl.db.ColumnSelection;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowRange;
import sibyl.db.TestSchema;
import sibyl.dht.RandomPartitioner;

class SliceDeletionTest {
    private static final byte[] E = {};
    private final LocalStorageService db = TestStores.service(new RandomPartitioner());

    private void fillStd(long ts, String... cols) {
        RowMutation.Builder w = m("k");
        for (String c : cols) w.write(STD, b(c), b("v"), ts);
        db.apply(w.build());
    }

    private List<String> std() {
        return names(db.getSlice(KS, "k", QueryPath.cf(STD), ColumnSelection.all()));
    }

    @Test
    void deletesTheLiveColumnsOfTheRangeAtTheGivenTimestamp() {
        fillStd(1, "a", "b", "c", "d", "e");
        fillStd(9, "c");
        db.apply(m("k").deleteSlice(STD, null, ColumnSelection.range(b("b"), b("d"), false, 100), 5).build());
        // c was written after the deletion's timestamp, so its tombstone loses.
        assertEquals(List.of("a", "c", "e"), std());
        fillStd(4, "b");
        assertEquals(List.of("a", "c", "e"), std());
        fillStd(6, "b");
        assertEquals(List.of("a", "b", "c", "e"), std());
    }

    @Test
    void countLimitsWhatIsDeletedInTraversalOrder() {
        fillStd(1, "a", "b", "c", "d", "e");
        db.apply(m("k").deleteColumn(STD, b("a"), 1).build());
        db.apply(m("k").deleteSlice(STD, null, ColumnSelection.range(E, E, false, 2), 2).build());
        assertEquals(List.of("d", "e"), std());
        db.apply(m("k").deleteSlice(STD, null, ColumnSelection.range(E, E, true, 1), 2).build());
        assertEquals(List.of("d"), std());
    }

    @Test
    void columnsAddedByTheSameMutationAreSelectedWhateverTheOrder() {
        fillStd(1, "a");
        db.apply(m("k").deleteSlice(STD, null, ColumnSelection.all(), 5).write(STD, b("b"), b("v"), 3)
                .write(STD, b("z"), b("v"), 7).build());
        assertEquals(List.of("z"), std());
    }

    @Test
    void atTheTopOfASuperColumnFamilyWholeSuperColumnsAreDeleted() {
        db.apply(m("k").write(SUPER, b("s1"), b("x"), b("v"), 1).write(SUPER, b("s2"), b("x"), b("v"), 1)
                .write(SUPER, b("s3"), b("x"), b("v"), 1).build());
        db.apply(m("k").deleteSlice(SUPER, null, ColumnSelection.range(b("s2"), E, false, 100), 2).build());
        assertEquals(List.of("s1:[x]"), shape(db.getSlice(KS, "k", QueryPath.cf(SUPER), ColumnSelection.all())));
        // A super column tombstone: subcolumns written later than it show again.
        db.apply(m("k").write(SUPER, b("s2"), b("y"), b("v"), 3).write(SUPER, b("s3"), b("x"), b("v"), 2).build());
        assertEquals(List.of("s1:[x]", "s2:[y]"),
                shape(db.getSlice(KS, "k", QueryPath.cf(SUPER), ColumnSelection.all())));
    }

    @Test
    void insideASuperColumnSubcolumnsAreDeleted() {
        db.apply(m("k").write(SUPER, b("sc"), b("a"), b("v"), 1).write(SUPER, b("sc"), b("b"), b("v"), 1)
                .write(SUPER, b("sc"), b("c"), b("v"), 1).build());
        db.apply(m("k").deleteSlice(SUPER, b("sc"), ColumnSelection.range(b("b"), E, false, 100), 2).build());
        assertEquals(List.of("a"), names(db.getSlice(KS, "k", QueryPath.superColumn(SUPER, b("sc")), ColumnSelection.all())));
    }

    @Test
    void aSliceDeletionThatSelectsNothingLeavesNoRangeGhost() {
        db.apply(m("k").deleteSlice(STD, null, ColumnSelection.all(), 5).build());
        assertEquals(List.of(), db.getRangeSlice(KS, QueryPath.cf(STD), ColumnSelection.all(), RowRange.keys("", ""), 10));
    }
}
