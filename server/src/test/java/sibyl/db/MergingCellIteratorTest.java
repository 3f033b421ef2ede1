package sibyl.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;
import sibyl.db.marshal.BytesType;

/** Cells of one row from several sources merged into one sequence in the read's order, versions reconciled. */
class MergingCellIteratorTest {
    private static final CFMetaData STD = CFMetaData.standard("Keyspace1", "Standard1", BytesType.instance);
    private static final CFMetaData SUPER = CFMetaData.ofSuper("Keyspace1", "Super1", BytesType.instance,
            BytesType.instance);

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static ColumnFamily row(Cell... cells) {
        ColumnFamily.Builder row = ColumnFamily.builder(cells.length > 0 && cells[0] instanceof SuperColumn ? SUPER : STD,
                cells.length);
        for (Cell c : cells) row.add(c);
        return row.build();
    }

    private static List<String> render(Iterator<Cell> cells) {
        List<String> out = new ArrayList<>();
        cells.forEachRemaining(c -> out.add(c.toString()));
        return out;
    }

    @Test
    void namesComeOnceInOrderWithTheWinningVersion() {
        ColumnFamily older = row(Column.live(b("a"), b("1"), 1), Column.live(b("c"), b("1"), 1), Column.live(b("e"), b("1"), 1));
        ColumnFamily newer = row(Column.live(b("b"), b("2"), 2), Column.tombstone(b("c"), 2, 0), Column.live(b("e"), b("2"), 2));
        Iterator<Cell> merged = new MergingCellIterator(BytesType.instance,
                List.of(RowCells.all(older), RowCells.all(newer)));
        assertEquals(List.of(Column.live(b("a"), b("1"), 1).toString(), Column.live(b("b"), b("2"), 2).toString(),
                Column.tombstone(b("c"), 2, 0).toString(), Column.live(b("e"), b("2"), 2).toString()), render(merged));
    }

    @Test
    void reversedFollowsTheReversedComparatorFromTheStart() {
        ColumnFamily one = row(Column.live(b("a"), b("1"), 1), Column.live(b("d"), b("1"), 1));
        ColumnFamily two = row(Column.live(b("b"), b("2"), 2), Column.live(b("c"), b("2"), 2));
        Iterator<Cell> merged = new MergingCellIterator(BytesType.instance.reversed(),
                List.of(RowCells.from(one, b("c"), true), RowCells.from(two, b("c"), true)));
        List<String> names = new ArrayList<>();
        merged.forEachRemaining(c -> names.add(new String(c.name(), StandardCharsets.US_ASCII)));
        assertEquals(List.of("c", "b", "a"), names);
    }

    @Test
    void superColumnsOfOneNameMergeTheirSubcolumns() {
        SuperColumn x1 = SuperColumn.empty(b("x"), BytesType.instance).withColumn(Column.live(b("s1"), b("1"), 1));
        SuperColumn x2 = SuperColumn.empty(b("x"), BytesType.instance).withColumn(Column.live(b("s2"), b("2"), 2));
        Iterator<Cell> merged = new MergingCellIterator(BytesType.instance,
                List.of(RowCells.all(row(x1)), RowCells.all(row(x2))));
        assertEquals(List.of(SuperColumn.merge(x1, x2).toString()), render(merged));
    }

    @Test
    void aSourceIsReadOnlyAsFarAsTheCallerAdvances() {
        int[] taken = {0};
        Iterator<Cell> counting = new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
                return next < 100;
            }

            @Override
            public Cell next() {
                taken[0]++;
                return Column.live(b(String.format("c%03d", next++)), b("v"), 1);
            }
        };
        Iterator<Cell> merged = new MergingCellIterator(BytesType.instance, List.of(counting));
        merged.next();
        merged.next();
        assertEquals(3, taken[0], "the two cells returned and the next one, to know which name comes next");
    }

    @Test
    void namedCellsOfAVersionAreLookedUpInTheOrderGiven() {
        ColumnFamily version = row(Column.live(b("a"), b("1"), 1), Column.live(b("c"), b("1"), 1));
        RowCells named = RowCells.named(version.withDeletion(5, 0), List.of(b("a"), b("b"), b("c")));
        assertEquals(Deletion.of(5, 0), named.deletion());
        assertEquals(List.of(Column.live(b("a"), b("1"), 1).toString(), Column.live(b("c"), b("1"), 1).toString()),
                render(named));
        assertFalse(named.hasNext());
        assertThrows(NoSuchElementException.class, named::next);
        assertThrows(NoSuchElementException.class,
                () -> new MergingCellIterator(BytesType.instance, List.of(RowCells.all(row()))).next());
    }
}
