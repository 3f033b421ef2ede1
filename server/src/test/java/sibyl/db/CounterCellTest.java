package sibyl.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.db.TestSchema.b;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import sibyl.db.marshal.BytesType;
import sibyl.db.marshal.CounterColumnType;

/** How counter cells merge (docs/semantics.md §Counters): sums, tombstones that win, deletions that hide. */
class CounterCellTest {
    private static final CFMetaData COUNTERS = CFMetaData.standard("Ks", "C", BytesType.instance)
            .withValidators(new Validators(BytesType.instance, CounterColumnType.instance, Map.of()));

    @Test
    void twoCounterCellsAddUpWithTheLaterTimestampInEitherOrder() {
        Column a = Column.counter(b("n"), 5, 10);
        Column c = Column.counter(b("n"), -2, 7);
        for (Column sum : List.of(Column.reconcile(a, c), Column.reconcile(c, a))) {
            assertTrue(sum.isCounter());
            assertEquals(3, sum.count());
            assertEquals(10, sum.timestamp());
        }
    }

    @Test
    void sumsAreAssociativeAndWrapPastTheRangeOfALong() {
        Column x = Column.counter(b("n"), Long.MAX_VALUE, 1);
        Column y = Column.counter(b("n"), 1, 2);
        Column z = Column.counter(b("n"), 4, 3);
        assertEquals(Column.reconcile(Column.reconcile(x, y), z), Column.reconcile(x, Column.reconcile(y, z)));
        assertEquals(Long.MIN_VALUE + 4, Column.reconcile(Column.reconcile(x, y), z).count());
    }

    @Test
    void aTombstoneBeatsACounterWhateverTheirTimestamps() {
        Column tombstone = Column.tombstone(b("n"), 5, 100);
        Column newer = Column.counter(b("n"), 9, 50);
        assertSame(tombstone, Column.reconcile(tombstone, newer));
        assertSame(tombstone, Column.reconcile(newer, tombstone));
    }

    @Test
    void aRowTombstoneLeavesOutTheIncrementsItHidesBeforeTheyAddUpWithNewerOnes() {
        ColumnFamily older = ColumnFamily.empty(COUNTERS).withCell(Column.counter(b("n"), 5, 10))
                .withCell(Column.tombstone(b("gone"), 11, 100));
        ColumnFamily newer = ColumnFamily.empty(COUNTERS).withDeletion(20, 100).withCell(Column.counter(b("n"), 2, 30))
                .withCell(Column.counter(b("gone"), 1, 31));
        for (ColumnFamily merged : List.of(ColumnFamily.merge(older, newer), ColumnFamily.merge(newer, older))) {
            assertEquals(2, ((Column) merged.cell(b("n"))).count(), "the increment before the deletion is left out");
            assertEquals(1, ((Column) merged.cell(b("gone"))).count(), "the tombstone the deletion hides no longer wins");
        }
    }

    @Test
    void aSuperColumnTombstoneHidesItsOlderIncrementsOnly() {
        SuperColumn older = SuperColumn.empty(b("sc"), BytesType.instance).withColumn(Column.counter(b("n"), 5, 10));
        SuperColumn newer = SuperColumn.empty(b("sc"), BytesType.instance).withDeletion(20, 100)
                .withColumn(Column.counter(b("n"), 2, 30));
        assertEquals(2, SuperColumn.merge(older, newer).subcolumn(b("n")).count());
        assertEquals(2, SuperColumn.merge(newer, older).subcolumn(b("n")).count());
        SuperColumn untouched = SuperColumn.empty(b("sc"), BytesType.instance).withColumn(Column.counter(b("n"), 2, 30));
        assertEquals(7, SuperColumn.merge(older, untouched).subcolumn(b("n")).count(), "no tombstone: they add up");
    }

    @Test
    void threeSourcesMergeAsOneWhicheverOrderTheyComeIn() {
        CFMetaData supers = CFMetaData.ofSuper("Ks", "CSup", BytesType.instance, BytesType.instance)
                .withValidators(COUNTERS.validators());
        ColumnFamily oldIncrement = ColumnFamily.empty(supers).withCell(
                SuperColumn.empty(b("sc"), BytesType.instance).withColumn(Column.counter(b("n"), 922, 10)));
        ColumnFamily deletion = ColumnFamily.empty(supers).withCell(SuperColumn.empty(b("sc"), BytesType.instance).withDeletion(20, 100));
        ColumnFamily newIncrement = ColumnFamily.empty(supers).withCell(
                SuperColumn.empty(b("sc"), BytesType.instance).withColumn(Column.counter(b("n"), 365, 30)));
        List<List<ColumnFamily>> orders = List.of(List.of(oldIncrement, newIncrement, deletion),
                List.of(deletion, oldIncrement, newIncrement), List.of(newIncrement, oldIncrement, deletion));
        for (List<ColumnFamily> order : orders) {
            SuperColumn sc = (SuperColumn) ColumnFamily.mergeAll(order).cell(b("sc"));
            assertEquals(365, sc.subcolumn(b("n")).count(), "the deletion hides the older increment, in any order");
        }
    }

    @Test
    void plainColumnsUnderARowTombstoneAreKeptAsTheyWere() {
        CFMetaData plain = CFMetaData.standard("Ks", "S", BytesType.instance);
        ColumnFamily older = ColumnFamily.empty(plain).withCell(Column.live(b("n"), b("v"), 10));
        ColumnFamily newer = ColumnFamily.empty(plain).withDeletion(20, 100);
        assertEquals(Column.live(b("n"), b("v"), 10), ColumnFamily.merge(older, newer).cell(b("n")));
    }

    @Test
    void aMergedSliceLeavesOutIncrementsTheRowTombstoneHides() {
        List<Iterator<Cell>> sources = List.of(
                List.<Cell>of(Column.counter(b("a"), 5, 10), Column.counter(b("b"), 1, 10)).iterator(),
                List.<Cell>of(Column.counter(b("a"), 2, 30)).iterator());
        MergingCellIterator cells = new MergingCellIterator(BytesType.instance, sources, true, Deletion.of(20, 100));
        assertEquals(2, ((Column) cells.next()).count());
        Column hidden = (Column) cells.next();
        assertEquals(1, hidden.count(), "a name whose every version is hidden comes back as one, which reads as hidden");
        assertTrue(Deletion.of(20, 100).shadows(hidden.timestamp()));
        assertTrue(!cells.hasNext());
        assertNull(CellContainer.withoutCountersHiddenBy(Column.counter(b("a"), 1, 20), Deletion.of(20, 100)));
    }
}
