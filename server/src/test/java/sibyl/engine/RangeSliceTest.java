package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.db.TestSchema.KS;
import static sibyl.db.TestSchema.STD;
import static sibyl.db.TestSchema.STD2;
import static sibyl.db.TestSchema.SUPER;
import static sibyl.db.TestSchema.b;
import static sibyl.db.TestSchema.keys;
import static sibyl.db.TestSchema.m;
import static sibyl.db.TestSchema.names;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import sibyl.db.ColumnSelection;
import sibyl.db.QueryPath;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.db.TestSchema;
import sibyl.dht.CollatingOrderPreservingPartitioner;
import sibyl.dht.OrderPreservingPartitioner;
import sibyl.dht.Partitioner;
import sibyl.dht.RandomPartitioner;

class RangeSliceTest {
    private static final ColumnSelection ALL = ColumnSelection.all();

    private static LocalStorageService withKeys(Partitioner p, String... keys) {
        LocalStorageService db = TestStores.service(p);
        for (String k : keys) db.apply(m(k).write(STD, b("c"), b(k), 1).build());
        return db;
    }

    private static List<String> scan(LocalStorageService db, RowRange range, int count) {
        return keys(db.getRangeSlice(KS, QueryPath.cf(STD), ALL, range, count));
    }

    @Test
    void keyBoundsAreInclusiveAndAnEmptyEndIsOpen() {
        LocalStorageService db = withKeys(new OrderPreservingPartitioner(), "e", "a", "c", "b", "d");
        assertEquals(List.of("b", "c", "d"), scan(db, RowRange.keys("b", "d"), 100));
        assertEquals(List.of("a", "b", "c", "d", "e"), scan(db, RowRange.keys("", ""), 100));
        assertEquals(List.of("c", "d", "e"), scan(db, RowRange.keys("c", ""), 100));
        assertEquals(List.of("a", "b"), scan(db, RowRange.keys("", "bb"), 100));
        assertEquals(List.of("a", "b"), scan(db, RowRange.keys("", ""), 2));
        assertEquals(List.of("c"), scan(db, RowRange.keys("c", "c"), 100));
    }

    @Test
    void tokenRangesExcludeStartAndWrap() {
        OrderPreservingPartitioner p = new OrderPreservingPartitioner();
        LocalStorageService db = withKeys(p, "a", "b", "c", "d", "e");
        assertEquals(List.of("c", "d"), scan(db, RowRange.tokens(p.getToken("b"), p.getToken("d")), 100));
        assertEquals(List.of("e", "a", "b"), scan(db, RowRange.tokens(p.getToken("d"), p.getToken("b")), 100));
        // start == end: the whole ring, beginning just after start (the 0.6 system test).
        assertEquals(List.of("d", "e", "a", "b", "c"), scan(db, RowRange.tokens(p.getToken("c"), p.getToken("c")), 100));
        assertEquals(List.of("d", "e", "a"), scan(db, RowRange.tokens(p.getToken("c"), p.getToken("c")), 3));
        assertEquals(List.of("a", "b", "c", "d", "e"),
                scan(db, RowRange.tokens(p.getMinimumToken(), p.getMinimumToken()), 100));
    }

    @Test
    void deletedRowsAndUnselectedRowsAppearAsEmptyRows() {
        LocalStorageService db = withKeys(new OrderPreservingPartitioner(), "a", "b", "c");
        db.apply(m("b").deleteRow(STD, 5).build());
        db.apply(m("c").write(STD, b("other"), b("v"), 1).build());
        db.apply(m("only-in-std2").write(STD2, b("c"), b("v"), 1).build());
        List<RowSlice> rows = db.getRangeSlice(KS, QueryPath.cf(STD), ColumnSelection.names(b("c")),
                RowRange.keys("", ""), 100);
        assertEquals(List.of("a", "b", "c"), keys(rows));
        assertEquals(List.of("c"), names(rows.get(0).cells()));
        assertEquals(List.of(), rows.get(1).cells());
        assertEquals(List.of("c"), names(rows.get(2).cells()));
        List<RowSlice> none = db.getRangeSlice(KS, QueryPath.cf(STD), ColumnSelection.names(b("zz")),
                RowRange.keys("", ""), 2);
        assertEquals(List.of("a", "b"), keys(none));
        assertTrue(none.get(0).cells().isEmpty());
    }

    @Test
    void randomPartitionerReturnsRowsInTokenOrder() {
        RandomPartitioner p = new RandomPartitioner();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 50; i++) keys.add("key" + i);
        LocalStorageService db = withKeys(p, keys.toArray(new String[0]));
        keys.sort(Comparator.comparing(p::getToken));
        assertEquals(keys, scan(db, RowRange.keys("", ""), 1000));
        assertEquals(keys.subList(10, 21), scan(db, RowRange.keys(keys.get(10), keys.get(20)), 1000));
        List<String> wrapped = new ArrayList<>(keys.subList(31, 50));
        wrapped.addAll(keys.subList(0, 6));
        assertEquals(wrapped, scan(db, RowRange.tokens(p.getToken(keys.get(30)), p.getToken(keys.get(5))), 1000));
    }

    @Test
    void collatingPartitionerUsesDictionaryOrder() {
        LocalStorageService db = withKeys(new CollatingOrderPreservingPartitioner(), "-b", "b", "10", "9", "a", "-a", "1");
        assertEquals(List.of("1", "10", "9", "a", "-a", "b", "-b"), scan(db, RowRange.keys("", ""), 100));
        assertEquals(List.of("a", "-a", "b"), scan(db, RowRange.keys("a", "b"), 100));
    }

    @Test
    void superColumnParentSelectsSubcolumnsPerRow() {
        LocalStorageService db = TestStores.service(new OrderPreservingPartitioner());
        db.apply(m("a").write(SUPER, b("sc"), b("x"), b("v"), 1).write(SUPER, b("sc"), b("y"), b("v"), 1).build());
        db.apply(m("b").write(SUPER, b("other"), b("x"), b("v"), 1).build());
        List<RowSlice> rows = db.getRangeSlice(KS, QueryPath.superColumn(SUPER, b("sc")),
                ColumnSelection.range(new byte[0], new byte[0], true, 10), RowRange.keys("", ""), 10);
        assertEquals(List.of("a", "b"), keys(rows));
        assertEquals(List.of("y", "x"), names(rows.get(0).cells()));
        assertEquals(List.of(), rows.get(1).cells());
    }
}
