package sibyl.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.db.TestSchema.b;

import org.junit.jupiter.api.Test;
import sibyl.db.marshal.BytesType;

class ReconciliationTest {
    private static void assertWinner(Column expected, Column a, Column b) {
        assertSame(expected, Column.reconcile(a, b));
        assertSame(expected, Column.reconcile(b, a));
    }

    @Test
    void higherTimestampWins() {
        Column older = Column.live(b("c"), b("zzz"), 1);
        Column newer = Column.live(b("c"), b("a"), 2);
        assertWinner(newer, older, newer);
        Column newerTombstone = Column.tombstone(b("c"), 3, 100);
        assertWinner(newerTombstone, newer, newerTombstone);
        Column newestLive = Column.live(b("c"), b("x"), 4);
        assertWinner(newestLive, newerTombstone, newestLive);
    }

    @Test
    void onEqualTimestampsTombstoneBeatsLive() {
        Column live = Column.live(b("c"), new byte[] {(byte) 0xff}, 5);
        Column tombstone = Column.tombstone(b("c"), 5, 0);
        assertWinner(tombstone, live, tombstone);
    }

    @Test
    void onEqualTimestampsLargerUnsignedValueWins() {
        Column high = Column.live(b("c"), new byte[] {(byte) 0x80}, 5);
        Column low = Column.live(b("c"), new byte[] {0x7f, 0x7f}, 5);
        assertWinner(high, high, low);
        Column prefix = Column.live(b("c"), new byte[] {0x7f}, 5);
        assertWinner(low, prefix, low);
    }

    @Test
    void tombstoneCarriesLocalDeletionTimeAsFourBytes() {
        Column t = Column.tombstone(b("c"), 1, 0x01020304);
        assertEquals(4, t.value().length);
        assertEquals(0x01020304, t.localDeletionTime());
        assertTrue(t.isTombstone());
    }

    @Test
    void superColumnMergeKeepsNewestTombstoneAndReconcilesSubcolumns() {
        SuperColumn a = SuperColumn.empty(b("sc"), BytesType.instance).withDeletion(10, 1)
                .withColumn(Column.live(b("x"), b("1"), 5));
        SuperColumn c = SuperColumn.empty(b("sc"), BytesType.instance).withDeletion(3, 1)
                .withColumn(Column.live(b("x"), b("2"), 6))
                .withColumn(Column.live(b("y"), b("3"), 11));
        for (SuperColumn merged : new SuperColumn[] {SuperColumn.merge(a, c), SuperColumn.merge(c, a)}) {
            assertEquals(Deletion.of(10, 1), merged.deletion());
            assertEquals("2", TestSchema.s(merged.subcolumn(b("x")).value()));
            SuperColumn live = merged.live(Deletion.LIVE, 0);
            assertEquals(1, live.subcolumnCount());
            assertEquals("y", TestSchema.s(live.subcolumns().iterator().next().name()));
        }
        assertEquals(SuperColumn.merge(a, c), SuperColumn.merge(c, a));
    }

    @Test
    void rowMergeIsCommutativeAndKeepsNewestRowTombstone() {
        CFMetaData cf = CFMetaData.standard("ks", "cf", BytesType.instance);
        ColumnFamily r1 = ColumnFamily.empty(cf).withDeletion(4, 0).withCell(Column.live(b("a"), b("1"), 1));
        ColumnFamily r2 = ColumnFamily.empty(cf).withDeletion(2, 0).withCell(Column.live(b("a"), b("2"), 1))
                .withCell(Column.live(b("b"), b("3"), 9));
        ColumnFamily m1 = ColumnFamily.merge(r1, r2);
        ColumnFamily m2 = ColumnFamily.merge(r2, r1);
        assertEquals(Deletion.of(4, 0), m1.deletion());
        assertEquals(m1.toString(), m2.toString());
        assertEquals("2", TestSchema.s(((Column) m1.cell(b("a"))).value()));
    }
}
