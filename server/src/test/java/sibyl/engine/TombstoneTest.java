package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.db.TestSchema.KS;
import static sibyl.db.TestSchema.STD;
import static sibyl.db.TestSchema.STD2;
import static sibyl.db.TestSchema.SUPER;
import static sibyl.db.TestSchema.b;
import static sibyl.db.TestSchema.m;
import static sibyl.db.TestSchema.names;
import static sibyl.db.TestSchema.shape;

import java.util.List;
import org.junit.jupiter.api.Test;
import sibyl.db.Column;
import sibyl.db.ColumnSelection;
import sibyl.db.QueryPath;
import sibyl.db.TestSchema;
import sibyl.dht.RandomPartitioner;

class TombstoneTest {
    private final LocalStorageService db = TestStores.service(new RandomPartitioner());

    private List<String> std(String key) {
        return names(db.getSlice(KS, key, QueryPath.cf(STD), ColumnSelection.all()));
    }

    private List<String> sup(String key) {
        return shape(db.getSlice(KS, key, QueryPath.cf(SUPER), ColumnSelection.all()));
    }

    @Test
    void columnTombstoneHidesEqualAndOlderWritesUntilANewerOne() {
        db.apply(m("k").write(STD, b("c"), b("v"), 5).build());
        db.apply(m("k").deleteColumn(STD, b("c"), 5).build());
        assertTrue(db.get(KS, "k", QueryPath.column(STD, b("c"))).isEmpty());
        db.apply(m("k").write(STD, b("c"), b("v"), 5).build());
        assertEquals(List.of(), std("k"));
        db.apply(m("k").write(STD, b("c"), b("v2"), 6).build());
        assertEquals("v2", TestSchema.s(((Column) db.get(KS, "k", QueryPath.column(STD, b("c"))).orElseThrow()).value()));
    }

    @Test
    void rowTombstoneHidesColumnsWrittenAtOrBeforeIt() {
        db.apply(m("k").write(STD, b("old"), b("v"), 1).write(STD, b("new"), b("v"), 10)
                .write(STD2, b("other"), b("v"), 1).build());
        db.apply(m("k").deleteRow(STD, 5).build());
        assertEquals(List.of("new"), std("k"));
        db.apply(m("k").write(STD, b("old"), b("v"), 5).build());
        assertEquals(List.of("new"), std("k"));
        db.apply(m("k").write(STD, b("old"), b("v"), 6).build());
        assertEquals(List.of("new", "old"), std("k"));
        // Row deletion is per column family.
        assertEquals(1, db.getCount(KS, "k", QueryPath.cf(STD2)));
    }

    @Test
    void severalDeletesKeepTheNewest() {
        db.apply(m("k").deleteRow(STD, 10).build());
        db.apply(m("k").deleteRow(STD, 5).build());
        db.apply(m("k").write(STD, b("c"), b("v"), 7).build());
        assertEquals(List.of(), std("k"));
        db.apply(m("k").deleteSuperColumn(SUPER, b("sc"), 10).deleteSuperColumn(SUPER, b("sc"), 2).build());
        db.apply(m("k").write(SUPER, b("sc"), b("x"), b("v"), 9).build());
        assertEquals(List.of(), sup("k"));
    }

    @Test
    void superColumnTombstoneHidesOlderSubcolumnsAndNewerOnesResurrect() {
        db.apply(m("k").write(SUPER, b("sc"), b("a"), b("v"), 1).write(SUPER, b("sc"), b("b"), b("v"), 10).build());
        db.apply(m("k").deleteSuperColumn(SUPER, b("sc"), 5).build());
        assertEquals(List.of("sc:[b]"), sup("k"));
        assertTrue(db.get(KS, "k", QueryPath.subcolumn(SUPER, b("sc"), b("a"))).isEmpty());
        db.apply(m("k").write(SUPER, b("sc"), b("a"), b("v"), 3).build());
        assertEquals(List.of("sc:[b]"), sup("k"));
        db.apply(m("k").write(SUPER, b("sc"), b("a"), b("v"), 6).build());
        assertEquals(List.of("sc:[a, b]"), sup("k"));
    }

    @Test
    void subcolumnsAreHiddenByTheLaterOfRowAndSuperColumnTombstones() {
        db.apply(m("k").write(SUPER, b("s1"), b("a"), b("v"), 4).write(SUPER, b("s1"), b("b"), b("v"), 8)
                .write(SUPER, b("s2"), b("a"), b("v"), 6).build());
        db.apply(m("k").deleteSuperColumn(SUPER, b("s1"), 3).deleteRow(SUPER, 5).build());
        assertEquals(List.of("s1:[b]", "s2:[a]"), sup("k"));
        db.apply(m("k").deleteSuperColumn(SUPER, b("s2"), 7).build());
        assertEquals(List.of("s1:[b]"), sup("k"));
    }

    @Test
    void superColumnWithoutLiveSubcolumnsIsInvisible() {
        db.apply(m("k").write(SUPER, b("s1"), b("a"), b("v"), 1).write(SUPER, b("s2"), b("a"), b("v"), 1).build());
        db.apply(m("k").deleteSubcolumn(SUPER, b("s1"), b("a"), 2).build());
        assertEquals(List.of("s2:[a]"), sup("k"));
        assertTrue(db.get(KS, "k", QueryPath.superColumn(SUPER, b("s1"))).isEmpty());
        assertFalse(db.get(KS, "k", QueryPath.superColumn(SUPER, b("s2"))).isEmpty());
        assertEquals(1, db.getCount(KS, "k", QueryPath.cf(SUPER)));
        assertEquals(0, db.getCount(KS, "k", QueryPath.superColumn(SUPER, b("s1"))));
        assertEquals(List.of(), db.getSlice(KS, "k", QueryPath.cf(SUPER), ColumnSelection.names(b("s1"))));
    }

    @Test
    void deletedThenRepopulatedSuperColumnShowsOnlyNewerSubcolumns() {
        db.apply(m("k").write(SUPER, b("sc"), b("a"), b("v"), 1).build());
        db.apply(m("k").deleteSuperColumn(SUPER, b("sc"), 2).build());
        db.apply(m("k").write(SUPER, b("sc"), b("b"), b("v"), 3).build());
        assertEquals(List.of("sc:[b]"), shape(List.of(db.get(KS, "k", QueryPath.superColumn(SUPER, b("sc"))).orElseThrow())));
    }

    @Test
    void getCountsLikeTheSystemTests() {
        db.apply(m("k").write(STD, b("c1"), b("v"), 1).write(STD, b("c2"), b("v"), 1)
                .write(SUPER, b("sc1"), b("x"), b("v"), 1).write(SUPER, b("sc1"), b("y"), b("v"), 1)
                .write(SUPER, b("sc2"), b("x"), b("v"), 1).build());
        assertEquals(2, db.getCount(KS, "k", QueryPath.cf(STD)));
        assertEquals(2, db.getCount(KS, "k", QueryPath.superColumn(SUPER, b("sc1"))));
        assertEquals(2, db.getCount(KS, "k", QueryPath.cf(SUPER)));
        assertEquals(0, db.getCount(KS, "nobody", QueryPath.cf(STD)));
    }
}
