package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static sibyl.db.TestSchema.KS;
import static sibyl.db.TestSchema.LONGS;
import static sibyl.db.TestSchema.STD;
import static sibyl.db.TestSchema.SUPER;
import static sibyl.db.TestSchema.b;
import static sibyl.db.TestSchema.l;
import static sibyl.db.TestSchema.m;
import static sibyl.db.TestSchema.names;
import static sibyl.db.TestSchema.shape;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnSelection;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.TestSchema;
import sibyl.dht.OrderPreservingPartitioner;

class SliceTest {
    private static final byte[] E = {};
    private final LocalStorageService db = TestStores.service(new OrderPreservingPartitioner());

    @BeforeEach
    void fill() {
        RowMutation.Builder w = m("k");
        for (String n : List.of("a", "b", "c", "d", "e", "f", "g")) w.write(STD, b(n), b("v" + n), 1);
        db.apply(w.build());
    }

    private List<String> slice(byte[] start, byte[] finish, boolean reversed, int count) {
        return names(db.getSlice(KS, "k", QueryPath.cf(STD), ColumnSelection.range(start, finish, reversed, count)));
    }

    @Test
    void forwardSlicesAreInclusiveAndEmptyBoundsAreOpen() {
        assertEquals(List.of("a", "b", "c", "d", "e", "f", "g"), slice(E, E, false, 100));
        assertEquals(List.of("b", "c", "d"), slice(b("b"), b("d"), false, 100));
        assertEquals(List.of("c", "d", "e", "f", "g"), slice(b("c"), E, false, 100));
        assertEquals(List.of("a", "b"), slice(E, b("b"), false, 100));
        assertEquals(List.of("c", "d", "e", "f", "g"), slice(b("bb"), E, false, 100));
        assertEquals(List.of(), slice(b("h"), E, false, 100));
    }

    @Test
    void reversedSlicesRunDownFromStartToFinish() {
        assertEquals(List.of("g", "f", "e", "d", "c", "b", "a"), slice(E, E, true, 100));
        assertEquals(List.of("d", "c", "b"), slice(b("d"), b("b"), true, 100));
        assertEquals(List.of("g", "f"), slice(E, E, true, 2));
        assertEquals(List.of("c", "b", "a"), slice(b("cc"), E, true, 100));
        assertEquals(List.of("g", "f", "e"), slice(E, b("e"), true, 100));
    }

    @Test
    void countCountsOnlyLiveColumns() {
        db.apply(m("k").deleteColumn(STD, b("b"), 2).deleteColumn(STD, b("c"), 2).build());
        assertEquals(List.of("a", "d", "e"), slice(E, E, false, 3));
        assertEquals(List.of("g", "f", "e", "d", "a"), slice(E, E, true, 5));
        assertEquals(List.of(), slice(E, E, false, 0));
    }

    @Test
    void namesAreCollapsedAndReturnedInComparatorOrder() {
        List<Cell> r = db.getSlice(KS, "k", QueryPath.cf(STD),
                ColumnSelection.names(b("f"), b("a"), b("zz"), b("f"), b("c")));
        assertEquals(List.of("a", "c", "f"), names(r));
        assertEquals(List.of(), db.getSlice(KS, "k", QueryPath.cf(STD), ColumnSelection.names(List.of())));
        assertEquals(List.of(), db.getSlice(KS, "nobody", QueryPath.cf(STD), ColumnSelection.all()));
    }

    @Test
    void longComparatorOrdersNegativeNumbersFirst() {
        RowMutation.Builder w = m("k");
        for (long v : new long[] {5, -1, 0, Long.MIN_VALUE, 300, -300}) w.write(LONGS, l(v), b("v"), 1);
        db.apply(w.build());
        List<Long> got = new ArrayList<>();
        for (Cell c : db.getSlice(KS, "k", QueryPath.cf(LONGS), ColumnSelection.all())) {
            got.add(ByteBuffer.wrap(c.name()).getLong());
        }
        assertEquals(List.of(Long.MIN_VALUE, -300L, -1L, 0L, 5L, 300L), got);
        List<Cell> r = db.getSlice(KS, "k", QueryPath.cf(LONGS), ColumnSelection.range(l(-1), l(5), false, 10));
        assertEquals(3, r.size());
    }

    @Test
    void superColumnSlicesCountSuperColumnsAndCarryAllLiveSubcolumns() {
        RowMutation.Builder w = m("k");
        for (String sc : List.of("s1", "s2", "s3", "s4")) {
            for (String sub : List.of("x", "y", "z")) w.write(SUPER, b(sc), b(sub), b("v"), 1);
        }
        db.apply(w.build());
        db.apply(m("k").deleteSubcolumn(SUPER, b("s2"), b("y"), 2)
                .deleteSubcolumn(SUPER, b("s3"), b("x"), 2).deleteSubcolumn(SUPER, b("s3"), b("y"), 2)
                .deleteSubcolumn(SUPER, b("s3"), b("z"), 2).build());
        assertEquals(List.of("s1:[x, y, z]", "s2:[x, z]", "s4:[x, y, z]"),
                shape(db.getSlice(KS, "k", QueryPath.cf(SUPER), ColumnSelection.range(E, E, false, 3))));
        // Reversed at the top level; subcolumns keep their natural order.
        assertEquals(List.of("s4:[x, y, z]", "s2:[x, z]"),
                shape(db.getSlice(KS, "k", QueryPath.cf(SUPER), ColumnSelection.range(E, E, true, 2))));
        assertEquals(List.of("z", "x"), names(db.getSlice(KS, "k", QueryPath.superColumn(SUPER, b("s2")),
                ColumnSelection.range(E, E, true, 10))));
        assertEquals(List.of("y"), names(db.getSlice(KS, "k", QueryPath.superColumn(SUPER, b("s1")),
                ColumnSelection.range(b("y"), b("y"), false, 10))));
        assertEquals(List.of(), db.getSlice(KS, "k", QueryPath.superColumn(SUPER, b("nope")), ColumnSelection.all()));
        assertEquals(List.of("s4:[x, y, z]"),
                shape(db.getSlice(KS, "k", QueryPath.cf(SUPER), ColumnSelection.names(b("s4"), b("s3")))));
    }

    @Test
    void getFindsColumnsSubcolumnsAndSuperColumns() {
        db.apply(m("k").write(SUPER, b("sc"), b("x"), b("1"), 1).build());
        assertEquals("vc", TestSchema.s(((Column) db.get(KS, "k", QueryPath.column(STD, b("c"))).orElseThrow()).value()));
        assertEquals("1", TestSchema.s(((Column) db.get(KS, "k",
                QueryPath.subcolumn(SUPER, b("sc"), b("x"))).orElseThrow()).value()));
        assertEquals(List.of("sc:[x]"), shape(List.of(db.get(KS, "k", QueryPath.superColumn(SUPER, b("sc"))).orElseThrow())));
        assertEquals(true, db.get(KS, "k", QueryPath.column(STD, b("zz"))).isEmpty());
        assertEquals(true, db.get(KS, "nobody", QueryPath.column(STD, b("a"))).isEmpty());
        assertEquals(true, db.get(KS, "k", QueryPath.subcolumn(SUPER, b("sc"), b("nope"))).isEmpty());
    }
}
